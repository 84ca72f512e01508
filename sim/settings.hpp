// Settings of a run: `--set KEY=VALUE` (the parts' options and the model's
// parameters) and the initial keyframe, shared by Simulation, Batch and the
// rollouts.
#pragma once

#include <string>

#include "core/model.hpp"
#include "core/options.hpp"

namespace contactlab {

// Applies one model parameter override:
//   body.NAME.mass      kg > 0; the inertia is scaled by the same ratio, the com kept
//   geom.NAME.friction  >= 0
// Throws std::invalid_argument naming the key, an unknown name or a bad value.
void apply_model_override(Model& model, const std::string& key, const std::string& value);

// `--set KEY=VALUE` shared by Simulation and Batch: body.NAME.mass and
// geom.NAME.friction change the model; everything else goes to the parts'
// options (model.* is an alias of contact.*). Throws naming the key.
void apply_setting(Model& model, OptionSet& options, const std::string& key_equals_value);

// The keyframe a run starts from: the named one (throws listing the known ones
// if absent), else the model's first, else nullptr (qpos0 at rest).
const Keyframe* initial_keyframe(const Model& model, const std::string& name);

}  // namespace contactlab
