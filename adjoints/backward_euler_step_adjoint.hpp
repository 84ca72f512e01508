// Reverse mode through one backward-Euler step (schemes/backward_euler_scheme.hpp;
// Ostrich's scheme, MATH.md A.1, D.1 in this code's variables).
//
// The step's solution (delta*, lambda*) satisfies, with x the inputs (state
// before the step, controls, parameters):
//   E(delta, lambda; x) = delta - M^-1 J_d(q+)^T lambda = 0          (dynamics)
//   sigma = W(delta, lambda; x) = w(q+, u+) + R lambda                (row values)
//   the contact law on (lambda, sigma),   u+ = u_free(x) + delta.
// Eliminating delta around the solution gives a local problem in lambda,
//   d sigma = A d lambda + B dx,  A = W_lambda - W_delta E_delta^-1 E_lambda,
//   B = W_x - W_delta E_delta^-1 E_x,
// whose law is linearised by the local sensitivity (exact, Signorini-relaxed or
// central path, adjoints/local_sensitivity.hpp). E_delta includes the
// derivative of J(q+)^T lambda with respect to u+ (the term Newton drops).
// E_delta, W_delta and the x-derivatives are central differences of the
// scheme's own row evaluation (schemes/backward_euler_rows.hpp) at the recorded
// solution, with the step's contact set carried by ContactMotion; E_lambda and
// W_lambda are exact. Reverse: with u+_bar from the state after the step,
//   z = -E_delta^-T u+_bar,  lambda_bar = E_lambda^T z,  b_bar = VJP(lambda_bar),
//   x_bar = (z - E_delta^-T W_delta^T b_bar)^T E_x + u_free_x^T u+_bar + W_x^T b_bar.
#pragma once

#include <memory>
#include <vector>

#include "adjoints/contact_redetection.hpp"
#include "adjoints/grad_inputs.hpp"
#include "adjoints/local_sensitivity.hpp"
#include "adjoints/loss.hpp"
#include "adjoints/step_problem.hpp"
#include "adjoints/velocity_step_adjoint.hpp"
#include "core/contact_model.hpp"
#include "core/dual.hpp"
#include "schemes/backward_euler_rows.hpp"
#include "schemes/backward_euler_scheme.hpp"

namespace contactlab {

class BackwardEulerStepAdjoint {
 public:
  // `inputs`: the step's recorded inputs (state at q-, controls, contacts);
  // `lambda`: its impulses; `after`: the state it produced (u+ = u_free + delta*).
  void backward(const Model& model, const ContactModel& law, const BackwardEulerOptions& scheme, Real h,
                const StepInputs& inputs, const std::vector<Real>& lambda, const std::vector<RigidState>& after,
                const std::vector<BodyCotangent>& after_bar, const std::vector<GradInput>& params,
                std::vector<BodyCotangent>& before_bar, VecX& ctrl_bar, VecX& param_bar);
  StepAdjointOptions options;
  // The solve adjoint of options.geometric_stiffness = false (Rollout sets the
  // solver's pairing; the reference until set).
  void set_solve_adjoint(std::unique_ptr<SolveAdjoint> solve) { solve_ = std::move(solve); }
  const SensitivityReport& last_report() const { return report_ ? *report_ : sensitivity_.report(); }
  // The solve adjoint's statistics when it answered the last step (Ostrich's
  // adjoint), else null (the exact step map's dense linearisation).
  const SolveAdjointStats* last_solve_stats() const {
    return !options.geometric_stiffness && solve_ ? &solve_->stats() : nullptr;
  }
  double last_solve_seconds() const { return last_solve_seconds_; }

 private:
  struct Evaluation {
    VecX E, W, u_free;
  };
  // Everything at inputs perturbed by dx (12 per body, may be null) and ctrl
  // (may be null), for `model`, at (delta, lambda).
  void evaluate(const Model& model, const Real* dx, const Real* ctrl, const VecX& delta, const VecX& lambda,
                Evaluation& out);
  // The same over dual numbers at the recorded inputs: values into `value`,
  // derivatives along seed (12 per body, may be null), ctrl_seed (na, may be
  // null) and delta_seed (6 nb, may be null) into `tangent` (exact; contacts
  // of searching pairs by differences of step eps, then false).
  bool evaluate_tangent(const Model& model, const Real* seed, const Real* ctrl_seed, const Real* delta_seed,
                        const VecX& delta, const VecX& lambda, Real eps, Evaluation& value, Evaluation& tangent);

  const ContactModel* law_ = nullptr;
  BackwardEulerOptions scheme_;
  Real h_ = 0;
  const StepInputs* inputs_ = nullptr;
  ContactRedetection contacts_;
  Data base_;
  bool base_ready_ = false;
  BackwardEulerRows rows_;
  ConstraintProblem at_;       // the problem with J_d rows, for M^-1 J^T products
  ConstraintProblem base_problem_rows_;  // the recorded step's rows (layout, compliances)
  // Dual-number buffers of evaluate_tangent.
  DualInputs dual_inputs_;
  std::vector<Vec3T<Dual>> xk_, vk_, wk_;
  std::vector<QuatT<Dual>> qk_;
  std::vector<Dual> u_free_d_, inv_mass_d_, wrench_d_, zero_d_;
  std::vector<Mat3T<Dual>> inv_inertia_d_;
  std::vector<ConstraintRowT<Dual>> rows0_d_, rowsk_d_;
  std::vector<Dual> compliance0_d_, mu0_d_, bias0_d_, compliancek_d_, muk_d_, biask_d_;
  std::vector<ContactT<Dual>> contacts0_d_, contactsk_d_;
  ContactMotionT<Dual> motion_d_;
  std::vector<ConstraintRow> jd_;
  LocalSensitivity sensitivity_;
  std::unique_ptr<SolveAdjoint> solve_;
  const SensitivityReport* report_ = nullptr;  // of the last step's linearisation
  double last_solve_seconds_ = 0;
};

}  // namespace contactlab
