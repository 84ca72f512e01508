// The three point-mass tasks of Kim et al.'s contact-implicit trajectory
// optimisation (Fig. 1), as a rollout and a tracking cost each
// (docs/studies.md defines them): a 1 kg ball of radius 5 cm with a large
// rotational inertia (it slides instead of rolling: a point mass), world-frame
// force motors fx, fz, a floor with mu 0.8, 30 steps of 50 ms, contacts
// created within 0.1 m of the floor (so that the relaxed gradients see it).
//   lift_off  gravity 9.81, resting on the floor, target 0.5 m straight up
//   traverse  gravity 9.81, resting on the floor, target 0.5 m along x
//   braking   no gravity, 2 cm above the floor moving at 1 m/s along x, target
//             its start at rest; |fx| <= 1 N, so only friction brakes fast
#pragma once

#include <string>
#include <vector>

#include "optimizers/ilqr.hpp"

namespace contactlab {

struct CitoTask {
  std::string name;
  RolloutSpec spec;
  TrackingCost cost;
  Real radius = 0.05;  // m, of the ball (contact: height - radius below kContactGap)
};

const std::vector<std::string>& cito_task_names();
// Throws std::invalid_argument naming `name` when it is no task.
CitoTask make_cito_task(const std::string& name);

// Steps t = 1..T with the ball touching the floor (gap below 1 mm), and their
// labels: "free", "stick" (|v_x| < 1 mm/s) or "slide".
std::vector<std::string> cito_contact_modes(const CitoTask& task, const Trajectory& tr);

}  // namespace contactlab
