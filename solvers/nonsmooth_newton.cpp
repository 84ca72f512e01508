#include "solvers/nonsmooth_newton.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "contact_models/fb_math.hpp"
#include "core/linalg/krylov.hpp"
#include "solvers/solver_common.hpp"

namespace contactlab {

namespace {

Real vector_dot(const std::vector<Real>& x, const std::vector<Real>& y, int n) {
  return solver_common::dot(x.data(), y.data(), n);
}

// Diagonal of J M^-1 J^T (without compliance), row by row.
void delassus_diagonal(const ConstraintProblem& p, std::vector<Real>& d) {
  d.resize(p.num_rows());
  for (int r = 0; r < p.num_rows(); ++r) d[r] = solver_common::delassus_diagonal_entry(p, r);
}

// y = diag(a) J M^-1 J^T diag(a) x + c ∘ x.
void apply_schur(const ConstraintProblem& p, NewtonWorkspace& ws, const Real* x, Real* y) {
  const int m = p.num_rows();
  for (int r = 0; r < m; ++r) ws.tmp_m[r] = ws.a[r] * x[r];
  p.apply_JT(ws.tmp_m.data(), ws.tmp6.data());
  p.apply_Minv(ws.tmp6.data(), ws.tmp6.data());
  p.apply_J(ws.tmp6.data(), y);
  for (int r = 0; r < m; ++r) y[r] = ws.a[r] * y[r] + (ws.c[r] + ws.damping[r]) * x[r];
}

// The safeguard holds lambda_t = 0 at a contact without normal impulse, but its
// friction rows v_t + W lambda_t (a = 1, c = W) ask the Newton step for
// lambda_t = -v_t / W != 0. The step then moves delta by M^-1 J^T lambda_t, the
// safeguard zeroes lambda_t, and e = delta - M^-1 J^T (a lambda) keeps that
// discrepancy for ever: on wheeled_pallet (velocity, h = 2 ms) the merit
// stalled at |e| ~ 2e-5 with every row exact. Such rows are written as the
// constraint the safeguard enforces, lambda_t = 0 (a = 0, c = 1, r = lambda_t);
// the applied impulse a lambda_t is 0 either way.
void pin_unloaded_friction_rows(const ConstraintProblem& p, NewtonWorkspace& ws) {
  const int off = p.contact_offset();
  for (int k = 0; k < p.num_contacts; ++k) {
    const int n = off + 3 * k;
    if (ws.lambda[n] > 0) continue;
    for (int t = n + 1; t <= n + 2; ++t) {
      ws.r[t] = ws.lambda[t];
      ws.a[t] = 0;
      ws.c[t] = 1;
    }
  }
}

// The safeguards change impulses after the step (lambda_n >= 0, the radial
// clamp of lambda_t), but the step's d delta applied the unclamped ones. Left
// so, e = delta - M^-1 J^T (a lambda) keeps the clamped part: with W frozen
// too small the step asks for lambda_t beyond the cone at every iterate, the
// clamp undoes it, and on wheeled_pallet (velocity, h = 2 ms) |e| stalled at
// 0.23 with every row exact. With follow_safeguards the twist follows the
// clamp, so the error moves into the friction rows, whose W the next iterate
// updates. Off by default: measured, it helps the piles and hurts sliding
// (docs/solvers.md, "Convergence on the scenes").
void follow_safeguards(const ConstraintProblem& op, NewtonWorkspace& ws) {
  const int m = op.num_rows();
  bool changed = false;
  for (int r = 0; r < m; ++r) {
    ws.tmp_m[r] = ws.step_a[r] * (ws.lambda[r] - ws.unguarded_lambda[r]);
    changed = changed || ws.tmp_m[r] != 0;
  }
  if (!changed) return;
  op.apply_JT(ws.tmp_m.data(), ws.tmp6.data());
  op.apply_Minv(ws.tmp6.data(), ws.tmp6.data());
  for (int i = 0; i < op.twist_size(); ++i) ws.delta[i] += ws.tmp6[i];
}

// A sliding contact (lambda_t on the cone, v_t != 0) has lambda_t = -mu lambda_n
// v_t / |v_t|: its magnitude does not follow |v_t|, only its direction. With W
// frozen the rows v_t + W lambda_t say it does, the step overshoots the cone
// and the radial clamp undoes it (the cycle docs/solvers.md describes). With W
// = |v_t| / (mu lambda_n) the rows' derivative is
//   d r_t = P (d v_t) + W d lambda_t + mu W t d lambda_n,   P = I - t t^T,
// t = v_t / |v_t|; the applied impulse stays lambda_t (e is unchanged), so
// the Schur system is no longer symmetric and is solved by GMRES.
void find_sliding_contacts(const ConstraintProblem& p, NewtonWorkspace& ws) {
  const int off = p.contact_offset();
  for (int k = 0; k < p.num_contacts; ++k) {
    const int n = off + 3 * k;
    ws.slide_W[k] = 0;
    const Real ln = ws.lambda[n], mu = p.mu[k];
    const Real lt = std::hypot(ws.lambda[n + 1], ws.lambda[n + 2]);
    const Real vt = std::hypot(ws.v[n + 1], ws.v[n + 2]);
    if (!(ln > 0) || !(mu > 0) || lt < mu * ln * (1 - 1e-9) || !(vt > 1e-7)) continue;
    ws.slide_dir[2 * k] = ws.v[n + 1] / vt;
    ws.slide_dir[2 * k + 1] = ws.v[n + 2] / vt;
    ws.slide_W[k] = vt / (mu * ln);
  }
}

// y = G J M^-1 J^T (a x) + C x with the sliding contacts' blocks (above).
void apply_sliding_schur(const ConstraintProblem& p, NewtonWorkspace& ws, const Real* x, Real* y) {
  const int m = p.num_rows(), off = p.contact_offset();
  for (int r = 0; r < m; ++r) ws.tmp_m[r] = ws.a[r] * x[r];
  p.apply_JT(ws.tmp_m.data(), ws.tmp6.data());
  p.apply_Minv(ws.tmp6.data(), ws.tmp6.data());
  p.apply_J(ws.tmp6.data(), ws.gm_u.data());
  for (int r = 0; r < m; ++r) y[r] = ws.a[r] * ws.gm_u[r] + (ws.c[r] + ws.damping[r]) * x[r];
  for (int k = 0; k < p.num_contacts; ++k) {
    const Real W = ws.slide_W[k];
    if (W == 0) continue;
    const int n = off + 3 * k;
    const Real t1 = ws.slide_dir[2 * k], t2 = ws.slide_dir[2 * k + 1], mu = p.mu[k];
    const Real d1 = ws.gm_u[n + 1] + p.compliance[n + 1] * x[n + 1];
    const Real d2 = ws.gm_u[n + 2] + p.compliance[n + 2] * x[n + 2];
    const Real along = t1 * d1 + t2 * d2;
    y[n + 1] = d1 - along * t1 + W * x[n + 1] + mu * W * t1 * x[n] + ws.damping[n + 1] * x[n + 1];
    y[n + 2] = d2 - along * t2 + W * x[n + 2] + mu * W * t2 * x[n] + ws.damping[n + 2] * x[n + 2];
  }
}

// The merit is a sum over all rows, and each contact's friction rows settle
// at about the law's smoothing (1e-8 m/s) at best, so one absolute bound for
// the whole problem gets tighter as contacts are added: on a pile of 16 boxes
// (71 contacts; 256 PCR iterations, follow_safeguards) Newton stalled at
// 1.2e-8 m/s with every row near its floor. With
// tolerance_per_contact the bound is tolerance^2 per contact (at least one).
Real convergence_threshold(const NewtonOptions& o, int num_contacts) {
  const Real scale = o.tolerance_per_contact ? std::max(1, num_contacts) : 1;
  return o.tolerance * o.tolerance * scale;
}

}  // namespace

void NewtonOptions::Validate() const {
  auto fail = [](const std::string& f, const std::string& why) {
    throw std::invalid_argument("NewtonOptions." + f + " " + why);
  };
  if (newton_iterations < 1) fail("newton_iterations", "must be >= 1");
  if (pcr_iterations < 1) fail("pcr_iterations", "must be >= 1");
  if (k_min < 0) fail("k_min", "must be >= 0");
  if (!(tolerance >= 0)) fail("tolerance", "must be >= 0");
  if (!(pcr_tolerance >= 0)) fail("pcr_tolerance", "must be >= 0");
  if (!(limit_smoothing >= 0)) fail("limit_smoothing", "must be >= 0");
  if (!(regularization >= 0)) fail("regularization", "must be >= 0");
  if (!(step_regularization >= 0)) fail("step_regularization", "must be >= 0");
  if (gmres_iterations < 1) fail("gmres_iterations", "must be >= 1");
  if (line_search_steps < 0) fail("line_search_steps", "must be >= 0");
}

bool NonsmoothNewtonSolver::accepts(const ContactModel& law, std::string* why) const {
  if (law.has_ncp_residual()) return true;
  if (why)
    *why = "newton needs a law with a non-smooth residual (fischer_burmeister); '" + law.name() + "' has none";
  return false;
}

void NonsmoothNewtonSolver::bind_options(OptionSet& set, const std::string& prefix) {
  set.add_validator([this] { options.Validate(); });
  set.add(prefix + "newton_iterations", &options.newton_iterations, "Newton iterations per solve", 1);
  set.add(prefix + "pcr_iterations", &options.pcr_iterations, "PCR iterations per Newton step", 1);
  set.add(prefix + "k_min", &options.k_min, "best iterate chosen from this index on", 0);
  set.add(prefix + "tolerance", &options.tolerance, "m/s, stop when the stacked residual is below it", 0);
  set.add(prefix + "pcr_tolerance", &options.pcr_tolerance, "relative PCR tolerance", 0);
  set.add(prefix + "limit_smoothing", &options.limit_smoothing, "m/s, FB smoothing on limit rows", 0);
  set.add(prefix + "regularization", &options.regularization, "added to the preconditioner's diagonal", 0);
  set.add(prefix + "warm_start", &options.warm_start, "start from the previous step's impulses");
  set.add(prefix + "line_search", &options.line_search, "backtrack on the merit (false: full steps, as Ostrich)");
  set.add(prefix + "line_search_steps", &options.line_search_steps, "step halvings at most", 0, 60);
  set.add(prefix + "sliding_newton", &options.sliding_newton,
          "linearise sliding contacts' friction (direction only; GMRES) instead of freezing W");
  set.add(prefix + "gmres_iterations", &options.gmres_iterations,
          "GMRES budget (and restart) per Newton step when contacts slide (sliding_newton); at least min(64, rows/4)", 1);
  set.add(prefix + "frozen_merit", &options.frozen_merit,
          "line search on the merit with W, a and weights frozen at the step's iterate (false: re-evaluated)");
  set.add(prefix + "pin_unloaded_friction", &options.pin_unloaded_friction,
          "friction rows of a contact without normal impulse hold lambda_t = 0 (false: v_t + W lambda_t, as Ostrich)");
  set.add(prefix + "follow_safeguards", &options.follow_safeguards,
          "the twist follows the safeguards' changes of the impulses (false: as Ostrich)");
  set.add(prefix + "step_regularization", &options.step_regularization,
          "added to the Newton system's diagonal, times the row's Delassus diagonal", 0);
  set.add(prefix + "tolerance_per_contact", &options.tolerance_per_contact,
          "the tolerance holds per contact: tolerance^2 times the number of contacts (false: for the whole problem)");
}

void NonsmoothNewtonSolver::do_solve(const ConstraintProblem& p, const ContactModel& law, const WarmStart& warm,
                                     SolverWorkspace& workspace, std::vector<Real>& lambda_out,
                                     std::vector<Real>& v_plus, SolveStats& stats) const {
  options.Validate();
  NewtonWorkspace& ws =
      solver_common::checked_workspace<NewtonWorkspace>(workspace, p, "newton", "NonsmoothNewtonSolver");
  const int m = p.num_rows(), n6 = p.twist_size(), nc = p.num_contacts, off = p.contact_offset();
  stats.iterations = 0;
  stats.status = SolveStatus::Converged;
  stats.residual_history.clear();
  lambda_out.assign(m, 0.0);
  v_plus.assign(m, 0.0);
  if (m == 0) return;

  for (auto* v : {&ws.lambda, &ws.best_lambda, &ws.base_lambda, &ws.w, &ws.v, &ws.r, &ws.a, &ws.c, &ws.weight, &ws.rhs,
                  &ws.dlambda, &ws.step_a, &ws.step_c, &ws.step_weight, &ws.unguarded_lambda, &ws.damping, &ws.gm_u,
                  &ws.pcr_r, &ws.pcr_z, &ws.pcr_p, &ws.pcr_Ap, &ws.pcr_Az, &ws.tmp_m, &ws.diag_A})
    v->assign(m, 0.0);
  for (auto* v : {&ws.delta, &ws.best_delta, &ws.base_delta, &ws.e, &ws.ddelta, &ws.tmp6}) v->assign(n6, 0.0);
  ws.scale.assign(2 * nc, 0.0);
  ws.slide_dir.assign(2 * nc, 0.0);
  ws.slide_W.assign(nc, 0.0);
  // J of the current iterate: the problem's own, or a copy re-evaluated at each
  // iterate for nonlinear problems.
  const ConstraintProblem* op = &p;
  if (p.nonlinear_rows) {
    ws.at_iterate = p;
    ws.at_iterate.nonlinear_rows = nullptr;
    op = &ws.at_iterate;
  }
  delassus_diagonal(p, ws.diag_D);
  for (int k = 0; k < nc; ++k) {
    const int r = off + 3 * k;
    ws.scale[2 * k] = std::max(ws.diag_D[r], Real(1e-12));
    ws.scale[2 * k + 1] = std::max(Real(0.5) * (ws.diag_D[r + 1] + ws.diag_D[r + 2]), Real(1e-12));
  }

  // Initial iterate: warm impulses (made admissible) and the matching delta.
  if (options.warm_start && warm.valid && static_cast<int>(warm.lambda.size()) == m) {
    ws.lambda = warm.lambda;
    for (int r = p.num_bilateral; r < off; ++r) ws.lambda[r] = std::max(Real(0), ws.lambda[r]);
    law.safeguard(p.mu.data(), nc, ws.lambda.data() + off);
  }
  p.apply_JT(ws.lambda.data(), ws.delta.data());
  p.apply_Minv(ws.delta.data(), ws.delta.data());

  // Residuals and diagonal derivatives at the current iterate; returns the merit
  // |e|^2 + |weight ∘ r|^2 (the law's row weights, MATH.md B.1 notes in fb_math.hpp).
  auto evaluate = [&]() {
    if (p.nonlinear_rows) {
      p.nonlinear_rows->evaluate(ws.delta.data(), ws.w.data(), ws.at_iterate.rows);
      delassus_diagonal(ws.at_iterate, ws.diag_D);
    } else {
      p.apply_J(ws.delta.data(), ws.w.data());
      for (int r = 0; r < m; ++r) ws.w[r] += p.v_free[r];
    }
    for (int r = 0; r < m; ++r) ws.v[r] = ws.w[r] + p.compliance[r] * ws.lambda[r];
    for (int r = 0; r < p.num_bilateral; ++r) {
      ws.r[r] = ws.v[r];
      ws.a[r] = 1;
      ws.c[r] = p.compliance[r];
    }
    for (int r = p.num_bilateral; r < off; ++r) {
      const Real beta = std::max(ws.diag_D[r], Real(1e-12));
      Real da, db;
      ws.r[r] = fb::phi(ws.v[r], beta * ws.lambda[r], options.limit_smoothing, &da, &db);
      ws.a[r] = da;
      ws.c[r] = db * beta + da * p.compliance[r];
    }
    for (int r = 0; r < off; ++r) ws.weight[r] = 1;
    law.ncp_residual(p.mu.data(), nc, ws.lambda.data() + off, ws.v.data() + off, ws.scale.data(), ws.r.data() + off,
                     ws.a.data() + off, ws.c.data() + off, ws.weight.data() + off);
    for (int r = off; r < m; ++r) ws.c[r] += ws.a[r] * p.compliance[r];
    if (options.pin_unloaded_friction) pin_unloaded_friction_rows(p, ws);
    // e = delta - M^-1 J^T (a ∘ lambda)
    for (int r = 0; r < m; ++r) ws.tmp_m[r] = ws.a[r] * ws.lambda[r];
    op->apply_JT(ws.tmp_m.data(), ws.tmp6.data());
    op->apply_Minv(ws.tmp6.data(), ws.tmp6.data());
    for (int i = 0; i < n6; ++i) ws.e[i] = ws.delta[i] - ws.tmp6[i];
    Real merit = vector_dot(ws.e, ws.e, n6);
    for (int r = 0; r < m; ++r) merit += ws.weight[r] * ws.weight[r] * ws.r[r] * ws.r[r];
    return merit;
  };

  // The merit at the current impulses and twist with the friction weight W,
  // a = dr/dv and the merit weights frozen at the iterate the step was made
  // at (step_a, step_c, step_weight): the function the Newton direction
  // descends. Friction rows are r = a v + (c - a R) lambda (v_t + W lambda_t;
  // pinned rows lambda_t); the other rows are evaluated as they are.
  auto frozen_model_merit = [&]() {
    evaluate();
    for (int k = 0; k < nc; ++k)
      for (int t = off + 3 * k + 1; t <= off + 3 * k + 2; ++t)
        ws.r[t] = ws.step_a[t] * ws.v[t] + (ws.step_c[t] - ws.step_a[t] * p.compliance[t]) * ws.lambda[t];
    for (int r = 0; r < m; ++r) ws.tmp_m[r] = ws.step_a[r] * ws.lambda[r];
    op->apply_JT(ws.tmp_m.data(), ws.tmp6.data());
    op->apply_Minv(ws.tmp6.data(), ws.tmp6.data());
    Real merit = 0;
    for (int i = 0; i < n6; ++i) merit += (ws.delta[i] - ws.tmp6[i]) * (ws.delta[i] - ws.tmp6[i]);
    for (int r = 0; r < m; ++r) merit += ws.step_weight[r] * ws.step_weight[r] * ws.r[r] * ws.r[r];
    return merit;
  };
  Real best = std::numeric_limits<Real>::infinity();
  const Real tol2 = convergence_threshold(options, nc);
  for (int k = 0;; ++k) {
    const Real res = evaluate();
    if (!std::isfinite(res)) {
      stats.status = SolveStatus::NumericalFailure;
      stats.iterations = k;
      return;
    }
    if (stats.record_history) stats.residual_history.push_back(std::sqrt(res));
    // Best iterate from k_min on; an iterate that already meets the tolerance,
    // or the last one of a budget smaller than k_min, is a candidate too.
    if ((k >= options.k_min || res <= tol2 || k == options.newton_iterations) && res < best) {
      best = res;
      ws.best_lambda = ws.lambda;
      ws.best_delta = ws.delta;
    }
    if (res <= tol2 || k == options.newton_iterations) {
      stats.iterations = k;
      break;
    }

    // Newton step: A dlambda = a ∘ (J e) - r by PCR (MATH.md C.1).
    op->apply_J(ws.e.data(), ws.rhs.data());
    for (int r = 0; r < m; ++r) {
      ws.rhs[r] = ws.a[r] * ws.rhs[r] - ws.r[r];
      // A row with no effect on anything (zero W row, a = c = 0) and no
      // regularization gets no preconditioning rather than 1/0.
      // Optional Levenberg-style damping of near-singular systems (redundant
      // contacts): measured on wheeled_pallet it changes little (docs/solvers.md).
      ws.damping[r] = options.step_regularization * ws.diag_D[r];
      const Real den = ws.a[r] * ws.a[r] * ws.diag_D[r] + ws.c[r] + ws.damping[r] + options.regularization;
      ws.diag_A[r] = den > 0 ? 1.0 / den : Real(0);
    }
    bool sliding = false;
    if (options.sliding_newton) {
      find_sliding_contacts(p, ws);
      for (int k = 0; k < nc; ++k) {
        if (ws.slide_W[k] == 0) continue;
        sliding = true;
        const int n = off + 3 * k;
        const Real t1 = ws.slide_dir[2 * k], t2 = ws.slide_dir[2 * k + 1];
        // rhs_t = (J e)_t - r_t (a_t = 1) becomes P (J e)_t - r_t.
        const Real along = t1 * (ws.rhs[n + 1] + ws.r[n + 1]) + t2 * (ws.rhs[n + 2] + ws.r[n + 2]);
        ws.rhs[n + 1] -= along * t1;
        ws.rhs[n + 2] -= along * t2;
      }
    }
    if (sliding) {
      // Piles need more than a pallet: a quarter of the rows, capped at 64
      // (restart cost grows as budget^2 m). Measured in docs/solvers.md.
      const int gmres_budget = std::max(options.gmres_iterations, std::min(64, m / 4));
      Eigen::Map<const VecX> pre(ws.diag_A.data(), m);
      VecX b = Eigen::Map<const VecX>(ws.rhs.data(), m), x;
      krylov::gmres([&](const VecX& in, VecX& out) { out.resize(m); apply_sliding_schur(*op, ws, in.data(), out.data()); },
                    [&](const auto& v, VecX& out) { out = pre.cwiseProduct(v); }, b, gmres_budget,
                    gmres_budget, options.pcr_tolerance, x);
      for (int r = 0; r < m; ++r) ws.dlambda[r] = x[r];
    } else {
      krylov::pcr([&](const Real* x, Real* y) { apply_schur(*op, ws, x, y); }, ws.diag_A.data(), ws.rhs.data(), m,
                  options.pcr_iterations, options.pcr_tolerance, ws.dlambda.data(),
                  {ws.pcr_r.data(), ws.pcr_z.data(), ws.pcr_p.data(), ws.pcr_Ap.data(), ws.pcr_Az.data()});
    }
    // d delta = M^-1 J^T (a ∘ dlambda) - e.
    for (int r = 0; r < m; ++r) ws.tmp_m[r] = ws.a[r] * ws.dlambda[r];
    op->apply_JT(ws.tmp_m.data(), ws.ddelta.data());
    op->apply_Minv(ws.ddelta.data(), ws.ddelta.data());
    for (int i = 0; i < n6; ++i) ws.ddelta[i] -= ws.e[i];
    // Step length: Ostrich takes alpha = 1. The safeguards can undo a full step
    // (a normal impulse pushed below zero and clamped back), which leaves the
    // iteration cycling; with line_search the step is halved until the merit
    // falls. With W frozen (and, for backward Euler, rows that move with q+)
    // the direction need not descend the merit at all; when no halving helps
    // the full step is taken, as Ostrich does. Keeping the shortest step
    // instead made the iteration crawl: on wheeled_pallet at h = 0.1 s it never
    // left the warm start and the robot diverged (docs/solvers.md). The best
    // iterate is what is returned, so an uphill full step costs iterations only.
    ws.base_lambda = ws.lambda;
    ws.base_delta = ws.delta;
    ws.step_a = ws.a;
    ws.step_c = ws.c;
    ws.step_weight = ws.weight;
    auto take = [&](Real alpha) {
      for (int r = 0; r < m; ++r) ws.lambda[r] = ws.base_lambda[r] + alpha * ws.dlambda[r];
      for (int i = 0; i < n6; ++i) ws.delta[i] = ws.base_delta[i] + alpha * ws.ddelta[i];
      ws.unguarded_lambda = ws.lambda;
      for (int r = p.num_bilateral; r < off; ++r) ws.lambda[r] = std::max(Real(0), ws.lambda[r]);
      law.safeguard(p.mu.data(), nc, ws.lambda.data() + off);
      if (options.follow_safeguards) follow_safeguards(*op, ws);
    };
    // A nonlinear problem may cap the step (backward Euler: rotation per
    // iterate), so the iteration cannot jump to a far root of c(q+) = 0.
    const Real full = p.nonlinear_rows ? p.nonlinear_rows->step_limit(ws.ddelta.data()) : Real(1);
    // The merit the step is tested on: the true one, or (frozen_merit) the one
    // of the model the step was computed for, whose W the next iterate updates.
    auto trial_merit = [&]() { return options.frozen_merit ? frozen_model_merit() : evaluate(); };
    take(full);
    if (options.line_search && trial_merit() >= res) {
      bool decreased = false;
      Real alpha = 0.5 * full;
      for (int t = 0; t < options.line_search_steps && !decreased; ++t, alpha *= 0.5) {
        take(alpha);
        decreased = trial_merit() < res;
      }
      if (!decreased) take(full);
    }
  }

  // v+ for the velocity the integrator will produce, u+ = u_free + M^-1 J^T lambda:
  // D lambda + v_f for a linear problem. For a nonlinear one J depends on u+
  // through q+: the scheme integrates the best iterate itself (accept), and v+
  // is the rows' value there.
  lambda_out = ws.best_lambda;
  if (p.nonlinear_rows) {
    p.nonlinear_rows->evaluate(ws.best_delta.data(), v_plus.data(), ws.at_iterate.rows);
    p.nonlinear_rows->accept(ws.best_delta.data());
  } else {
    p.apply_JT(lambda_out.data(), ws.delta.data());
    p.apply_Minv(ws.delta.data(), ws.delta.data());
    p.apply_J(ws.delta.data(), v_plus.data());
    for (int r = 0; r < m; ++r) v_plus[r] += p.v_free[r];
  }
  for (int r = 0; r < m; ++r) v_plus[r] += p.compliance[r] * lambda_out[r];
  const Real res = std::sqrt(best);
  stats.r_primal = stats.r_dual = stats.r_compl = res;
  stats.status = best <= tol2 ? SolveStatus::Converged : SolveStatus::MaxIterations;
}

}  // namespace contactlab
