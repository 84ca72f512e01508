// A rollout driven one step at a time by a feedback policy, and the step
// Jacobians along it: A_t = d x_{t+1} / d x_t, B_t = d x_{t+1} / d u_t.
//
// State: maximal coordinates, per body of the model (in model order) 12
// numbers in the step adjoints' coordinates (core/step_adjoint.hpp's
// BodyCotangent): centre of mass x_W, a world-frame rotation increment
// theta (q = Exp(theta) q_ref), centre-of-mass velocity v_W, world angular
// velocity w_W. A state difference a - b is (x_a - x_b, Log(q_a q_b^-1),
// v_a - v_b, w_a - w_b). MJCF generalised coordinates are not used: the
// step adjoints work in maximal coordinates, and joints are constraint rows
// there (A_t then carries the joints' projection, exact to the solver's
// tolerance).
//
// Controls: every actuator of the model (u_t has model.actuators.size()
// entries), clamped to ctrlrange before the step.
//
// Jacobians by reverse mode: the step adjoint gives the vector-Jacobian
// product (c^T A_t, c^T B_t) for a cotangent c of x_{t+1}; seeding c = e_i
// for each of the n state coordinates gives row i of [A_t B_t]. That is n
// backward steps per step. Forward mode would need n + na tangents, so
// reverse is never more expensive here; neither is available in forward
// form, and finite differences are offered only as a check
// (`finite_difference_jacobians`).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "core/step_adjoint.hpp"
#include "core/step_adjoint_options.hpp"
#include "sim/rollout.hpp"
#include "sim/rollout_setup.hpp"

namespace contactlab {

using BodyStates = std::vector<RigidState>;

int state_dimension(const Model& model);  // 12 * bodies
BodyStates read_body_states(const Model& model, const Data& data);
// a - b as above, size state_dimension.
void state_difference(const BodyStates& a, const BodyStates& b, VecX& out);
// b + d (the inverse of state_difference: q = Exp(theta) q_b).
BodyStates state_add(const BodyStates& b, const VecX& d);

struct Trajectory {
  std::vector<BodyStates> x;  // (steps + 1) states
  MatX u;                     // (steps x actuators) controls as applied (clamped)
};

// u_t from the step and the state before it; `u` arrives sized (actuators).
using FeedbackPolicy = std::function<void(long t, const BodyStates& x, VecX& u)>;

class StepwiseRollout {
 public:
  // Throws std::invalid_argument when the spec's parts have no step adjoint
  // (sim/rollout.hpp: check_differentiable) or the model has no actuator.
  StepwiseRollout(RolloutSpec spec, StepAdjointOptions options = {});
  // Runs the spec's steps from its initial state. Throws std::runtime_error
  // when the simulation diverges (Simulation::step).
  void run(const FeedbackPolicy& policy, Trajectory& out);
  // A_t (n x n), B_t (n x na) along the last run.
  void jacobians(std::vector<MatX>& A, std::vector<MatX>& B);

  long steps() const { return steps_; }
  Real h() const { return h_; }
  int state_dim() const { return n_; }
  int control_dim() const { return na_; }
  const Model& model() const { return model_->sim.model(); }
  const RolloutSpec& spec() const { return spec_; }
  VecX clamp_controls(const VecX& u) const;

 private:
  RolloutSpec spec_;
  StepAdjointOptions options_;
  std::unique_ptr<PreparedRollout> model_;  // the last run's world (its parts serve the adjoint)
  std::unique_ptr<StepAdjoint> adjoint_;
  std::vector<StepRecord> records_;
  long steps_ = 0;
  Real h_ = 0;
  int n_ = 0, na_ = 0;
};

// Central differences of the step map around each step of `trajectory`
// (eps in state units and control units), for checks.
void finite_difference_jacobians(const RolloutSpec& spec, const Trajectory& trajectory, Real eps,
                                 std::vector<MatX>& A, std::vector<MatX>& B);

}  // namespace contactlab
