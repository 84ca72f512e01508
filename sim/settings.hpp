// Settings of a run: `--set KEY=VALUE` (the parts' options and the model's
// parameters) and the initial keyframe, shared by Simulation, Batch and the
// rollouts.
#pragma once

#include <string>

#include "core/contact_model.hpp"
#include "core/model.hpp"
#include "core/options.hpp"
#include "core/scheme.hpp"
#include "core/solver.hpp"

namespace contactlab {

// The model's parameters as options of `set`, one key per named element:
//   body.NAME.mass         kg > 0 (bodies with mass); the inertia is scaled by
//                          the same ratio, the centre of mass kept
//   geom.NAME.friction     >= 0, the sliding friction coefficient
//   actuator.NAME.kp       position servo stiffness, >= 0
//   actuator.NAME.kv       position servo damping or velocity servo gain, >= 0
// The options refer to `model`'s elements, which must stay where they are
// (its vectors are not resized) while `set` is used.
void bind_model_parameters(OptionSet& set, Model& model);
// Whether `key` names a model parameter (body., geom. or actuator. prefix).
bool is_model_parameter(const std::string& key);

// Applies one model parameter override (the keys of bind_model_parameters).
// Throws std::invalid_argument naming the key, an unknown name or a bad value.
void apply_model_override(Model& model, const std::string& key, const std::string& value);

// The options of a world's parts and model in one set: the law's under
// "contact." (alias "model."), the solver's under "solver.", the scheme's
// under "scheme.", and the model's parameters.
void bind_run_options(OptionSet& set, Model& model, ContactModel& law, Solver& solver, Scheme& scheme);

// The keyframe a run starts from: the named one (throws listing the known ones
// if absent), else the model's first, else nullptr (qpos0 at rest).
const Keyframe* initial_keyframe(const Model& model, const std::string& name);

}  // namespace contactlab
