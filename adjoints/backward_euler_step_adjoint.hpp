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
#include "adjoints/solve_adjoint.hpp"
#include "adjoints/step_problem.hpp"
#include "core/contact_model.hpp"
#include "core/dual.hpp"
#include "core/step_adjoint.hpp"
#include "schemes/backward_euler_rows.hpp"
#include "schemes/backward_euler_scheme.hpp"

namespace contactlab {

class BackwardEulerStepAdjoint final : public StepAdjoint {
 public:
  // `scheme`: the options of the backward-Euler scheme whose steps are
  // differentiated; kept by reference, the scheme outlives its adjoint.
  explicit BackwardEulerStepAdjoint(const BackwardEulerOptions& scheme) : scheme_(scheme) {}
  // "backward_euler (dense)" for the exact step map, else the solve adjoint
  // that answers Ostrich's adjoint (adjoint.geometric_stiffness=false).
  std::string solve_method() const override;
  bool needs_state_after() const override { return true; }  // u+ = u_free + delta*
  void begin(StepAdjointContext context) override;
  void backward(const StepRecord& record, StepCotangents& io) override;
  const StepAdjointReport& report() const override { return report_; }

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

  // The buffers of one backward step, sized by begin() and the first step and kept.
  struct Workspace {
    ContactRedetection contacts;
    Data base;                               // the world at the recorded inputs
    BackwardEulerRows rows;
    ConstraintProblem at;                    // the problem with J_d rows, for M^-1 J^T products
    ConstraintProblem base_problem_rows;     // the recorded step's rows (layout, compliances)
    // Dual-number buffers of evaluate_tangent.
    DualInputs dual_inputs;
    std::vector<Vec3T<Dual>> xk, vk, wk;
    std::vector<QuatT<Dual>> qk;
    std::vector<Dual> u_free_d, inv_mass_d, wrench_d, zero_d;
    std::vector<Mat3T<Dual>> inv_inertia_d;
    std::vector<ConstraintRowT<Dual>> rows0_d, rowsk_d;
    std::vector<Dual> compliance0_d, mu0_d, bias0_d, compliancek_d, muk_d, biask_d;
    std::vector<ContactT<Dual>> contacts0_d, contactsk_d;
    ContactMotionT<Dual> motion_d;
    std::vector<ConstraintRow> jd;
    LocalSensitivity sensitivity;
  };

  const BackwardEulerOptions& scheme_;
  StepAdjointContext ctx_;
  const StepInputs* inputs_ = nullptr;  // of the step being differentiated
  std::unique_ptr<Workspace> ws_;
  StepAdjointReport report_;
};

}  // namespace contactlab
