// An input a rollout's gradient is taken with respect to (`contactlab grad
// --wrt`; parsed by adjoints/grad_inputs.hpp): part of the initial state, a
// control, or a model parameter.
#pragma once

#include <string>

namespace contactlab {

struct GradInput {
  enum class Kind { Init, Friction, Mass, Stiffness, Damping, VelocityGain, Control };
  Kind kind = Kind::Init;
  int index = -1;       // body, geom or actuator
  int field = 0;        // Init: 0..8 px..wz, 9..11 rx ry rz
  long step = -1;       // Control: -1 = every step
  std::string text;     // as written (the JSON key)
};

}  // namespace contactlab
