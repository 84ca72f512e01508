#include "solvers/padmm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/linalg/dense_cholesky.hpp"
#include "solvers/padmm_kernels.hpp"

namespace contactlab {

using namespace solver_common;

namespace {

// Diagonal of D + diag(contact_R) straight from the rows (matrix-free path,
// where assembling D just for its diagonal would cost O(m^2)). A row with both
// ends on one body counts the cross terms too.
void delassus_diagonal(const ConstraintProblem& pr, const Real* contact_R, Real* diag) {
  const int off = pr.contact_offset();
  if (pr.explicit_delassus()) {
    for (int r = 0; r < pr.num_rows(); ++r)
      diag[r] = pr.explicit_W->diagonal(r) + pr.compliance[r] + (contact_R && r >= off ? contact_R[r - off] : Real(0));
    return;
  }
  for (int r = 0; r < pr.num_rows(); ++r) {
    const ConstraintRow& row = pr.rows[r];
    const int b[2] = {row.body_a, row.body_b};
    const Vec6* J[2] = {&row.J_a, &row.J_b};
    Real d = 0;
    for (int i = 0; i < 2; ++i) {
      if (b[i] < 0) continue;
      for (int j = 0; j < 2; ++j)
        if (b[j] == b[i]) d += J[i]->dot(body_minv(pr, b[i], *J[j]));
    }
    d += pr.compliance[r];
    if (contact_R && r >= off) d += contact_R[r - off];
    diag[r] = d;
  }
}

// out = (P D P + shift I) v, with D = apply_delassus + contact_R (matrix free).
void apply_shifted(const ConstraintProblem& pr, const Real* contact_R, const Real* p, Real shift, const Real* v,
                   Real* out, Real* tmp, Real* scratch6) {
  const int m = pr.num_rows(), off = pr.contact_offset();
  for (int i = 0; i < m; ++i) tmp[i] = p[i] * v[i];
  pr.apply_delassus(tmp, out, scratch6);
  if (contact_R)
    for (int i = off; i < m; ++i) out[i] += contact_R[i - off] * tmp[i];
  for (int i = 0; i < m; ++i) out[i] = p[i] * out[i] + shift * v[i];
}

// Conjugate residual for the SPD system (P D P + shift I) x = b, started from
// the x it is given (the previous iterate: consecutive ADMM right-hand sides
// differ little). Stops at |r|_2 <= tol |b|_2 or after max_it iterations.
void conjugate_residual(const ConstraintProblem& pr, const Real* contact_R, const Real* p, Real shift,
                        const Real* b, Real* x, int max_it, Real tol, PadmmWorkspace& ws) {
  const int m = pr.num_rows();
  Real *r = ws.cr_r.data(), *d = ws.cr_p.data(), *Ar = ws.cr_Ar.data(), *Ad = ws.cr_Ap.data();
  Real *tmp = ws.cr_tmp.data(), *s6 = ws.scratch6.data();
  const Real bnorm = std::sqrt(dot(b, b, m));
  if (bnorm == 0) {  // A is SPD: the solution is 0
    std::fill(x, x + m, Real(0));
    return;
  }
  apply_shifted(pr, contact_R, p, shift, x, Ar, tmp, s6);
  for (int i = 0; i < m; ++i) r[i] = b[i] - Ar[i];
  if (std::sqrt(dot(r, r, m)) <= tol * bnorm) return;
  apply_shifted(pr, contact_R, p, shift, r, Ar, tmp, s6);
  for (int i = 0; i < m; ++i) {
    d[i] = r[i];
    Ad[i] = Ar[i];
  }
  Real rAr = dot(r, Ar, m);
  for (int k = 0; k < max_it; ++k) {
    const Real AdAd = dot(Ad, Ad, m);
    if (!(AdAd > 0)) break;
    const Real alpha = rAr / AdAd;
    for (int i = 0; i < m; ++i) {
      x[i] += alpha * d[i];
      r[i] -= alpha * Ad[i];
    }
    if (std::sqrt(dot(r, r, m)) <= tol * bnorm) break;
    apply_shifted(pr, contact_R, p, shift, r, Ar, tmp, s6);
    const Real rAr_next = dot(r, Ar, m);
    if (!(rAr != 0)) break;
    const Real beta = rAr_next / rAr;
    rAr = rAr_next;
    for (int i = 0; i < m; ++i) {
      d[i] = r[i] + beta * d[i];
      Ad[i] = Ar[i] + beta * Ad[i];
    }
  }
}

}  // namespace

void PadmmOptions::Validate() const {
  const OptionCheck require("PadmmOptions");
  require(max_iterations >= 1, "max_iterations", max_iterations, "must be >= 1");
  require(tol_primal >= 0, "tol_primal", tol_primal, "must be >= 0");
  require(tol_dual >= 0, "tol_dual", tol_dual, "must be >= 0");
  require(tol_compl >= 0, "tol_compl", tol_compl, "must be >= 0");
  require(eta >= 0 && std::isfinite(eta), "eta", eta, "must be finite and >= 0");
  require(rho > 0 && std::isfinite(rho), "rho", rho, "must be finite and > 0");
  require(restart_factor > 0 && restart_factor <= 1, "restart_factor", restart_factor, "must lie in (0, 1]");
  require(warm_start_factor >= 0 && warm_start_factor <= 1, "warm_start_factor", warm_start_factor,
          "must lie in [0, 1]");
  require(delassus == kDense || delassus == kMatrixFree || delassus == kSparse || delassus == kAuto, "delassus",
          delassus, "must be dense (0), matrix_free (1), sparse (2) or auto (3)");
  require(sparse_from_rows >= 0, "sparse_from_rows", sparse_from_rows, "must be >= 0");
  require(correction_max_iterations >= 0, "correction_max_iterations", correction_max_iterations, "must be >= 0");
  require(cr_max_iterations >= 1, "cr_max_iterations", cr_max_iterations, "must be >= 1");
  require(cr_tolerance > 0 && cr_tolerance < 1, "cr_tolerance", cr_tolerance, "must lie in (0, 1)");
  require(penalty_interval >= 1, "penalty_interval", penalty_interval, "must be >= 1");
  require(penalty_ratio >= 1, "penalty_ratio", penalty_ratio, "must be >= 1");
  require(penalty_factor > 1 && std::isfinite(penalty_factor), "penalty_factor", penalty_factor, "must be > 1");
  require(rho_min > 0, "rho_min", rho_min, "must be > 0");
  require(rho_max >= rho_min && std::isfinite(rho_max), "rho_max", rho_max, "must be finite and >= rho_min");
}

void padmm_assemble_delassus(const ConstraintProblem& problem, const Real* contact_R, Real* D, Real* unit,
                             Real* scratch6) {
  const int m = problem.num_rows(), off = problem.contact_offset();
  std::fill(unit, unit + m, Real(0));
  for (int j = 0; j < m; ++j) {
    // D e_j is column j; D is symmetric, so it is stored as row j.
    unit[j] = 1;
    problem.apply_delassus(unit, D + static_cast<size_t>(j) * m, scratch6);
    unit[j] = 0;
    if (contact_R && j >= off) D[static_cast<size_t>(j) * m + j] += contact_R[j - off];
  }
}

void PadmmSolver::do_solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                           SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                           SolveStats& stats) const {
  options.Validate();
  PadmmWorkspace& ws = checked_workspace<PadmmWorkspace>(workspace, problem, "padmm", "PadmmSolver");

  const int m = problem.num_rows(), nb = problem.num_bilateral, nl = problem.num_limit, nc = problem.num_contacts;
  const int off = problem.contact_offset();
  begin_solve(stats, options.max_iterations, m, lambda, v_plus);
  if (m == 0) return;

  // The x-update's linear algebra: a factor (dense, sparse or LU) or matrix free.
  const bool matrix_free = options.delassus == PadmmOptions::kMatrixFree;
  const bool use_lu = problem.explicit_delassus() && !problem.explicit_W->symmetric();
  const bool sparse = !use_lu && (options.delassus == PadmmOptions::kSparse ||
                                  (options.delassus == PadmmOptions::kAuto && m >= options.sparse_from_rows));
  const PadmmFactor::Storage storage =
      use_lu ? PadmmFactor::Storage::Lu : (sparse ? PadmmFactor::Storage::Sparse : PadmmFactor::Storage::Dense);
  const Real* mu = problem.mu.data();
  Real* R = grow(ws.contact_R, std::max(3 * nc, 1));
  Real* p = grow(ws.p, m);
  Real* diag = grow(ws.diag, m);
  Real* unit = grow(ws.unit, m);
  Real* s6 = grow(ws.scratch6, std::max(problem.twist_size(), 1));
  Real* rhs = grow(ws.rhs, m);
  Real* vf = grow(ws.vf, m);
  padmm::World<Real> w;
  w.m = m;
  w.nb = nb;
  w.nl = nl;
  w.nc = nc;
  w.p = p;
  w.vf = vf;
  w.mu = mu;
  w.x = grow(ws.x, m);
  w.y = grow(ws.y, m);
  w.z = grow(ws.z, m);
  w.y_hat = grow(ws.y_hat, m);
  w.z_hat = grow(ws.z_hat, m);
  w.x_prev = grow(ws.x_prev, m);
  w.y_prev = grow(ws.y_prev, m);
  w.z_prev = grow(ws.z_prev, m);
  if (matrix_free)
    for (auto* v : {&ws.cr_r, &ws.cr_p, &ws.cr_Ar, &ws.cr_Ap, &ws.cr_tmp}) grow(*v, m);

  // Soft laws: their contact compliance joins D on the contact rows.
  const Real* contact_R = law_contact_compliance(law, mu, nc, R);

  // Preconditioner and scaled free velocity (MATH.md C.2).
  PadmmFactor& factor = ws.factor;
  if (!matrix_free) {
    factor.assemble(problem, contact_R, storage);
    std::copy(factor.diagonal().begin(), factor.diagonal().end(), diag);
  } else {
    delassus_diagonal(problem, contact_R, diag);
  }
  padmm::jacobi_preconditioner(diag, nb, nl, nc, options.preconditioning, p);
  for (int i = 0; i < m; ++i) vf[i] = p[i] * problem.v_free[i];

  padmm::Params<Real> prm;
  prm.eta = options.eta;
  prm.rho = options.penalty_memory && options.balanced_penalty && warm.penalty > 0
                ? std::min(std::max(std::sqrt(warm.penalty * options.rho), options.rho_min), options.rho_max)
                : options.rho;
  prm.tol_primal = options.tol_primal;
  prm.tol_dual = options.tol_dual;
  prm.tol_compl = options.tol_compl;
  prm.compl_target = law.complementarity_target();
  prm.restart_factor = options.restart_factor;
  prm.accelerate = options.acceleration ? 1 : 0;

  auto fail = [&]() {
    ws.last_counters = factor.counters;
    fail_solve(stats, lambda, v_plus);
  };
  if (!matrix_free && !factor.factorise_scaled(p, prm.eta + prm.rho)) return fail();

  // Warm start: x = y = factor lambda/P, z = P (v + Gamma(v)) (shift in `unit`).
  padmm::Scalars<Real> sc;
  const bool use_warm = options.warm_start && warm.valid && static_cast<int>(warm.lambda.size()) == m &&
                        static_cast<int>(warm.v.size()) == m;
  if (use_warm) {
    law.velocity_shift(mu, nc, warm.v.data() + off, unit);
    padmm::init_state(w, sc, warm.lambda.data(), warm.v.data(), unit, options.warm_start_factor);
  } else {
    padmm::init_state<Real>(w, sc, nullptr, nullptr, nullptr, 0);
  }

  while (sc.iteration < options.max_iterations) {
    // x-update: the law's shift of ẑ goes into rhs first (x_rhs allows the alias).
    law.velocity_shift(mu, nc, w.z_hat + off, rhs + off);
    padmm::x_rhs(w, prm, rhs + off, rhs);
    if (matrix_free) {
      conjugate_residual(problem, contact_R, p, prm.eta + prm.rho, rhs, w.x, options.cr_max_iterations,
                         options.cr_tolerance, ws);
    } else if (!factor.solve(rhs, prm.eta + prm.rho, options.correction_max_iterations, options.cr_tolerance,
                             w.x)) {
      sc.flag = padmm::kFailed;
      break;
    }
    // y = Pi_K(x - ẑ/rho): bilateral and limits in the kernel, contacts by the law.
    padmm::y_before_projection(w, prm);
    law.project_primal_step(mu, nc, 1 / prm.rho, w.y + off);  // y = Pi(y - z/rho) at the fixed point
    padmm::finish_iteration(w, prm, sc);
    if (stats.record_history) stats.residual_history.push_back(std::max({sc.r_primal, sc.r_dual, sc.r_compl}));
    if (sc.flag != padmm::kRunning) break;

    if (options.balanced_penalty && sc.iteration % options.penalty_interval == 0) {
      Real rho = prm.rho;
      if (sc.r_primal > options.penalty_ratio * sc.r_dual) rho = std::min(rho * options.penalty_factor, options.rho_max);
      else if (sc.r_dual > options.penalty_ratio * sc.r_primal) rho = std::max(rho / options.penalty_factor, options.rho_min);
      if (rho != prm.rho) {
        prm.rho = rho;
        sc.a = 1;  // c is measured with rho: start the restart test afresh
        sc.c_prev = std::numeric_limits<Real>::infinity();
        if (!matrix_free && options.penalty_refactorise && !factor.refactorise(prm.eta + prm.rho)) {
          sc.flag = padmm::kFailed;
          break;
        }
      }
    }
  }

  ws.last_counters = factor.counters;
  stats.iterations = sc.iteration;
  stats.penalty = prm.rho;
  stats.r_primal = sc.r_primal;
  stats.r_dual = sc.r_dual;
  stats.r_compl = sc.r_compl;
  if (sc.flag == padmm::kFailed) return fail();
  stats.status = sc.flag == padmm::kConverged ? SolveStatus::Converged : SolveStatus::MaxIterations;

  // lambda = P y; v+ = D lambda + v_f, the velocity the integrator will see.
  for (int i = 0; i < m; ++i) lambda[i] = p[i] * w.y[i];
  problem.apply_delassus(lambda.data(), v_plus.data(), s6);
  for (int i = 0; i < m; ++i) {
    if (contact_R && i >= off) v_plus[i] += contact_R[i - off] * lambda[i];
    v_plus[i] += problem.v_free[i];
  }
  for (int i = 0; i < m; ++i)
    if (!padmm::is_finite(lambda[i]) || !padmm::is_finite(v_plus[i])) return fail();
}

void PadmmOptions::bind(OptionSet& set, const std::string& prefix) {
  PadmmOptions& o = *this;
  const Real inf = std::numeric_limits<Real>::infinity();
  set.add(prefix + "max_iterations", &o.max_iterations, "ADMM iterations per solve", 1);
  set.add(prefix + "tol_primal", &o.tol_primal, "primal residual |P(x-y)|_inf, N s", 0, inf);
  set.add(prefix + "tol_dual", &o.tol_dual, "dual residual, m/s", 0, inf);
  set.add(prefix + "tol_compl", &o.tol_compl, "complementarity max_k |lambda_k . v^_k|", 0, inf);
  set.add(prefix + "eta", &o.eta, "proximal weight (scaled units)", 0, inf);
  set.add(prefix + "rho", &o.rho, "ADMM penalty (scaled units), > 0", 0, inf);
  set.add(prefix + "restart_factor", &o.restart_factor, "c_r of the adaptive restart, (0, 1]", 0, 1);
  set.add(prefix + "acceleration", &o.acceleration, "Nesterov acceleration with adaptive restart");
  set.add(prefix + "warm_start", &o.warm_start, "start from the previous step's lambda and v+");
  set.add(prefix + "warm_start_factor", &o.warm_start_factor, "x = y = factor * lambda / P", 0, 1);
  set.add(prefix + "preconditioning", &o.preconditioning, "Jacobi scaling of the Delassus matrix");
  set.add_choice(prefix + "delassus", &o.delassus, {"dense", "matrix_free", "sparse", "auto"},
                 "x-update: dense Cholesky, matrix-free conjugate residual, sparse LDL^T, or auto "
                 "(sparse from sparse_from_rows rows)");
  set.add(prefix + "sparse_from_rows", &o.sparse_from_rows, "rows from which delassus=auto factorises sparse", 0);
  set.add(prefix + "cr_max_iterations", &o.cr_max_iterations, "conjugate-residual iterations per x-update", 1);
  set.add(prefix + "cr_tolerance", &o.cr_tolerance, "conjugate-residual relative tolerance", 0, 1);
  set.add(prefix + "balanced_penalty", &o.balanced_penalty, "adapt rho to balance primal and dual residuals");
  set.add(prefix + "penalty_interval", &o.penalty_interval, "iterations between rho updates", 1);
  set.add(prefix + "penalty_ratio", &o.penalty_ratio, "residual ratio that triggers a rho update", 1, inf);
  set.add(prefix + "penalty_factor", &o.penalty_factor, "rho is multiplied/divided by this", 1, inf);
  set.add(prefix + "rho_min", &o.rho_min, "lower bound of rho under balancing", 0, inf);
  set.add(prefix + "rho_max", &o.rho_max, "upper bound of rho under balancing", 0, inf);
  set.add(prefix + "penalty_memory", &o.penalty_memory,
          "start from the geometric mean of rho and the previous step's final rho");
  set.add(prefix + "penalty_refactorise", &o.penalty_refactorise,
          "refactorise at every rho change (else the old factor preconditions a CG)");
  set.add(prefix + "correction_max_iterations", &o.correction_max_iterations,
          "CG iterations of an x-update at a changed rho before refactorising", 0);
}

}  // namespace contactlab
