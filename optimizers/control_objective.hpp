// A rollout as an optimiser's objective: knot values of a control spline
// (optimizers/control_spline.hpp) -> per-step controls -> a rollout of the
// spec -> the loss (adjoints/loss.hpp, on the final state) plus an optional
// control effort  effort_weight * h * sum_t |u_t|^2  over the spline's
// actuators. The gradient is one backward pass (sim/rollout.hpp) with
// respect to every spline actuator's control at every step, pulled back
// through the clamp and the spline.
//
// The spline's controls replace the spec's control file; the spec's
// constant controls (--ctrl) still drive the other actuators.
#pragma once

#include <functional>
#include <string>

#include "adjoints/loss.hpp"
#include "core/step_adjoint_options.hpp"
#include "optimizers/adam.hpp"
#include "optimizers/control_spline.hpp"
#include "sim/rollout.hpp"
#include "sim/rollout_setup.hpp"

namespace contactlab {

struct ControlObjectiveOptions {
  Real effort_weight = 0;        // weight of h * sum_t |u_t|^2 (units of the loss per (control^2 s))
  StepAdjointOptions adjoint;    // sensitivity kind, solve VJP, ...
  long checkpoint_interval = 0;  // Rollout::run's
  // Called after each evaluation's forward pass with the final state (a
  // study's success gate, a log of final poses); with checkpoints, before
  // the backward pass replays the segments.
  std::function<void(const Model&, const Data&)> on_final_state;
  // Edits of the model and the initial state of every rollout (a planner's
  // start from a plant's current state: optimizers/gradient_mpc.hpp).
  RolloutHooks hooks;
};

class ControlObjective {
 public:
  // Throws std::invalid_argument when the spec's step count differs from the
  // spline's, when the spec has a control file, or when the loss does not parse.
  ControlObjective(RolloutSpec spec, const std::string& loss, ControlSpline spline,
                   ControlObjectiveOptions options = {});

  // Loss at `knots`; with `gradient`, also dL/dknots (one forward and one backward pass).
  Evaluation evaluate(const VecX& knots, VecX* gradient) const;
  // As a function the optimisers take.
  GradientObjective function() const;

  // A rollout prepared with the knots' controls, not yet run.
  PreparedRollout prepare(const VecX& knots) const;
  // The effort term for per-step controls u (steps x spline actuators).
  Real effort(const MatX& u) const { return options_.effort_weight * h_ * u.squaredNorm(); }
  const std::string& loss() const { return loss_text_; }
  const ControlSpline& spline() const { return spline_; }
  const RolloutSpec& spec() const { return spec_; }
  long steps() const { return spline_.steps(); }
  Real h() const { return h_; }

 private:
  RolloutSpec spec_;
  std::string loss_text_;
  ControlSpline spline_;
  ControlObjectiveOptions options_;
  Real h_ = 0;
};

}  // namespace contactlab
