// Reverse mode through one step of the velocity scheme (MATH.md A.2, D.1-D.3
// in this scheme's variables), for any solver of a hard law.
//
// Forward:  u_free = u- + h M^-1 f,   v_free = J u_free + bias,
//           lambda solves the law for sigma = (J M^-1 J^T + R) lambda + v_free,
//           u+ = u_free + M^-1 J^T lambda,   x+ = x- + h v+,  q+ = Exp(h w+) q-.
// Backward, given the cotangent of (x+, q+, v+, w+):
//   1. through the integrator (J_l of SO(3)'s exponential for q+),
//   2. through u+ = u_free + M^-1 J^T lambda: lambda_bar = J M^-1 u+_bar,
//   3. through the solve: the solve adjoint paired with the solver gives
//      v_free_bar and mu_bar, A_bar = v_free_bar lambda^T
//      (adjoints/solve_adjoint.hpp; the sensitivity kind — exact,
//      Signorini-relaxed or central path — chosen independently of the solver),
//   4. through v_free = J u_free + bias and A = J M^-1 J^T + R analytically,
//   5. through the step's data (J, bias, R, M^-1, mu, u_free) to the state
//      before the step, the controls and the parameters: the pull-back
//      (adjoints/step_problem.hpp): exact for the state and the controls (one
//      dual-number pass of the forward code per input, evaluate_tangent),
//      central differences for the parameters (docs/gradients.md).
#pragma once

#include <memory>
#include <vector>

#include "adjoints/grad_inputs.hpp"
#include "adjoints/local_sensitivity.hpp"
#include "adjoints/loss.hpp"
#include "adjoints/solve_adjoint.hpp"
#include "adjoints/step_adjoint_options.hpp"
#include "adjoints/step_problem.hpp"
#include "core/contact_model.hpp"

namespace contactlab {

class VelocityStepAdjoint {
 public:
  // `law`: the forward law (de Saxce-type laws, or a convex one: ccp, whose
  // contact compliance is part of the local problem). `after`: cotangent of
  // the state after the step (per body). Writes the
  // cotangent of the state before it into `before`, adds the step's control
  // cotangents into ctrl_bar (na) and the parameters' into param_bar (one per
  // entry of `params`, which must be parameter inputs).
  void backward(const Model& model, const ContactModel& law, StepProblem& step, const std::vector<Real>& lambda,
                const std::vector<BodyCotangent>& after, const std::vector<GradInput>& params,
                std::vector<BodyCotangent>& before, VecX& ctrl_bar, VecX& param_bar);
  StepAdjointOptions options;
  // The solve's adjoint (the reference until set; Rollout sets the solver's pairing).
  void set_solve_adjoint(std::unique_ptr<SolveAdjoint> solve) { solve_ = std::move(solve); }
  const SensitivityReport& last_report() const { return solve_->report(); }
  const SolveAdjointStats& last_solve_stats() const { return solve_->stats(); }
  double last_solve_seconds() const { return last_solve_seconds_; }  // wall time of step 3 (linearise + VJP)
  // Seeds of the last step whose contact tangents came from differences (pairs whose routine searches).
  long last_differenced_seeds() const { return differenced_; }

 private:
  std::unique_ptr<SolveAdjoint> solve_;
  double last_solve_seconds_ = 0;
  StepProblemData y0_, ybar_, yplus_, yminus_, ytan_value_, ytan_;
  long differenced_ = 0;  // seeds of the last step whose contact tangents came from differences
};

}  // namespace contactlab
