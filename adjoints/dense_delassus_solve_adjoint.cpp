// The adjoint paired with padmm's dense path: the forward's dense Delassus D
// (+ the convex law's contact compliance), assembled by padmm's own routine
// (padmm_assemble_delassus), and a Cholesky factorisation like the forward's
// (dense::cholesky_factor) of the reduced symmetric system of a row-wise law
// (adjoints/matrix_free_solve_adjoint.cpp states the reduction):
//   (D_SS + diag(c_S / a_S)) x_S = g_S.
// When that matrix is singular (redundant sticking contacts: four corners of
// a box) its minimum-norm solution (complete orthogonal decomposition) is
// used; a coupled law (sliding contacts, central path) is solved by LU of
// K = C_lambda + C_sigma D (LocalSensitivity on the same D).
#include <Eigen/QR>
#include <vector>

#include "adjoints/block_law.hpp"
#include "adjoints/law_linearisation.hpp"
#include "adjoints/paired_solve_adjoints.hpp"
#include "core/linalg/dense_cholesky.hpp"
#include "solvers/padmm.hpp"

namespace contactlab {

namespace {

using MatXR = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class DenseDelassusSolveAdjoint final : public PairedSolveAdjointBase {
 public:
  const char* name() const override { return "padmm"; }

  void linearise(const ConstraintProblem& problem, const ContactModel& law, const VecX& lambda,
                 const SensitivityOptions& options) override {
    begin(problem, law, lambda, options, "cholesky");
    const int m = problem.num_rows(), nc = problem.num_contacts, off = problem.contact_offset();
    LocalProblem local = local_problem_of(problem, law, false);
    // D as padmm assembles it (row-major; symmetric, so also column-major).
    VecX R_law = VecX::Zero(3 * nc);
    if (law.is_convex()) law.contact_compliance(problem.mu.data(), nc, R_law.data());
    MatXR D(m, m);
    std::vector<Real> unit(m), scratch6(problem.twist_size());
    if (m > 0)
      padmm_assemble_delassus(problem, law.is_convex() ? R_law.data() : nullptr, D.data(), unit.data(),
                              scratch6.data());
    local.A = D;
    local.diagonal.resize(0);
    coupled_ = false;
    LawLinearisation lin;
    linearise_law(local, lambda, local.A * lambda + local.b, options, report_, lin);
    blocks_.assign(lin.L, off, nc);
    if (!blocks_.rowwise(a_, c_)) {
      coupled_ = true;
      stats_.method = "lu";
      lu_.linearise(local, lambda, options);
      return;
    }
    // The reduced system on S = {a != 0}.
    S_.clear();
    for (int i = 0; i < m; ++i)
      if (a_[i] != 0) S_.push_back(i);
    const int n = static_cast<int>(S_.size());
    reduced_.resize(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) reduced_(i, j) = local.A(S_[i], S_[j]);
      reduced_(i, i) += c_[S_[i]] / a_[S_[i]];
    }
    A_ = local.A;
    factor_ = reduced_;
    bool ok = n == 0 || dense::cholesky_factor(factor_.data(), n, n);
    if (ok && n > 0) {  // a positive but rounding-sized pivot is a singular matrix too
      const VecX pivots = factor_.diagonal().cwiseAbs2();
      ok = pivots.minCoeff() > options.singular_tolerance * pivots.maxCoeff();
    }
    singular_ = !ok;
    if (singular_) {
      stats_.method = "cod";
      cod_.setThreshold(std::max(options.singular_tolerance, Real(Eigen::NumTraits<Real>::epsilon())));
      cod_.compute(reduced_);
      report_.singular = true;
      report_.rank = static_cast<int>(cod_.rank()) + (m - n);
    }
  }

  void vjp(const VecX& u_plus_bar, const VecX& lambda_bar, VecX& b_bar, VecX& mu_bar) override {
    const int m = static_cast<int>(lambda_bar.size()), n = static_cast<int>(S_.size());
    if (coupled_) {
      mu_bar = VecX::Zero(blocks_.num_contacts());
      lu_.vjp(lambda_bar, VecX::Zero(m), b_bar, nullptr, blocks_.num_contacts() > 0 ? &mu_bar : nullptr);
      return;
    }
    VecX gS(n);
    for (int i = 0; i < n; ++i) gS[i] = lambda_bar[S_[i]];
    VecX xS = gS;
    if (singular_)
      xS = cod_.solve(gS);
    else if (n > 0)
      dense::cholesky_solve(factor_.data(), n, n, xS.data());
    VecX x = VecX::Zero(m), y(m);
    for (int i = 0; i < n; ++i) x[S_[i]] = xS[i];
    const VecX Ax = A_ * x;
    for (int i = 0; i < m; ++i) y[i] = a_[i] != 0 ? x[i] / a_[i] : (lambda_bar[i] - Ax[i]) / c_[i];
    if (!y.allFinite()) return fall_back("the reduced solve is not finite", u_plus_bar, lambda_bar, b_bar, mu_bar);
    blocks_.sigma_T(y, b_bar);
    b_bar = -b_bar;
    blocks_.mu_T(y, mu_bar);
    mu_bar = -mu_bar;
  }

 private:
  BlockLaw blocks_;
  VecX a_, c_;
  std::vector<int> S_;
  MatX A_;
  MatXR reduced_, factor_;
  Eigen::CompleteOrthogonalDecomposition<MatX> cod_;
  bool singular_ = false, coupled_ = false;
  LocalSensitivity lu_;
};

}  // namespace

std::unique_ptr<SolveAdjoint> make_dense_delassus_solve_adjoint() {
  return std::make_unique<DenseDelassusSolveAdjoint>();
}

}  // namespace contactlab
