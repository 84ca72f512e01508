// Convex primal Newton (CQDC-Warp; MATH.md C.3, S2 §IV-A), written in the
// velocity scheme's variables (MATH.md A.2).
//
// Unknown: the velocity change du = u+ - u_free (6 per moving body; a body
// with zero inverse mass is fixed and has no unknowns). With r = J du + v_free
// (the constraint velocity sigma of every row, bias included), minimise
//   l(du) = 1/2 du^T M du + sum_contacts |r_k - Pi_{K*}(r_k)|^2/(2 rho_k)
//         + sum_bilateral r_i^2/(2 R_i) + sum_limits min(0, r_i)^2/(2 R_i),
// M = blockdiag(m_b I3, I_b,W). The contact terms are the law's convex
// penalty (ContactModel::convex_penalty, one call over all contacts per cost
// or line-search evaluation): the compliant CCP of contact_models/ccp.hpp
// (zones in contact_models/ccp_zones.hpp), rho_k the law's
// contact_compliance (+ the problem's own compliance on that row).
// Bilateral and limit rows are made soft as in MuJoCo: R_i is the problem's
// compliance, or the option bilateral_compliance where that is 0, so such a
// row is satisfied up to an error |v+_i| ~ R_i |lambda_i| (1 kg pendulum, h =
// 1 ms, default 1e-8: ~1e-10 m/s).
//
// l is strictly convex (H >= M > 0), C^1 and piecewise C^2, so Newton with a
// line search converges globally and quadratically once the zones settle:
//   g = M du - J^T lambda(r),   H = M + J^T W(r) J,
//   lambda = Pi_K(-r_k)/rho_k (contacts), -r/R (bilateral), -min(0, r)/R (limits),
//   W = blockdiag((I - DPi_{K*}(r_k))/rho_k, 1/R, [r < 0]/R).
// Steps solve H d = -g by dense Cholesky (default; 6 n_moving unknowns) or by
// Jacobi-preconditioned conjugate gradient, matrix free. Line search: exact
// 1-D Newton with bracketing on phi(a) = l(du + a d), steered by phi' (phi is
// convex, its derivatives cost one pass over the rows; MuJoCo's choice), or
// Armijo backtracking.
//
// Stopping. |g_j| <= tolerance M_jj + floor_j for every unknown j: tolerance
// is a velocity (g/M_jj is the velocity change that would cancel g; it is
// also the residual of v+ = D lambda + v_f below), floor_j the rounding floor
// of g (lambda = -r/R amplifies the rounding of r by 1/R, so at rho = 1e-6 g
// is only known to ~1e-9). A cost-decrease test is available
// (cost_tolerance) but off by default: near the answer a step lowers l by
// ~rho |d lambda|^2, below the rounding of l long before lambda is accurate.
// A line search that finds no descent also ends the solve (rounding floor).
//
// Continuation (cold starts only; measured in docs/solver_convex_newton.md).
// The iteration count of plain Newton grows as rho -> 0 (CQDC reports the
// same): with rho = 1e-6 on unit masses, steps zigzag on the curved zone
// boundaries and some cold solves need > 50 iterations. Solving first with
// each contact's rho raised to continuation_start * D_nn (D_nn = J_n M^-1
// J_n^T, the scale MuJoCo and SAP set their regularisation against), then
// dividing it by continuation_factor per stage down to the law's value, each
// stage warm-started by the last, keeps cold solves at ~10 iterations for rho
// down to 1e-8. A warm start skips it (already near the answer).
//
// Dual view (what padmm solves for the same law): at the optimum M du = J^T
// lambda, so u+ = u_free + M^-1 J^T lambda and
//   v+ := r + R lambda = D lambda + v_f,   D = J M^-1 J^T + diag(R)
// with R the problem's compliance plus the contact law's; lambda solves
// min_{lambda in K} 1/2 lambda^T D lambda + lambda^T v_f (for rows the
// problem gives R > 0; rows softened by bilateral_compliance differ by
// R lambda). The solver returns this lambda and v+.
//
// Statistics: iterations = Newton steps (all stages); r_dual = max_j
// |g_j|/M_jj (the residual of v+ = D lambda + v_f, scaled to velocity);
// r_primal = 0 (lambda is in K at every iterate); r_compl = max over contacts
// and limits of |lambda . v+| (zero up to rounding, Moreau). residual_history
// holds r_dual after each step; the workspace's cost_history/cost_stage hold l
// (which changes with each continuation stage). Non-finite input or a failed
// factorisation is NumericalFailure with zero output; misuse (a hard or
// non-convex law or one without a convex penalty, an anisotropic contact compliance, a moving body without an
// SPD inverse inertia, inconsistent sizes) throws std::invalid_argument.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "solvers/solver_common.hpp"

namespace contactlab {

struct ConvexNewtonOptions {
  enum : int { kDense = 0, kConjugateGradient = 1 };
  enum : int { kExact = 0, kArmijo = 1 };

  int max_iterations = 50;           // Newton steps per solve
  Real tolerance = 1e-10;            // |g_j|/M_jj above the rounding floor, m/s (linear), rad/s (angular)
  Real cost_tolerance = 0;           // stop when a step lowers l by <= this (1 + |l|), l in J; 0 = off
  Real bilateral_compliance = 1e-8;  // R of bilateral and limit rows whose problem compliance is 0, 1/kg
  int linear_solver = kDense;        // kDense: Cholesky of H; kConjugateGradient: matrix-free PCG
  int cg_max_iterations = 200;       // PCG iterations per Newton step
  Real cg_tolerance = 1e-12;         // PCG stops at |res|_2 <= tol |g|_2 (relative)
  int line_search = kExact;          // kExact: 1-D Newton with bracketing; kArmijo: backtracking
  Real ls_tolerance = 1e-3;          // exact: stop at |phi'(a)| <= tol |phi'(0)|
  int ls_max_iterations = 50;        // evaluations of phi per line search
  Real armijo_c = 1e-4;              // Armijo: phi(a) <= phi(0) + c a phi'(0)
  bool warm_start = true;            // du0 = M^-1 J^T lambda_warm when that lowers l
  // Continuation in rho (cold starts only): stage S solves with every contact's
  // rho raised to continuation_start * D_nn (its normal Delassus diagonal) when
  // that is larger, each next stage divides it by continuation_factor, stage 0
  // is the law's rho; each stage starts from the previous answer.
  bool continuation = true;
  Real continuation_start = 1e-3;    // dimensionless (rho relative to D_nn)
  Real continuation_factor = 100;    // > 1

  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
  // Binds every field under `prefix` (e.g. "solver.").
  void bind(OptionSet& set, const std::string& prefix);
};

// Every buffer of a solve, grown on demand and never shrunk: once it has seen
// the largest problem, solve() does not allocate (the histories aside, which
// are only recorded on request).
class ConvexNewtonWorkspace final : public SolverWorkspace {
 public:
  std::vector<int> dof;         // (nb) first compact unknown of a moving body, -1 fixed
  std::vector<Real> inertia;    // (nb x 9) row-major I_b,W = (inv_inertia_W)^-1, world frame
  std::vector<Real> mass_diag;  // (6 nb) diagonal of M (0 for fixed bodies)
  std::vector<Real> du, d, g;   // (6 nb) unknown, Newton direction, gradient (twist space)
  std::vector<Real> Mx, tmp6;   // (6 nb) M times a vector; scratch
  std::vector<Real> floor;      // (6 nb) rounding floor of g
  std::vector<Real> r, s;       // (m) r = J du + v_free, s = J d
  std::vector<Real> r_trial;    // (m) r + a s during the line search
  std::vector<Real> lambda;     // (m) lambda(r)
  std::vector<Real> row_R;      // (m) compliance of each row's penalty
  std::vector<Real> law_R;      // (3 nc) the law's contact compliance
  std::vector<Real> weight;     // (m + 9 nc) 1/R or [r<0]/R per scalar row; 3x3 W per contact
  std::vector<Real> hessian;    // (n x n) row-major, n = 6 n_moving, dense path (lower triangle -> L)
  std::vector<Real> rhs;        // (n) compact right-hand side / solution
  std::vector<Real> cg_r, cg_z, cg_p, cg_q, cg_diag;  // (6 nb) preconditioned CG
  std::vector<Real> cg_m;       // (m) J p scratch
  std::vector<Real> rho_target, rho_start;  // (nc) continuation: the law's rho, the first stage's
  std::vector<Real> cost_history;  // l at each stage's start and after each step (stats.record_history)
  std::vector<int> cost_stage;     // stage of each cost_history entry (S..0; its l changes per stage)
};

class ConvexNewtonSolver final : public SolverWithOptions<ConvexNewtonOptions, ConvexNewtonWorkspace> {
 public:
  using SolverWithOptions::SolverWithOptions;

  std::string name() const override { return "convex_newton"; }
  // Exactly the laws with a convex primal penalty (ContactModel::has_convex_penalty:
  // a convex law with positive contact compliance, ccp).
  bool accepts(const ContactModel& law, std::string* why) const override;

 protected:
  void do_solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                SolveStats& stats) const override;
};

// CQDC's implicit gradient (MATH.md D.4) at a converged solve, for the paired
// adjoint (adjoints/hessian_solve_adjoint.cpp): sets du = M^-1 J^T lambda (the
// optimality condition), evaluates the solver's cost there (ws.r = J du + v_f,
// ws.lambda, ws.weight: W of every row group, ws.row_R) and factorises the
// solver's Hessian H = M + J^T W J by its dense Cholesky (whatever
// options.linear_solver says). False when H does not factorise; throws on
// misuse as solve() does.
bool convex_newton_factor_hessian(const ConstraintProblem& problem, const ContactModel& law,
                                  const ConvexNewtonOptions& options, const std::vector<Real>& lambda,
                                  ConvexNewtonWorkspace& ws);
// After convex_newton_factor_hessian: x (6 nb) <- H^-1 x, 0 on fixed bodies.
void convex_newton_hessian_solve(const ConstraintProblem& problem, const ConvexNewtonOptions& options,
                                 ConvexNewtonWorkspace& ws, Real* x);

}  // namespace contactlab
