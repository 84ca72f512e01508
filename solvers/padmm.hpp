// Proximal ADMM on the dual contact problem (Kamino; MATH.md C.2, S3 A.2):
//   lambda = argmin_{x in K} 1/2 x^T D x + x^T (v_f + Gamma(v+(x))),
// K = R (bilateral) x R+ (limits) x prod_k K_mu_k (contacts), Gamma the
// contact law's velocity shift frozen per iteration (de Saxce fixed point).
// Jacobi preconditioning, a proximal-linear x-update with the shifted
// Delassus matrix D~ + (eta+rho) I (factorised once per solve, dense or
// sparse: solvers/padmm_factor.hpp; or matrix-free conjugate residual),
// projection onto K, Nesterov
// acceleration with the adaptive restart of Goldstein et al. (2014), warm
// start. The per-iteration math is solvers/padmm_kernels.hpp, shared with the
// CPU and CUDA batch paths.
//
// Contact laws: any ContactModel (the solver only calls project_primal and
// velocity_shift). A law that is not hard adds its contact_compliance to the
// diagonal of the contact rows here; the problem's own compliance vector (R of
// bilateral servos, etc.) is already inside apply_delassus.
//
// Output: lambda = P y and v+ = D lambda + v_f (D including every compliance),
// i.e. the velocity the integrator will actually see, u+ = u_free + M^-1 J^T lambda.
// stats.r_primal/r_dual/r_compl are the solver's own residuals (MATH.md C.2,
// physical units, infinity norms) of the last iteration.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solvers/padmm_factor.hpp"
#include "solvers/solver_common.hpp"

namespace contactlab {

struct PadmmOptions {
  enum : int { kDense = 0, kMatrixFree = 1, kSparse = 2, kAuto = 3 };

  int max_iterations = 200;     // ADMM iterations per solve
  Real tol_primal = 1e-6;       // |P(x - y)|_inf, impulse units (N s)
  Real tol_dual = 1e-6;         // |P^-1(eta dx + rho dy)|_inf, velocity units (m/s)
  Real tol_compl = 1e-6;        // max_k |lambda_k . (v_k + Gamma(v_k))|, N s * m/s
  Real eta = 1e-5;              // proximal weight (scaled units, dimensionless)
  Real rho = 0.1;               // ADMM penalty (scaled units, dimensionless; Kamino: 1, see docs/solvers.md)
  Real restart_factor = 0.999;  // c_r: accelerate while c < c_r c_prev, else restart
  bool acceleration = true;     // Nesterov acceleration with adaptive restart
  bool warm_start = true;       // use WarmStart when it is valid
  Real warm_start_factor = 0.9; // x = y = factor * lambda_cached / P (MATH.md C.2)
  bool preconditioning = true;  // Jacobi scaling of D (contacts share one scale)
  // kDense: Cholesky of the dense D; kSparse: sparse LDL^T of the block-sparse
  // D (core/sparse_delassus.hpp); kAuto: sparse from sparse_from_rows rows
  // on, dense below; kMatrixFree: conjugate residual.
  int delassus = kAuto;
  int sparse_from_rows = 48;    // kAuto's switch (docs/solvers.md "Sparse Delassus" measures it)
  int cr_max_iterations = 30;   // conjugate-residual iterations per x-update (matrix free)
  Real cr_tolerance = 1e-10;    // conjugate residual stops at |r| <= tol |b| (relative)
  // Balanced penalty (MATH.md C.2, optional step): every penalty_interval iterations,
  // rho *= penalty_factor if r_p > penalty_ratio r_d, rho /= penalty_factor if
  // r_d > penalty_ratio r_p, kept in [rho_min, rho_max]. A change of rho
  // resets the acceleration (c depends on rho); the factor of the old shift
  // then preconditions a CG on the new one (solvers/padmm_factor.hpp), or,
  // with penalty_refactorise, the matrix is refactorised at each change.
  bool balanced_penalty = true;  // on by default: see docs/solvers.md for the measurement
  int penalty_interval = 5;
  Real penalty_ratio = 10.0;
  Real penalty_factor = 1.5;
  Real rho_min = 1e-5;
  Real rho_max = 1e5;
  // Start a solve from sqrt(rho * WarmStart::penalty), halfway (in log) to
  // the rho the previous step's solve ended with, else from rho: the last
  // rho itself can be one bad step's (docs/solvers.md "ρ carried").
  bool penalty_memory = true;
  bool penalty_refactorise = false;  // refactorise at every rho change (the behaviour before the CG correction)
  int correction_max_iterations = 20;  // CG iterations of a corrected x-update before refactorising

  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
  // Binds every field under `prefix` (e.g. "solver.").
  void bind(OptionSet& set, const std::string& prefix);
};

// Every buffer of a solve, grown on demand and never shrunk: once it has seen
// the largest problem, solve() does not allocate.
class PadmmWorkspace final : public SolverWorkspace {
 public:
  PadmmFactor factor;           // D and the factor of P D P + (eta+rho) I (dense, sparse or LU)
  std::vector<Real> p;          // (m) Jacobi scale
  std::vector<Real> vf;         // (m) P v_f
  std::vector<Real> diag;       // (m) diagonal of D (+ contact compliance)
  std::vector<Real> contact_R;  // (3 nc) contact compliance from the law
  std::vector<Real> x, y, z, y_hat, z_hat, x_prev, y_prev, z_prev;  // (m) iteration state
  std::vector<Real> rhs;        // (m) x-update right-hand side
  std::vector<Real> unit;       // (m) unit vector / scratch
  std::vector<Real> cr_r, cr_p, cr_Ar, cr_Ap, cr_tmp;  // (m) conjugate residual
  std::vector<Real> scratch6;   // (6 nb) for apply_delassus
  PadmmFactorCounters last_counters;  // of the last solve (tests and profiling)
};

// Dense D + diag(contact_R on contact rows) (m x m, row-major), assembled
// column by column through problem.apply_delassus so that the dense and the
// matrix-free paths see the same operator. unit: m entries, scratch6: 6 nb.
// contact_R may be nullptr (hard law).
void padmm_assemble_delassus(const ConstraintProblem& problem, const Real* contact_R, Real* D, Real* unit,
                             Real* scratch6);

class PadmmSolver final : public SolverWithOptions<PadmmOptions, PadmmWorkspace> {
 public:
  using SolverWithOptions::SolverWithOptions;

  std::string name() const override { return "padmm"; }
  // The dense batched PADMM (solvers/batch_padmm_solver.hpp): laws with the
  // hard Coulomb cones only; fixed penalty and dense Delassus (checked per step).
  std::unique_ptr<BatchSolver> make_batch_solver(const ContactModel& law, BatchDevice device,
                                                 std::string* why) const override;

 protected:
  void do_solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                SolveStats& stats) const override;
};

}  // namespace contactlab
