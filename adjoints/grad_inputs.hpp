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
#include "core/grad_input.hpp"
#include "core/model.hpp"

namespace contactlab {

// GradInput: core/grad_input.hpp.
std::vector<GradInput> parse_grad_inputs(const std::string& list, const Model& model);

// Perturbations by eps along one input.
void perturb_model(const GradInput& input, Real eps, Model& model);                       // params
void perturb_initial_state(const GradInput& input, Real eps, const Model& model, Data& data);  // init
// Added to the actuator's control at `step` (after schedules and overrides).
Real control_perturbation(const GradInput& input, Real eps, int actuator, long step);

}  // namespace contactlab
