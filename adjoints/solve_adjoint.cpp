#include "adjoints/solve_adjoint.hpp"

#include <stdexcept>

#include "adjoints/paired_solve_adjoints.hpp"
#include "solvers/solver_common.hpp"

namespace contactlab {

LocalProblem local_problem_of(const ConstraintProblem& p, const ContactModel& law, bool dense) {
  LocalProblem lp;
  lp.num_bilateral = p.num_bilateral;
  lp.num_limit = p.num_limit;
  lp.num_contacts = p.num_contacts;
  const int m = p.num_rows(), off = p.contact_offset(), nc = p.num_contacts;
  lp.b = Eigen::Map<const VecX>(p.v_free.data(), m);
  lp.mu = Eigen::Map<const VecX>(p.mu.data(), nc);
  // The law's own relations (ccp: plain cone complementarity on
  // v+ = (D + R_law) lambda + v_free).
  lp.law = &law;
  VecX R_law = VecX::Zero(3 * nc);
  if (law.is_convex()) law.contact_compliance(p.mu.data(), nc, R_law.data());
  if (dense) {
    p.dense_delassus(lp.A);
    for (int i = 0; i < 3 * nc; ++i) lp.A(off + i, off + i) += R_law[i];
  } else {
    lp.diagonal.resize(m);
    for (int r = 0; r < m; ++r)
      lp.diagonal[r] = solver_common::delassus_diagonal_entry(p, r) + p.compliance[r] + (r >= off ? R_law[r - off] : 0);
  }
  lp.check();
  return lp;
}

namespace {

class ReferenceSolveAdjoint final : public SolveAdjoint {
 public:
  const char* name() const override { return "reference"; }
  void linearise(const ConstraintProblem& problem, const ContactModel& law, const VecX& lambda,
                 const SensitivityOptions& options) override {
    stats_ = SolveAdjointStats{};
    stats_.method = "reference";
    sensitivity_.linearise(local_problem_of(problem, law, true), lambda, options);
    nc_ = problem.num_contacts;
  }
  void vjp(const VecX&, const VecX& lambda_bar, VecX& b_bar, VecX& mu_bar) override {
    mu_bar = VecX::Zero(nc_);
    sensitivity_.vjp(lambda_bar, VecX::Zero(lambda_bar.size()), b_bar, nullptr, nc_ > 0 ? &mu_bar : nullptr);
  }
  const SensitivityReport& report() const override { return sensitivity_.report(); }

 private:
  LocalSensitivity sensitivity_;
  int nc_ = 0;
};

}  // namespace

std::unique_ptr<SolveAdjoint> make_reference_solve_adjoint() { return std::make_unique<ReferenceSolveAdjoint>(); }

void PairedSolveAdjointBase::begin(const ConstraintProblem& problem, const ContactModel& law, const VecX& lambda,
                                   const SensitivityOptions& options, const char* method) {
  krylov.Validate();
  problem_ = &problem;
  law_ = &law;
  lambda_ = lambda;
  options_ = options;
  falling_back_ = false;
  stats_ = SolveAdjointStats{};
  stats_.method = method;
}

void PairedSolveAdjointBase::fall_back(const std::string& reason, const VecX& u_plus_bar, const VecX& lambda_bar,
                                       VecX& b_bar, VecX& mu_bar) {
  if (!reference_) reference_ = make_reference_solve_adjoint();
  reference_->linearise(*problem_, *law_, lambda_, options_);
  reference_->vjp(u_plus_bar, lambda_bar, b_bar, mu_bar);
  falling_back_ = true;
  stats_.fell_back_to_reference = true;
  stats_.fallback_reason = reason;
}

}  // namespace contactlab
