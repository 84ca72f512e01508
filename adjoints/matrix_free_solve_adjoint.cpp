// The adjoint paired with newton (and padmm's matrix-free path): K^T y = g,
// K = C_lambda + C_sigma A, with A = J M^-1 J^T + R applied through the
// problem's own operators (what newton's Schur operator and padmm's conjugate
// residual apply), never assembled.
//
// Row-wise laws (exact / signorini kinds without a sliding contact): every row
// reads c_i dlambda_i + a_i dsigma_i = ..., so with x = a ∘ y on the rows
// S = {a_i != 0} and F the rest (separating rows, inactive limits: a_i = 0),
//   (A_SS + diag(c_S / a_S)) x_S = g_S,   y_S = x_S / a_S,
//   y_F = (g_F - (A x)_F) / c_F,
// a symmetric PSD system solved by one PCR with the Jacobi preconditioner
// 1/(A_ii + c_i/a_i) — Ostrich's adjoint (MATH.md D.1 eq. 18: A w = rhs with
// the forward's Schur operator), whose a, c are here the modes' 0/1 instead
// of the smoothed FB weights. For consistent singular A_SS (redundant sticking
// contacts: g = J M^-1 u_bar lies in the range of J_S) PCR converges to a
// solution; any solution gives the same J^T b_bar.
// Coupled laws (sliding contacts, central path): GMRES on K^T with the
// block-Jacobi preconditioner (K_gg)^T of each row group.
//
// Near-singular systems. Redundant contacts (a box on four corners, three
// wheels and their hinges) make A_SS, or K, singular up to rounding: its
// near-null directions carry huge components of an exact Krylov solution
// (measured on the flat pallet: J^T b_bar off by 2x, the gradient by 1e4).
// The reference cuts singular values below singular_tolerance (1e-12) of the
// row-equilibrated K and solves by minimum norm; here the same cut is a
// diagonal shift of singular_tolerance times the system's scale (the largest
// diagonal entry of the reduced system; for K^T each row's largest entry of
// C_lambda or C_sigma times max A_ii), which leaves every direction above the
// threshold unchanged to 1e-12 relative and damps those below it.
#include <Eigen/LU>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "adjoints/block_law.hpp"
#include "adjoints/law_linearisation.hpp"
#include "adjoints/paired_solve_adjoints.hpp"
#include "core/linalg/krylov.hpp"
#include "solvers/solver_common.hpp"

namespace contactlab {

namespace {

class MatrixFreeSolveAdjoint final : public PairedSolveAdjointBase {
 public:
  explicit MatrixFreeSolveAdjoint(const char* pairing) : pairing_(pairing) {}
  const char* name() const override { return pairing_; }

  void linearise(const ConstraintProblem& problem, const ContactModel& law, const VecX& lambda,
                 const SensitivityOptions& options) override {
    begin(problem, law, lambda, options, "pcr");
    const int m = problem.num_rows(), nc = problem.num_contacts, off = problem.contact_offset();
    R_law_ = VecX::Zero(3 * nc);
    if (law.is_convex()) law.contact_compliance(problem.mu.data(), nc, R_law_.data());
    scratch6_.resize(problem.twist_size());
    // The relaxed kinds' Newton to their point needs A itself (dense); the
    // exact kind only its diagonal.
    const LocalProblem local = local_problem_of(problem, law, is_relaxed(options));
    VecX sigma(m);
    apply_A(lambda, sigma);
    sigma += local.b;
    linearise_law(local, lambda, sigma, options, report_, linearised_);
    blocks_.assign(linearised_.L, off, nc);
    diagonal_ = local.has_matrix() ? VecX(local.A.diagonal()) : local.diagonal;
    rowwise_ = blocks_.rowwise(a_, c_);
    // The shift that cuts near-null directions (module comment).
    if (rowwise_) {
      Real largest = 0;
      for (int i = 0; i < m; ++i)
        if (a_[i] != 0) largest = std::max(largest, diagonal_[i] + c_[i] / a_[i]);
      shift_ = VecX::Constant(m, options.singular_tolerance * largest);
      pre_.resize(m);
      for (int i = 0; i < m; ++i) {
        const Real d = a_[i] != 0 ? diagonal_[i] + c_[i] / a_[i] + shift_[i] : Real(0);
        pre_[i] = a_[i] == 0 ? Real(0) : d > 0 ? 1 / d : Real(1);
      }
    } else {
      const Real a_max = m > 0 ? std::max(diagonal_.maxCoeff(), Real(0)) : Real(0);
      shift_.resize(m);
      for (int g = 0; g < blocks_.num_groups(); ++g) {
        const int o = blocks_.group_row(g), n = blocks_.group_size(g);
        const Mat3 Cl = blocks_.lambda_block(g), Cs = blocks_.sigma_block(g);
        for (int i = 0; i < n; ++i)
          shift_[o + i] = options.singular_tolerance *
                          std::max(Cl.row(i).cwiseAbs().maxCoeff(), Cs.row(i).cwiseAbs().maxCoeff() * a_max);
      }
      stats_.method = "gmres";
      factor_blocks(problem);
    }
  }

  void vjp(const VecX& u_plus_bar, const VecX& lambda_bar, VecX& b_bar, VecX& mu_bar) override {
    const int m = static_cast<int>(lambda_bar.size());
    VecX y(m);
    krylov::Result result;
    if (rowwise_) {
      result = solve_rowwise(lambda_bar, y);
    } else {
      auto apply = [&](const VecX& v, VecX& out) {  // (K^T + diag(shift)) v, K^T = C_lambda^T + A C_sigma^T
        blocks_.sigma_T(v, t_);
        apply_A(t_, out);
        blocks_.lambda_T(v, t_);
        out += t_ + shift_.cwiseProduct(v);
      };
      auto precondition = [&](const VecX& v, VecX& out) {
        out.resize(v.size());
        for (int g = 0; g < blocks_.num_groups(); ++g) {
          const int o = blocks_.group_row(g), n = blocks_.group_size(g);
          if (n == 1)
            out[o] = block_KT_[g](0, 0) != 0 ? v[o] / block_KT_[g](0, 0) : v[o];
          else
            out.segment<3>(o) = block_lu_[g].isInvertible() ? Vec3(block_lu_[g].solve(Vec3(v.segment<3>(o))))
                                                            : Vec3(v.segment<3>(o));
        }
      };
      result = krylov::gmres(apply, precondition, lambda_bar, krylov.max_iterations, krylov.restart, krylov.tolerance, y);
    }
    stats_.iterations = result.iterations;
    stats_.residual = result.relative_residual;
    if (!result.converged || !y.allFinite()) {
      char why[96];
      std::snprintf(why, sizeof why, "%s stopped at relative residual %.3g after %d iterations", stats_.method.c_str(),
                    result.relative_residual, result.iterations);
      fall_back(why, u_plus_bar, lambda_bar, b_bar, mu_bar);
      return;
    }
    blocks_.sigma_T(y, b_bar);
    b_bar = -b_bar;
    blocks_.mu_T(y, mu_bar);
    mu_bar = -mu_bar;
  }

 private:
  // out = (J M^-1 J^T + R + R_law) x.
  void apply_A(const VecX& x, VecX& out) {
    const ConstraintProblem& p = *problem_;
    out.resize(x.size());
    p.apply_delassus(x.data(), out.data(), scratch6_.data());
    const int off = p.contact_offset();
    for (int i = 0; i < R_law_.size(); ++i) out[off + i] += R_law_[i] * x[off + i];
  }

  krylov::Result solve_rowwise(const VecX& g, VecX& y) {
    const int m = static_cast<int>(g.size());
    for (auto* v : {&rhs_, &x_, &in_, &out_, &r_, &z_, &p_, &Ap_, &Az_}) v->resize(m);
    VecX &rhs = rhs_, &x = x_, &in = in_, &out = out_;
    for (int i = 0; i < m; ++i) rhs[i] = a_[i] != 0 ? g[i] : Real(0);
    auto apply = [&](const Real* v, Real* res) {  // (A_SS + diag(c/a)) on S, 0 on F
      for (int i = 0; i < m; ++i) in[i] = a_[i] != 0 ? v[i] : Real(0);
      apply_A(in, out);
      for (int i = 0; i < m; ++i) res[i] = a_[i] != 0 ? out[i] + (c_[i] / a_[i] + shift_[i]) * in[i] : Real(0);
    };
    const krylov::Result result = krylov::pcr(apply, pre_.data(), rhs.data(), m, krylov.max_iterations,
                                              krylov.tolerance, x.data(),
                                              {r_.data(), z_.data(), p_.data(), Ap_.data(), Az_.data()});
    apply_A(x, out);
    for (int i = 0; i < m; ++i) y[i] = a_[i] != 0 ? x[i] / a_[i] : (g[i] - out[i]) / c_[i];
    return result;
  }

  // (K_gg)^T = C_lambda,gg^T + A_gg C_sigma,gg^T per row group.
  void factor_blocks(const ConstraintProblem& p) {
    const int ng = blocks_.num_groups(), off = p.contact_offset();
    block_KT_.assign(ng, Mat3::Zero());
    block_lu_.resize(ng);
    for (int g = 0; g < ng; ++g) {
      const int o = blocks_.group_row(g), n = blocks_.group_size(g);
      Mat3 A = Mat3::Zero();
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) A(i, j) = solver_common::delassus_entry(p, o + i, o + j);
      for (int i = 0; i < n; ++i)
        A(i, i) += p.compliance[o + i] + (o + i >= off ? R_law_[o + i - off] : Real(0));
      Mat3 KT = blocks_.lambda_block(g).transpose() + A * blocks_.sigma_block(g).transpose();
      for (int i = 0; i < n; ++i) KT(i, i) += shift_[o + i];
      block_KT_[g] = KT;
      if (n == 3) {
        block_lu_[g].setThreshold(1e-12);
        block_lu_[g].compute(KT);
      }
    }
  }

  const char* pairing_;
  VecX R_law_, scratch6_, diagonal_, a_, c_, pre_, t_;
  VecX shift_;  // (m) the near-null cut added to the diagonal
  VecX r_, z_, p_, Ap_, Az_, rhs_, x_, in_, out_;  // PCR buffers, kept across steps
  LawLinearisation linearised_;
  BlockLaw blocks_;
  bool rowwise_ = false;
  std::vector<Mat3> block_KT_;                   // (K_gg)^T per row group (1 x 1 in (0,0))
  std::vector<Eigen::FullPivLU<Mat3>> block_lu_;  // of the contacts' blocks
};

}  // namespace

std::unique_ptr<SolveAdjoint> make_matrix_free_solve_adjoint(const char* pairing) {
  return std::make_unique<MatrixFreeSolveAdjoint>(pairing);
}

}  // namespace contactlab
