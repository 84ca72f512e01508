// What a gradient is taken with respect to (`contactlab grad --wrt LIST`).
//
//   init:BODY.FIELD          initial state: px py pz (body origin), vx vy vz
//                            (origin velocity, w held), wx wy wz (w, origin
//                            velocity held), rx ry rz (turn about the world
//                            axes through the origin)
//   param:geom.NAME.friction sliding friction of a geom
//   param:body.NAME.mass     mass of a body (inertia scaled with it, as --set body.NAME.mass)
//   param:actuator.NAME.kp   position servo stiffness
//   param:actuator.NAME.kv   position servo damping, or a velocity servo's gain
//                            (MJCF's kv attribute of <velocity>)
//   ctrl:ACTUATOR            the control at every step (gradient summed over steps)
//   ctrl:ACTUATOR@STEP       the control at one step (0-based: the step from t = STEP h)
// Each input can perturb a rollout (used by the finite-difference checker).
#pragma once

#include <string>
#include <vector>

#include "core/data.hpp"
#include "core/model.hpp"

namespace contactlab {

struct GradInput {
  enum class Kind { Init, Friction, Mass, Stiffness, Damping, VelocityGain, Control };
  Kind kind = Kind::Init;
  int index = -1;       // body, geom or actuator
  int field = 0;        // Init: 0..8 px..wz, 9..11 rx ry rz
  long step = -1;       // Control: -1 = every step
  std::string text;     // as written (the JSON key)
};

std::vector<GradInput> parse_grad_inputs(const std::string& list, const Model& model);

// Perturbations by eps along one input.
void perturb_model(const GradInput& input, Real eps, Model& model);                       // params
void perturb_initial_state(const GradInput& input, Real eps, const Model& model, Data& data);  // init
// Added to the actuator's control at `step` (after schedules and overrides).
Real control_perturbation(const GradInput& input, Real eps, int actuator, long step);

}  // namespace contactlab
