// The adjoint paired with convex_newton: CQDC's implicit gradient (MATH.md
// D.4) in this code's velocity variables. The solve minimises
//   l(du) = 1/2 du^T M du + penalty(r),  r = J du + v_f,
// so at the optimum g = M du - J^T lambda(r, mu) = 0 with lambda = -d penalty/dr.
// Implicit differentiation with H = dg/ddu = M + J^T W J, W = -dlambda/dr:
//   H d(du) = J^T (-W dv_f + dlambda/dmu dmu),
// and for the cotangent u+_bar of u+ = u_free + du, with w = H^-1 u+_bar and s = J w:
//   v_f_bar = -W s,   mu_bar_k = s_k . dlambda_k/dmu_k
// (ContactModel::convex_impulse_mu_derivative; the law's convex penalty).
// H and W are the solver's own (convex_newton_factor_hessian, one dense
// Cholesky at the converged velocities), so the adjoint costs one more
// factorisation and one solve. Its bilateral and limit rows are soft with
// R = solver.bilateral_compliance as in the forward; the reference treats them
// as hard, a difference of O(R |lambda|) (docs/gradients.md).
#include <string>
#include <vector>

#include "adjoints/local_relations.hpp"
#include "adjoints/paired_solve_adjoints.hpp"

namespace contactlab {

namespace {

using Mat3R = Eigen::Matrix<Real, 3, 3, Eigen::RowMajor>;

class HessianSolveAdjoint final : public PairedSolveAdjointBase {
 public:
  explicit HessianSolveAdjoint(const ConvexNewtonOptions& options) : solver_options_(options) {}
  const char* name() const override { return "convex_newton"; }

  void linearise(const ConstraintProblem& problem, const ContactModel& law, const VecX& lambda,
                 const SensitivityOptions& options) override {
    begin(problem, law, lambda, options, "hessian");
    report_ = SensitivityReport{};
    report_.requested = options.kind;
    report_.used = SensitivityKind::Exact;
    report_.rank = problem.num_rows();
    why_not_.clear();
    if (options.kind != SensitivityKind::Exact) {
      why_not_ = "convex_newton's Hessian adjoint is the exact kind's; relaxed kinds use the reference";
      return;
    }
    lambda_std_.assign(lambda.data(), lambda.data() + lambda.size());
    if (!convex_newton_factor_hessian(problem, law, solver_options_, lambda_std_, ws_)) {
      why_not_ = "the Hessian at the converged velocities did not factorise";
      return;
    }
    // At a mode boundary (a contact on the verge of slipping, lambda on the
    // cone's surface with sigma = 0) the step map has one-sided derivatives
    // only; every pairing must pick the same side, the one of the modes rule
    // (local_relations::detect_modes). Where the primal zone of a contact
    // disagrees with its mode, the reference answers.
    const int m = problem.num_rows(), off = problem.contact_offset();
    const LocalProblem local = local_problem_of(problem, law, false);
    VecX sigma(m);
    for (int i = 0; i < m; ++i) sigma[i] = ws_.r[i] + ws_.row_R[i] * lambda[i];
    const local_relations::Scales sc = local_relations::scales_of(local, lambda, options.rho);
    const local_relations::Modes modes =
        local_relations::detect_modes(local, lambda, sigma, options.slip_threshold * sc.velocity);
    report_.contact_modes = modes.contact;
    report_.limit_active = modes.limit_active;
    const int nc = problem.num_contacts;
    zones_.resize(nc);
    if (nc > 0) law.convex_penalty_zones(problem.mu.data(), nc, ws_.r.data() + off, zones_.data());
    for (int k = 0; k < nc; ++k) {
      const ContactMode expected = zones_[k];
      if (expected != modes.contact[k]) {
        why_not_ = "contact " + std::to_string(k) + " lies on a mode boundary (zone " + to_string(expected) +
                   ", mode " + to_string(modes.contact[k]) + ")";
        return;
      }
    }
  }

  void vjp(const VecX& u_plus_bar, const VecX& lambda_bar, VecX& b_bar, VecX& mu_bar) override {
    if (!why_not_.empty()) return fall_back(why_not_, u_plus_bar, lambda_bar, b_bar, mu_bar);
    const ConstraintProblem& p = *problem_;
    const int m = p.num_rows(), off = p.contact_offset(), nc = p.num_contacts;
    VecX w = u_plus_bar;
    convex_newton_hessian_solve(p, solver_options_, ws_, w.data());
    VecX s(m);
    p.apply_J(w.data(), s.data());
    b_bar.resize(m);
    for (int i = 0; i < off; ++i) b_bar[i] = -ws_.weight[i] * s[i];
    mu_bar = VecX::Zero(nc);
    dlambda_dmu_.resize(3 * nc);
    if (nc > 0)
      law_->convex_impulse_mu_derivative(p.mu.data(), nc, ws_.row_R.data() + off, ws_.r.data() + off,
                                         lambda_.data() + off, dlambda_dmu_.data());
    for (int k = 0; k < nc; ++k) {
      const int o = off + 3 * k;
      const Vec3 sk = s.segment<3>(o);
      b_bar.segment<3>(o) = -(Eigen::Map<const Mat3R>(ws_.weight.data() + off + 9 * k) * sk);
      const Vec3 dl = dlambda_dmu_.segment<3>(3 * k);
      mu_bar[k] = sk.dot(dl);
    }
  }

 private:
  ConvexNewtonOptions solver_options_;
  ConvexNewtonWorkspace ws_;
  std::vector<Real> lambda_std_;
  std::string why_not_;  // why the reference answers instead ("" when the Hessian does)
  std::vector<ContactMode> zones_;  // (nc) the penalty's zone of each contact, as modes
  VecX dlambda_dmu_;                // (3 nc) d lambda_k / d mu_k at the converged r
};

}  // namespace

std::unique_ptr<SolveAdjoint> make_hessian_solve_adjoint(const ConvexNewtonOptions& options) {
  return std::make_unique<HessianSolveAdjoint>(options);
}

}  // namespace contactlab
