// What `contactlab run`, `grad` and `gradcheck` share: how a loaded scene, its
// parts, option settings, initial keyframe, step count and control overrides
// become a simulation and a sequence of steps. Errors name the offending
// option, file and line (std::invalid_argument). Reading the scene file is
// io's (io/scene_library.hpp: load_scene); a spec holds the model it read.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/simulation.hpp"

namespace contactlab {

struct RolloutSpec {
  std::string scene;                        // built-in name or MJCF path (the label of messages)
  std::shared_ptr<const Model> model;       // the scene as read (io/scene_library.hpp: load_scene)
  std::string contact = "desaxce", solver = "padmm", scheme = "velocity";
  // Not given: the file's timestep; the scene's contactlab.duration. A value
  // given is checked (sim/run_parameters.hpp): --dt 0 or --steps -1 are refused.
  std::optional<double> dt;        // s
  std::optional<double> duration;  // s
  std::optional<long> steps;       // instead of duration
  std::vector<std::string> sets;   // KEY=VALUE
  std::string keyframe;
  std::vector<std::string> ctrls;  // ACTUATOR=VALUE, held for the whole run
  std::string ctrl_file;           // CSV `step,ACTUATOR,...`, overrides on its steps
  bool allow_unsupported = false;  // --allow-unsupported: load despite unsupported MJCF features (io/mjcf.hpp)
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

// `steps`: the run's step count; a table row for a later step is refused (-1: not checked).
// Control values are bounded (limits::kControl); table steps are non-negative
// integers, each at most once; a trailing '\r' (CRLF files) is ignored.
ControlOverrides parse_control_overrides(const std::vector<std::string>& ctrls, const std::string& ctrl_file,
                                         const Model& model, long steps = -1);

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
