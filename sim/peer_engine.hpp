// Peer engines: other simulators that run the same MJCF file, stepped with
// contactlab's controls and read back into contactlab's state, so that their
// runs are measured by the same code as contactlab's (studies/comparison.hpp).
//
// The interface lives here and the engines in peers/ (MuJoCo), which register
// themselves with register_peer_engine (peers/register_peers.hpp:
// register_builtin_peers); studies and users find them by name. A user's own
// engine registers the same way.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/data.hpp"
#include "core/model.hpp"

namespace contactlab {

class PeerEngine {
 public:
  virtual ~PeerEngine() = default;
  // The row label of its runs, e.g. "mujoco(implicit)".
  virtual std::string label() const = 0;
  virtual void set_timestep(double h) = 0;
  // The named keyframe, else the file's first keyframe, else its rest pose.
  virtual void reset(const std::string& keyframe = "") = 0;
  // One step with contactlab's controls (one per contactlab actuator).
  virtual void step(const std::vector<double>& ctrl) = 0;
  // The state in contactlab's variables (centre-of-mass positions and
  // velocities, orientations, world angular velocities, time, step count).
  virtual void read_state(Data& out) const = 0;
  virtual int num_contacts() const = 0;
  virtual double max_penetration() const = 0;  // m, 0 without contacts
  virtual int solver_iterations() const = 0;   // of the last step
};

// Makes an engine for the MJCF file at `path`, whose contactlab reading is `model`.
using PeerEngineFactory = std::function<std::unique_ptr<PeerEngine>(const std::string& path, const Model& model)>;

// Registers (or replaces) the engine `name`. Throws std::invalid_argument for an empty name or factory.
void register_peer_engine(const std::string& name, const std::string& summary, PeerEngineFactory factory);
struct PeerEngineInfo {
  std::string name, summary;
};
std::vector<PeerEngineInfo> peer_engines();
bool has_peer_engine(const std::string& name);
// Throws std::invalid_argument naming the unknown engine and the registered ones.
std::unique_ptr<PeerEngine> make_peer_engine(const std::string& name, const std::string& path, const Model& model);

}  // namespace contactlab
