// Projected Gauss-Seidel on the dual contact problem: the classic baseline of
// the field (the non-smooth contact dynamics iteration of Moreau and Jean).
// Same problem as PADMM (MATH.md A.2, B.2):
//   v+ = D lambda + v_f,  D = J M^-1 J^T + diag(R),
//   bilateral v+ = 0; limits 0 <= lambda _|_ v+ >= 0;
//   contacts K ∋ lambda_k _|_ v_k + Gamma(v_k) ∈ K*   (the law's cone and shift).
//
// Matrix free on the body velocity: u = M^-1 J^T lambda (6 per body) is kept
// up to date, so a row's velocity is J_r u + R_r lambda_r + v_f,r (two 6-dot
// products) and a change of lambda_r costs two 6-axpys with the cached
// M^-1 J_r^T. One sweep visits the rows in order bilateral | limit | contacts:
//   bilateral  lambda_r <- lambda_r - omega v_r / D_rr
//   limit      lambda_r <- max(0, lambda_r - omega v_r / D_rr)
//   contact    lambda_k <- Pi_K(lambda_k - omega w_k (v_k + s_k)),  w_k = 1/lambda_max(D_kk)
// D_kk is the contact's 3x3 diagonal block of D (rows, inverse masses,
// problem compliance, plus the law's contact compliance when the law is not
// hard), computed once per solve. The block step is one projected-gradient
// step on the block subproblem with a scalar step: projection onto K is only
// a descent step in the Euclidean metric, so a matrix step D_kk^-1 would
// break it (and would move the fixed point off maximal dissipation when D_kk
// is anisotropic); omega w_k lambda_max(D_kk) = omega < 2 keeps each block
// update a descent step. Any fixed point satisfies
// lambda_k = Pi_K(lambda_k - c (v_k + Gamma(v_k))), c > 0, i.e. the law (E.1 natural map).
//
// de Saxce shift s_k = Gamma(v_k): frozen at the start of each sweep
// (desaxce_frozen, default; one batch call to the law per sweep, the same
// fixed-point splitting as PADMM's per-iteration freeze, MATH.md C.2) or
// re-evaluated at the current v_k before each block update.
//
// Stopping: every check_interval sweeps (and after the last one), the
// natural-map residual r_vi = max(|v_bilateral|, |lambda - max(0, lambda - v)|
// on limits, |lambda_k - Pi_K(lambda_k - (v_k + Gamma(v_k)))| on contacts)
// (MATH.md E.1) is compared with `tolerance`. stats.residual_history records
// r_vi at each check (this is what PGS measures and stops on; PADMM records
// max of its own three residuals). stats.r_primal / r_dual / r_compl are the
// E.1 residuals of the returned (lambda, v+), as core/metrics.cpp defines them.
//
// Contact laws: any ContactModel; the solver calls project_primal and
// velocity_shift one contact at a time inside a sweep (Gauss-Seidel is
// sequential by nature) and for all contacts at once in the residual checks.
//
// Output: lambda and v+ = D lambda + v_f through problem.apply_delassus (plus
// the law's contact compliance), the velocity the integrator will see.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solvers/solver_common.hpp"

namespace contactlab {

struct PgsOptions {
  int max_iterations = 500;     // sweeps per solve
  Real tolerance = 1e-6;        // natural-map residual r_vi (MATH.md E.1), N s and m/s mixed as in E.1
  int check_interval = 1;       // sweeps between residual checks (the last sweep is always checked)
  Real relaxation = 1.0;        // omega in (0, 2): over-/under-relaxation of every row update
  bool warm_start = true;       // start from WarmStart::lambda (projected onto K) when valid
  bool desaxce_frozen = true;   // Gamma(v_k) frozen per sweep; false: re-evaluated per block update

  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
  // Binds every field under `prefix` (e.g. "solver.").
  void bind(OptionSet& set, const std::string& prefix);
};

// Every buffer of a solve, grown on demand and never shrunk: once it has seen
// the largest problem, solve() does not allocate.
class PgsWorkspace final : public SolverWorkspace {
 public:
  std::vector<Vec6> minv_jt_a;  // (m) M^-1 J_a^T per row: body_a's twist change per unit lambda_r, world frame
  std::vector<Vec6> minv_jt_b;  // (m) M^-1 J_b^T per row, body_b
  std::vector<Real> u;          // (6 nbodies) M^-1 J^T lambda, (v, w) per body, world frame
  std::vector<Real> R;          // (m) diagonal compliance: problem's + law's contact compliance
  std::vector<Real> step;       // (m) omega / D_rr on scalar rows; omega / lambda_max(D_kk) on a contact's 3 rows
  std::vector<Real> v;          // (m) row velocities J u + R lambda + v_f at the last refresh
  std::vector<Real> contact_R;  // (3 nc) law's contact compliance
  std::vector<Real> shift;      // (3 nc) Gamma(v_k) per contact
  std::vector<Real> proj;       // (3 nc) projection scratch for the residuals
  std::vector<Real> scratch6;   // (6 nbodies) for apply_delassus
};

class PgsSolver final : public SolverWithOptions<PgsOptions, PgsWorkspace> {
 public:
  using SolverWithOptions::SolverWithOptions;

  std::string name() const override { return "pgs"; }

 protected:
  void do_solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                SolveStats& stats) const override;
};

}  // namespace contactlab
