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
#include "adjoints/solve_adjoint.hpp"
#include "adjoints/step_problem.hpp"
#include "core/contact_model.hpp"
#include "core/step_adjoint.hpp"
#include "schemes/moreau_scheme.hpp"
#include "schemes/quasi_dynamic_scheme.hpp"
#include "schemes/velocity_scheme.hpp"

namespace contactlab {

class VelocityStepAdjoint final : public StepAdjoint {
 public:
  // `scheme`: the options of the velocity scheme (or of the quasi-dynamic
  // scheme's velocity phases) whose steps are differentiated; kept by
  // reference, the scheme outlives its adjoint.
  explicit VelocityStepAdjoint(const VelocitySchemeOptions& scheme) : scheme_(scheme) {}
  std::string solve_method() const override;
  void begin(StepAdjointContext context) override;
  // The law may be a de Saxce-type law or a convex one (ccp, whose contact
  // compliance is part of the local problem).
  void backward(const StepRecord& record, StepCotangents& io) override;
  const StepAdjointReport& report() const override { return report_; }

 private:
  // The buffers of one backward step, sized by the first and kept.
  struct Workspace {
    StepProblem step;
    StepProblemData y0, ybar, yplus, yminus, ytan_value, ytan;
  };
  const VelocitySchemeOptions& scheme_;
  StepAdjointContext ctx_;
  Workspace ws_;
  StepAdjointReport report_;
};

// The quasi-dynamic scheme's steps (schemes/quasi_dynamic_scheme.hpp): the
// velocity scheme's step on a world whose velocities were dropped, so the
// velocity adjoint on records with zero velocities, and the velocities'
// cotangents dropped before each step (with scheme.drop=all).
class QuasiDynamicStepAdjoint final : public StepAdjoint {
 public:
  explicit QuasiDynamicStepAdjoint(const QuasiDynamicOptions& scheme) : scheme_(scheme), velocity_(scheme.stepping) {}
  std::string solve_method() const override { return velocity_.solve_method(); }
  void record_before(const Model& model, const Data& data, StepRecord& record) const override;
  void begin(StepAdjointContext context) override { velocity_.begin(std::move(context)); }
  void backward(const StepRecord& record, StepCotangents& io) override;
  const StepAdjointReport& report() const override { return velocity_.report(); }

 private:
  const QuasiDynamicOptions& scheme_;
  VelocityStepAdjoint velocity_;
};

// Moreau's midpoint scheme (schemes/moreau_scheme.hpp): the velocity
// scheme's phases from q_m = q_k + (h/2) u_k with position_step 1/2, so the
// velocity adjoint (its integrator the second drift, q+ = Exp((h/2) w+) q_m)
// on the record moved to the midpoint, then the first drift's partials:
//   x_bar_k = x_bar_m,  v_bar_k = v_bar + (h/2) x_bar_m,
//   theta_bar_k = E^T theta_bar_m,  w_bar_k = w_bar + (h/2) J_l((h/2) w_k)^T theta_bar_m,
// E the rotation Exp((h/2) w_k), J_l SO(3)'s left Jacobian.
class MoreauStepAdjoint final : public StepAdjoint {
 public:
  explicit MoreauStepAdjoint(const VelocitySchemeOptions& scheme) : velocity_(scheme) {}
  std::string solve_method() const override { return velocity_.solve_method(); }
  void begin(StepAdjointContext context) override {
    context_model_ = context.model;
    h_ = context.h;
    velocity_.begin(std::move(context));
  }
  void backward(const StepRecord& record, StepCotangents& io) override;
  const StepAdjointReport& report() const override { return velocity_.report(); }

 private:
  VelocityStepAdjoint velocity_;
  const Model* context_model_ = nullptr;
  Real h_ = 0;
  StepRecord mid_;                          // the record moved to the midpoint
  std::vector<BodyCotangent> mid_bar_;      // cotangent of (x_m, q_m, u_k)
};

}  // namespace contactlab
