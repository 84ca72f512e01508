#include "solvers/padmm_factor.hpp"

#include <algorithm>
#include <cmath>

#include "core/linalg/dense_cholesky.hpp"
#include "solvers/padmm.hpp"
#include "solvers/padmm_kernels.hpp"
#include "solvers/solver_common.hpp"

namespace contactlab {

using solver_common::dot;
using solver_common::grow;

namespace {
// Iterations a corrected solve typically takes after one penalty step of 1.5
// (measured on the piles: 6-11 to 1e-10), for the cost comparison.
constexpr double kCorrectionIterations = 10;
}  // namespace

void PadmmFactor::measure_costs() {
  const double m = m_;
  if (storage_ == Storage::Dense) {
    // Cholesky m^3/3; an iteration: two triangular solves and a product, 4 m^2.
    correction_pays_ = kCorrectionIterations * 4 * m * m < m * m * m / 3;
    return;
  }
  if (storage_ == Storage::Sparse) {
    // LDL^T: sum over columns of (entries below the diagonal)^2; an
    // iteration: two triangular solves (4 nnz(L)) and a symmetric product (4 nnz(lower)).
    const SparseMat& L = ldlt_.factor_l();
    double factor_ops = 0;
    for (int j = 0; j < m_; ++j) {
      const double c = L.outerIndexPtr()[j + 1] - L.outerIndexPtr()[j];
      factor_ops += c * c;
    }
    const double iteration_ops = 4.0 * L.nonZeros() + 4.0 * sparse_.lower().nonZeros();
    correction_pays_ = kCorrectionIterations * iteration_ops < factor_ops;
    return;
  }
  correction_pays_ = false;  // LU: refactorised on a change
}

void PadmmFactor::assemble(const ConstraintProblem& problem, const Real* contact_R, Storage storage) {
  storage_ = storage;
  m_ = problem.num_rows();
  const int m = m_;
  diagonal_.resize(m);
  counters = PadmmFactorCounters{};
  if (storage == Storage::Sparse) {
    pattern_changed_ = sparse_.assemble(problem, contact_R) || pattern_changed_;
    std::copy(sparse_.diagonal().begin(), sparse_.diagonal().end(), diagonal_.begin());
    return;
  }
  const size_t mm = static_cast<size_t>(m) * m;
  Real* D = grow(dense_, mm);
  padmm_assemble_delassus(problem, contact_R, D, grow(unit_, m), grow(scratch6_, std::max(problem.twist_size(), 1)));
  for (int i = 0; i < m; ++i) diagonal_[i] = D[static_cast<size_t>(i) * m + i];
}

bool PadmmFactor::factorise_scaled(const Real* p, Real sigma) {
  p_ = p;
  if (storage_ == Storage::Sparse) sparse_.scale(p);
  return factorise(sigma);
}

bool PadmmFactor::factorise(Real sigma) {
  const int m = m_;
  const Real* p = p_;
  ++counters.factorisations;
  factored_sigma_ = sigma;
  switch (storage_) {
    case Storage::Dense: {
      Real* L = grow(factor_, static_cast<size_t>(m) * m);
      padmm::scaled_shifted_matrix(dense_.data(), m, m, p, sigma, L, m);
      if (counters.factorisations == 1) measure_costs();
      return dense::cholesky_factor(L, m, m);
    }
    case Storage::Lu: {
      // D is stored by columns (row j holds D e_j), so D(i, j) = D[j m + i].
      shifted_.resize(m, m);
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i)
          shifted_(i, j) = p[i] * dense_[static_cast<size_t>(j) * m + i] * p[j] + (i == j ? sigma : Real(0));
      lu_.compute(shifted_);
      return lu_.matrixLU().allFinite() && lu_.matrixLU().diagonal().cwiseAbs().minCoeff() > 0;
    }
    case Storage::Sparse: {
      if (pattern_changed_ || !analysed_) {
        ldlt_.analyzePattern(sparse_.lower());
        ++counters.symbolic_analyses;
        analysed_ = true;
        pattern_changed_ = false;
      }
      ldlt_.setShift(sigma);
      ldlt_.factorize(sparse_.lower());
      if (ldlt_.info() != Eigen::Success) return false;
      const VecX& d = ldlt_.diagonal_d();
      if (!d.allFinite() || !(m == 0 || d.minCoeff() > 0)) return false;
      if (counters.factorisations == 1) measure_costs();
      return true;
    }
  }
  return false;
}

void PadmmFactor::factor_solve(Real* x) const {
  const int m = m_;
  switch (storage_) {
    case Storage::Dense: dense::cholesky_solve(factor_.data(), m, m, x); return;
    case Storage::Lu: {
      Eigen::Map<VecX> xv(x, m);
      xv = lu_.solve(xv);
      return;
    }
    case Storage::Sparse: {
      Eigen::Map<VecX> xv(x, m);
      xv = ldlt_.solve(xv);
      return;
    }
  }
}

void PadmmFactor::apply(const Real* v, Real sigma, Real* out) const {
  const int m = m_;
  if (storage_ == Storage::Sparse) {
    Eigen::Map<VecX> o(out, m);
    o.noalias() = sparse_.lower().selfadjointView<Eigen::Lower>() * Eigen::Map<const VecX>(v, m);
    for (int i = 0; i < m; ++i) out[i] += sigma * v[i];
    return;
  }
  const Real* p = p_;
  for (int i = 0; i < m; ++i) {
    const Real* Di = dense_.data() + static_cast<size_t>(i) * m;  // row i = D e_i = column i (symmetric)
    Real s = 0;
    for (int j = 0; j < m; ++j) s += Di[j] * p[j] * v[j];
    out[i] = p[i] * s + sigma * v[i];
  }
}

bool PadmmFactor::solve(const Real* b, Real sigma, int max_cg, Real tol, Real* x) {
  const int m = m_;
  // x = factor^-1 b, after refactorising at sigma when asked (false if that fails).
  auto direct = [&](bool refactorise) {
    if (refactorise && !factorise(sigma)) return false;
    std::copy(b, b + m, x);
    factor_solve(x);
    return true;
  };
  if (sigma == factored_sigma_) return direct(false);
  // LU (a non-symmetric W: CG needs a symmetric operator), or a factor cheaper
  // to redo than to correct: refactorise.
  if (!correction_pays_) return direct(true);
  // Preconditioned CG from x, the preconditioner the factor of the old shift.
  Real *r = grow(r_, m), *z = grow(z_, m), *d = grow(d_, m), *q = grow(q_, m);
  ++counters.corrected_solves;
  const Real bnorm = std::sqrt(dot(b, b, m));
  if (bnorm == 0) {
    std::fill(x, x + m, Real(0));
    return true;
  }
  apply(x, sigma, q);
  for (int i = 0; i < m; ++i) r[i] = b[i] - q[i];
  std::copy(r, r + m, z);
  factor_solve(z);
  std::copy(z, z + m, d);
  Real rz = dot(r, z, m);
  for (int k = 0; k < max_cg; ++k) {
    if (std::sqrt(dot(r, r, m)) <= tol * bnorm) return true;
    ++counters.correction_iterations;
    apply(d, sigma, q);
    const Real dq = dot(d, q, m);
    if (!(dq > 0)) break;
    const Real alpha = rz / dq;
    for (int i = 0; i < m; ++i) {
      x[i] += alpha * d[i];
      r[i] -= alpha * q[i];
    }
    std::copy(r, r + m, z);
    factor_solve(z);
    const Real rz_next = dot(r, z, m);
    const Real beta = rz_next / rz;
    rz = rz_next;
    for (int i = 0; i < m; ++i) d[i] = z[i] + beta * d[i];
  }
  if (std::sqrt(dot(r, r, m)) <= tol * bnorm) return true;
  // rho has moved too far from the factored shift: refactorise once at it.
  return direct(true);
}

}  // namespace contactlab
