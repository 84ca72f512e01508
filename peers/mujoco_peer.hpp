// MuJoCo as a peer engine: the same MJCF file run by MuJoCo 2.2.2 (Debian's
// libmujoco-dev) with its own parser, defaults, contact model and the
// integrator the file names, stepped with contactlab's control schedule and
// read back into contactlab's state (Data's bodies), so its runs are measured
// by the same code as contactlab's (trajectory CSV, comparisons).
//
// Built when CMake finds MuJoCo (CONTACTLAB_MUJOCO=AUTO|ON|OFF); otherwise
// MujocoPeer::built() is false and constructing one throws, naming the package.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/data.hpp"
#include "core/model.hpp"
#include "sim/peer_engine.hpp"

namespace contactlab {

class MujocoPeer final : public PeerEngine {
 public:
  static bool built();

  // Loads `path` in MuJoCo and maps its bodies and actuators to `model`'s
  // (contactlab's reading of the same file) by name. Throws std::invalid_argument
  // with MuJoCo's own message for a file it refuses, or when names do not match.
  MujocoPeer(const std::string& path, const Model& model);
  ~MujocoPeer() override;
  MujocoPeer(const MujocoPeer&) = delete;
  MujocoPeer& operator=(const MujocoPeer&) = delete;

  std::string integrator() const;  // "Euler", "RK4" or "implicit", as the file sets it
  std::string label() const override { return "mujoco(" + integrator() + ")"; }
  double timestep() const;         // the file's <option timestep>
  void set_timestep(double h) override;
  // The named keyframe, else the file's first keyframe, else qpos0 at rest
  // (as Simulation::reset). Throws for an unknown keyframe.
  void reset(const std::string& keyframe = "") override;
  // Sets MuJoCo's qpos and qvel (its own layout, which contactlab's
  // generalised coordinates follow: core/kinematics.hpp) and runs mj_forward.
  // Throws std::invalid_argument for a size other than nq / nv or a non-finite value.
  void set_generalized_state(const std::vector<double>& qpos, const std::vector<double>& qvel);
  // One MuJoCo step with contactlab's controls (per contactlab actuator;
  // MuJoCo clamps to ctrlrange itself). Throws std::runtime_error when MuJoCo
  // reports an unstable simulation or the state turns non-finite.
  void step(const std::vector<double>& ctrl) override;
  // The state in contactlab's variables: x_W = centre of mass (MuJoCo's
  // xipos), q_WB (xquat), v_W = centre-of-mass velocity and w_W (world frame,
  // mj_objectVelocity), time and step count.
  void read_state(Data& out) const override;
  int num_contacts() const override;
  double max_penetration() const override;  // largest -dist over MuJoCo's contacts, 0 if none
  int solver_iterations() const override;   // of the last step

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace contactlab
