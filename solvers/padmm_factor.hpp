// PADMM's x-update system (P D P + sigma I) x = b, sigma = eta + rho, solved
// with one factorisation per solve however often the balanced penalty moves
// rho: the factor of the shift it was made with preconditions a conjugate
// gradient on the current shift. The two matrices differ by a multiple of the
// identity, so the preconditioned spectrum lies between 1 and the ratio of
// the shifts (1.5 for one penalty step): about ten iterations reach 1e-10.
// The correction is taken only where it is cheaper than a refactorisation,
// by the operation counts of the two (a small island refactorises: ten
// iterations of 4 m^2 cost more than m^3 / 3 below m ~ 120), and when it
// does not converge in its budget (rho has moved far) the matrix is
// refactorised.
//
// Storage: dense (Cholesky on a row-major array, as the CUDA batch path) or
// sparse (core/sparse_delassus.hpp, Eigen's SimplicialLDLT with AMD
// ordering, its symbolic analysis kept while the pattern holds). A
// non-symmetric explicit W is factorised by LU and refactorised on a change.
#pragma once

#include <vector>

#include <Eigen/LU>
#include <Eigen/SparseCholesky>

#include "core/constraint_problem.hpp"
#include "core/sparse_delassus.hpp"

namespace contactlab {

struct PadmmFactorCounters {
  int factorisations = 0;       // numeric factorisations in this solve
  int symbolic_analyses = 0;    // sparse pattern analyses in this solve
  int corrected_solves = 0;     // x-updates solved by the preconditioned CG
  int correction_iterations = 0;
};

// Eigen's SimplicialLDLT with its D and L readable in place (vectorD()
// returns a copy, an allocation per factorisation).
class ShiftedLdlt : public Eigen::SimplicialLDLT<SparseMat, Eigen::Lower, Eigen::AMDOrdering<int>> {
 public:
  const VecX& diagonal_d() const { return m_diag; }
  const SparseMat& factor_l() const { return m_matrix; }
};

class PadmmFactor {
 public:
  enum class Storage { Dense, Sparse, Lu };

  // D = the problem's Delassus + the law's contact compliance on the contact
  // rows (contact_R, or nullptr), assembled into this storage; its diagonal
  // is then available for the Jacobi scale.
  void assemble(const ConstraintProblem& problem, const Real* contact_R, Storage storage);
  const std::vector<Real>& diagonal() const { return diagonal_; }
  // Scales to P D P (p: m entries, kept by pointer until the solve ends) and
  // factorises P D P + sigma I. Returns false when the factorisation fails.
  bool factorise_scaled(const Real* p, Real sigma);
  // x <- (P D P + sigma I)^-1 b (b and x must not alias; x holds the start of
  // the correction, e.g. the previous iterate). max_cg, tol: the
  // correction's budget and relative tolerance when sigma is not the
  // factored shift. Returns false when a needed refactorisation fails.
  bool solve(const Real* b, Real sigma, int max_cg, Real tol, Real* x);

  // Factorises P D P + sigma I now (the old behaviour on a penalty change).
  bool refactorise(Real sigma) { return factorise(sigma); }
  Real factored_shift() const { return factored_sigma_; }
  // The dense storage's buffers (tests: capacity is kept between solves).
  const Real* dense_matrix_data() const { return dense_.data(); }
  const Real* dense_factor_data() const { return factor_.data(); }
  PadmmFactorCounters counters;

 private:
  bool factorise(Real sigma);
  // Whether a corrected solve (kCorrectionIterations of a factor solve and a
  // product) costs fewer operations than a refactorisation; set by factorise.
  void measure_costs();
  void apply(const Real* v, Real sigma, Real* out) const;  // (P D P + sigma I) v
  void factor_solve(Real* x) const;                       // x <- factor^-1 x

  Storage storage_ = Storage::Dense;
  int m_ = 0;
  const Real* p_ = nullptr;
  Real factored_sigma_ = 0;
  bool correction_pays_ = false;
  std::vector<Real> diagonal_;
  // Dense: D (m x m, row j = D e_j) and the Cholesky factor's lower triangle.
  std::vector<Real> dense_, factor_, unit_, scratch6_;
  MatX shifted_;
  Eigen::PartialPivLU<MatX> lu_;
  // Sparse: P D P's lower triangle and its LDL^T.
  SparseDelassus sparse_;
  bool pattern_changed_ = true;
  bool analysed_ = false;
  ShiftedLdlt ldlt_;
  // Conjugate-gradient scratch.
  std::vector<Real> r_, z_, d_, q_;
};

}  // namespace contactlab
