// Non-smooth Newton on the stacked residual (Ostrich; MATH.md C.1), in the
// impulse/velocity units of a ConstraintProblem.
//
// Unknowns: impulses lambda (m) and the twist increment delta = u+ - u_free (6 nb).
// Residuals at an iterate, with w = J delta + v_f and v = w + R lambda:
//   dynamics    e = delta - M^-1 J^T (a ∘ lambda)              (velocity units)
//   constraints r: bilateral r = v; limits r = phi_eps(v, D_rr lambda);
//               contacts from the law's ncp_residual (Fischer–Burmeister)
// where a = dr/dv and c = dr/dlambda (+ a R) are diagonal with nonlinear
// weights frozen at the iterate. The Newton step solves the Schur complement
//   A dlambda = a ∘ (J e) - r,   A = diag(a) J M^-1 J^T diag(a) + diag(c)
// (symmetric: J-hat = diag(a) J is used in the dynamics too, as Ostrich does),
// matrix free by preconditioned conjugate residual with a Jacobi preconditioner,
// then d delta = M^-1 J^T (a ∘ dlambda) - e. When the problem carries
// nonlinear_rows (backward Euler), the rows' values and the J the impulses act
// along are re-evaluated at every iterate q+ = q- + h G u+ (the scheme chooses
// J(q-) or J(q+); the mass matrix stays at q-). The Hessian term
// d(J^T lambda)/dq is dropped, so the iteration is Gauss-Newton-like on the
// position rows. After each update the law's
// safeguards restore admissible impulses. A fixed budget of Newton x PCR
// iterations (16 x 16) is spent (with an optional backtracking line search on
// the merit) and the best iterate by |e|^2 + |r|^2 from index
// k_min on is returned (Ostrich's best-iterate backtracking). Friction rows of
// a contact without normal impulse are written lambda_t = 0 (what the
// safeguard enforces), and the stop bound is tolerance^2 per contact
// (docs/solvers.md, "Convergence on the scenes", has the measurements).
#pragma once

#include <vector>

#include "core/solver.hpp"

namespace contactlab {

struct NewtonOptions {
  int newton_iterations = 16;   // Newton budget per solve
  int pcr_iterations = 16;      // PCR budget per Newton step
  int k_min = 2;                // best iterate chosen from this index on (R-ax default)
  Real tolerance = 1e-8;        // stop early when |e|^2 + |r|^2 <= tolerance^2 (m/s); above the FB smoothing floor
  Real pcr_tolerance = 1e-12;   // PCR stops at |residual| <= tol |rhs|
  Real limit_smoothing = 1e-8;  // eps of phi_eps on limit rows (m/s)
  Real regularization = 1e-12;  // added to diag(A) in the preconditioner
  bool warm_start = true;
  bool line_search = true;      // halve the step until the merit falls (Ostrich: off, alpha = 1)
  int line_search_steps = 8;    // halvings at most
  bool sliding_newton = false;        // linearise a sliding contact's friction (direction only) by GMRES
  int gmres_iterations = 16;          // GMRES budget (and restart) per Newton step, at least (rows / 4, <= 64)
  bool frozen_merit = false;          // line search on the merit with W, a, weights frozen at the step's iterate
  bool pin_unloaded_friction = true;  // friction rows of a contact without normal impulse: lambda_t = 0
  bool follow_safeguards = false;     // the twist follows the safeguards' changes (false: as Ostrich)
  Real step_regularization = 0;       // added to the Newton system's diagonal, relative to D_rr
  bool tolerance_per_contact = true;  // tolerance^2 scaled by the number of contacts (>= 1)
  void Validate() const;
};

class NewtonWorkspace final : public SolverWorkspace {
 public:
  std::vector<Real> lambda, delta, best_lambda, best_delta, base_lambda, base_delta;  // (m), (6 nb)
  std::vector<Real> w, v, r, a, c, weight, e, rhs, dlambda, ddelta;  // iterate and step
  std::vector<Real> step_a, step_c, step_weight;  // a, c and merit weights of the iterate the step was made at
  std::vector<Real> unguarded_lambda, damping;    // impulses before the safeguards; step damping
  std::vector<Real> slide_dir, slide_W;           // per contact: sliding direction (2) and W, W = 0 when not sliding
  std::vector<Real> gm_u;                         // GMRES operator scratch (m)
  std::vector<Real> diag_D, diag_A, scale;                    // Delassus diagonal (no R), preconditioner, contact scales
  std::vector<Real> pcr_r, pcr_z, pcr_p, pcr_Ap, pcr_Az, tmp_m, tmp6;  // PCR and operator scratch
  ConstraintProblem at_iterate;  // nonlinear problems: the problem with J at the current iterate
};

class NonsmoothNewtonSolver final : public Solver {
 public:
  std::string name() const override { return "newton"; }
  bool accepts(const ContactModel& law, std::string* why) const override;
  std::unique_ptr<SolverWorkspace> make_workspace() const override { return std::make_unique<NewtonWorkspace>(); }
  bool relinearises() const override { return true; }
  void bind_options(OptionSet& set, const std::string& prefix) override;
  NewtonOptions options;

 protected:
  void do_solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                SolveStats& stats) const override;
};

}  // namespace contactlab
