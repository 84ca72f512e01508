// What `contactlab run`, `grad` and `gradcheck` share: how a loaded scene, its
// parts, option settings, initial keyframe, step count and control overrides
// become a simulation and a sequence of steps. Errors name the offending
// option, file and line (std::invalid_argument). Reading the scene file is
// io's (io/scene_library.hpp: load_scene); a spec holds the model it read.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/simulation.hpp"

namespace contactlab {

struct RolloutSpec {
  std::string scene;                        // built-in name or MJCF path (the label of messages)
  std::shared_ptr<const Model> model;       // the scene as read (io/scene_library.hpp: load_scene)
  std::string contact = "desaxce", solver = "padmm", scheme = "velocity";
  double dt = 0;          // 0: the file's timestep
  double duration = -1;   // s; -1: not given
  long steps = -1;        // -1: not given (duration, else the scene's default duration)
  std::vector<std::string> sets;   // KEY=VALUE
  std::string keyframe;
  std::vector<std::string> ctrls;  // ACTUATOR=VALUE, held for the whole run
  std::string ctrl_file;           // CSV `step,ACTUATOR,...`, overrides on its steps
};

// Controls beyond the scene's schedule: constants for the whole run, then a
// per-step table from a file (which wins on its steps).
struct ControlOverrides {
  std::vector<std::pair<int, Real>> constant;  // actuator, value
  std::vector<int> table_actuators;            // table column -> actuator
  std::map<long, std::vector<Real>> table;     // step -> values
  // Writes the overrides for the step about to be taken into data.ctrl.
  void apply(Data& data) const;
};

ControlOverrides parse_control_overrides(const std::vector<std::string>& ctrls, const std::string& ctrl_file,
                                         const Model& model);

// Hooks for perturbed reruns (finite differences): edit the model before the
// simulation is built, the state after reset.
struct RolloutHooks {
  std::function<void(Model&)> edit_model;
  std::function<void(const Model&, Data&)> edit_initial_state;
};

struct PreparedRollout {
  Simulation sim;
  Real h = 0;
  long steps = 0;
  ControlOverrides controls;
};

// Throws std::invalid_argument when spec.model is not set.
PreparedRollout prepare_rollout(const RolloutSpec& spec, const RolloutHooks& hooks = {});

}  // namespace contactlab
