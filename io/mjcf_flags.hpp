// <option><flag> settings that contactlab applies to the model at load.
#pragma once

#include "core/model.hpp"

namespace contactlab {

// true = enabled (MuJoCo's default for these five).
struct MjcfFlags {
  bool contact = true;     // false: no geom pair collides
  bool constraint = true;  // false: contacts, joint limits and equalities all off
  bool gravity = true;     // false: zero gravity
  bool limit = true;       // false: joint limits off
  bool equality = true;    // false: equality constraints dropped
};

// Applies the disabled flags to a parsed model. The joints of maximal
// coordinates (hinge, slide, ball, free, internal welds) are never touched:
// MuJoCo's joints are coordinates, not constraints, so no flag removes them.
void apply_mjcf_flags(const MjcfFlags& flags, Model& model);

}  // namespace contactlab
