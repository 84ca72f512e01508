#include "solvers/pgs.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

#include "contact_models/contact_kernel.hpp"

namespace contactlab {

using namespace solver_common;

namespace {

// (J M^-1 J^T)_ij from the cached M^-1 J^T: the sum over the bodies rows i and j share.
Real jmj_entry(const ConstraintProblem& pr, const PgsWorkspace& ws, int i, int j) {
  if (pr.explicit_delassus()) return pr.explicit_W->entry(i, j);
  const ConstraintRow& ri = pr.rows[i];
  const ConstraintRow& rj = pr.rows[j];
  const int bi[2] = {ri.body_a, ri.body_b};
  const Vec6* Ji[2] = {&ri.J_a, &ri.J_b};
  const int bj[2] = {rj.body_a, rj.body_b};
  const Vec6* Mj[2] = {&ws.minv_jt_a[j], &ws.minv_jt_b[j]};
  Real d = 0;
  for (int p = 0; p < 2; ++p) {
    if (bi[p] < 0) continue;
    for (int q = 0; q < 2; ++q)
      if (bj[q] == bi[p]) d += Ji[p]->dot(*Mj[q]);
  }
  return d;
}

// Row velocity v_r = J_r u + R_r lambda_r + v_f,r (u = M^-1 J^T lambda).
inline Real row_velocity(const ConstraintRow& row, const Real* u, Real R, Real lambda, Real vf) {
  Real s = R * lambda + vf;
  if (row.body_a >= 0) s += row.J_a.dot(Eigen::Map<const Vec6>(u + 6 * row.body_a));
  if (row.body_b >= 0) s += row.J_b.dot(Eigen::Map<const Vec6>(u + 6 * row.body_b));
  return s;
}

// u += M^-1 J_r^T dlambda.
inline void apply_impulse(const ConstraintRow& row, const Vec6& minv_jt_a, const Vec6& minv_jt_b, Real dlambda,
                          Real* u) {
  if (row.body_a >= 0) Eigen::Map<Vec6>(u + 6 * row.body_a) += minv_jt_a * dlambda;
  if (row.body_b >= 0) Eigen::Map<Vec6>(u + 6 * row.body_b) += minv_jt_b * dlambda;
}

struct Residuals {
  Real vi = 0, primal = 0, dual = 0, compl_ = 0;
};

// MATH.md E.1 residuals of (lambda, v), as core/metrics.cpp defines them, with
// batch calls to the law. Leaves Gamma(v_k) in ws.shift.
Residuals residuals(const ConstraintProblem& pr, const ContactModel& law, const Real* lambda, const Real* v,
                    PgsWorkspace& ws) {
  Residuals r;
  const int nc = pr.num_contacts, off = pr.contact_offset();
  for (int i = 0; i < pr.num_bilateral; ++i) {
    max_into(r.dual, std::abs(v[i]));
    max_into(r.vi, std::abs(v[i]));
  }
  for (int i = pr.num_bilateral; i < off; ++i) {
    max_into(r.primal, std::max(Real(0), -lambda[i]));
    max_into(r.dual, std::max(Real(0), -v[i]));
    max_into(r.vi, std::abs(lambda[i] - std::max(Real(0), lambda[i] - v[i])));
  }
  if (nc == 0) {
    r.compl_ = complementarity_residual(pr, lambda, v, nullptr);
    return r;
  }
  const Real* mu = pr.mu.data();
  const Real* l = lambda + off;
  const Real* vc = v + off;
  Real* s = ws.shift.data();
  Real* p = ws.proj.data();
  law.velocity_shift(mu, nc, vc, s);
  // Natural map |lambda - Pi_K(lambda - (v + s))|.
  for (int i = 0; i < 3 * nc; ++i) p[i] = l[i] - (vc[i] + s[i]);
  law.project_primal(mu, nc, p);
  for (int i = 0; i < 3 * nc; ++i) max_into(r.vi, std::abs(l[i] - p[i]));
  // Primal |lambda - Pi_K(lambda)|.
  for (int i = 0; i < 3 * nc; ++i) p[i] = l[i];
  law.project_primal(mu, nc, p);
  for (int i = 0; i < 3 * nc; ++i) max_into(r.primal, std::abs(l[i] - p[i]));
  // Dual |s^ - Pi_K*(s^)|, s^ = v + Gamma(v); complementarity |lambda_k . s^_k|.
  for (int i = 0; i < 3 * nc; ++i) p[i] = vc[i] + s[i];
  r.compl_ = complementarity_residual(pr, lambda, v, p);
  law.project_dual(mu, nc, p);
  for (int i = 0; i < 3 * nc; ++i) max_into(r.dual, std::abs(vc[i] + s[i] - p[i]));
  return r;
}

}  // namespace

void PgsOptions::Validate() const {
  const OptionCheck require("PgsOptions");
  require(max_iterations >= 1, "max_iterations", max_iterations, "must be >= 1");
  require(tolerance >= 0, "tolerance", tolerance, "must be >= 0");
  require(check_interval >= 1, "check_interval", check_interval, "must be >= 1");
  require(relaxation > 0 && relaxation < 2, "relaxation", relaxation, "must lie in (0, 2)");
}

void PgsSolver::do_solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                         SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                         SolveStats& stats) const {
  options.Validate();
  PgsWorkspace& ws = checked_workspace<PgsWorkspace>(workspace, problem, "pgs", "PgsSolver");

  const int m = problem.num_rows(), nbil = problem.num_bilateral, nc = problem.num_contacts;
  const int off = problem.contact_offset();
  const int max_it = options.max_iterations, interval = options.check_interval;
  begin_solve(stats, max_it / interval + 1, m, lambda, v_plus);
  if (m == 0) return;

  const Real* mu = problem.mu.data();
  const std::vector<ConstraintRow>& rows = problem.rows;
  const bool explicit_W = problem.explicit_delassus();
  const Vec6* mja = grow(ws.minv_jt_a, explicit_W ? 0 : m);
  const Vec6* mjb = grow(ws.minv_jt_b, explicit_W ? 0 : m);
  // u = M^-1 J^T lambda: body twists, or (explicit W: J = I, M^-1 = W) W lambda itself.
  Real* u = grow(ws.u, std::max(problem.twist_size(), 1));
  Real* R = grow(ws.R, m);
  Real* step = grow(ws.step, m);
  Real* v = grow(ws.v, m);
  Real* cR = grow(ws.contact_R, std::max(3 * nc, 1));
  Real* shift = grow(ws.shift, std::max(3 * nc, 1));
  grow(ws.proj, std::max(3 * nc, 1));
  Real* s6 = grow(ws.scratch6, std::max(problem.twist_size(), 1));
  Real* l = lambda.data();
  // Row velocity J_r u + R_r lambda_r + v_f,r, and u += M^-1 J_r^T dlambda.
  auto velocity = [&](int r) {
    return explicit_W ? u[r] + R[r] * l[r] + problem.v_free[r] : row_velocity(rows[r], u, R[r], l[r], problem.v_free[r]);
  };
  auto impulse = [&](int r, Real dl) {
    if (explicit_W) {
      problem.explicit_W->add_column(r, dl, u);
    } else {
      apply_impulse(rows[r], mja[r], mjb[r], dl, u);
    }
  };

  // Soft laws: their contact compliance joins D on the contact rows (as in PADMM).
  law_contact_compliance(law, mu, nc, cR);
  for (int r = 0; r < m; ++r) R[r] = row_compliance(problem, cR, r);

  // Cached M^-1 J_r^T per endpoint: the twist change of a unit impulse on row r.
  for (int r = 0; r < (explicit_W ? 0 : m); ++r) {
    const ConstraintRow& row = rows[r];
    ws.minv_jt_a[r] = row.body_a >= 0 ? body_minv(problem, row.body_a, row.J_a) : Vec6::Zero();
    ws.minv_jt_b[r] = row.body_b >= 0 ? body_minv(problem, row.body_b, row.J_b) : Vec6::Zero();
  }

  // Steps. A row or block with a zero (or non-finite) diagonal has no effect
  // on its own velocity and is left alone; a NaN in the data still reaches
  // the velocities and the residual check.
  const Real omega = options.relaxation;
  for (int r = 0; r < off; ++r) {
    const Real d = jmj_entry(problem, ws, r, r) + R[r];
    step[r] = d > 0 ? omega / d : Real(0);
  }
  for (int k = 0; k < nc; ++k) {
    const int o = off + 3 * k;
    Mat3 Dkk;
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) Dkk(i, j) = Dkk(j, i) = jmj_entry(problem, ws, o + i, o + j);
    for (int i = 0; i < 3; ++i) Dkk(i, i) += R[o + i];
    // omega / lambda_max(D_kk): one descent step of the block subproblem for omega in (0, 2).
    Eigen::SelfAdjointEigenSolver<Mat3> eig;
    eig.computeDirect(Dkk, Eigen::EigenvaluesOnly);
    const Real lmax = eig.eigenvalues()(2);
    step[o] = step[o + 1] = step[o + 2] = lmax > 0 ? omega / lmax : Real(0);
  }

  // Initial impulses: the warm start projected onto K (it may come from a
  // step with other contact data), else zero; u = M^-1 J^T lambda.
  const bool use_warm = options.warm_start && warm.valid && static_cast<int>(warm.lambda.size()) == m;
  std::fill(u, u + problem.twist_size(), Real(0));
  if (use_warm) {
    std::copy(warm.lambda.begin(), warm.lambda.end(), l);
    for (int r = nbil; r < off; ++r) l[r] = std::max(Real(0), l[r]);
    law.project_primal(mu, nc, l + off);
    for (int r = 0; r < m; ++r) impulse(r, l[r]);
  } else {
    std::fill(l, l + m, Real(0));
  }

  auto refresh_velocities = [&]() {
    for (int r = 0; r < m; ++r) v[r] = velocity(r);
  };
  auto fail = [&]() { fail_solve(stats, lambda, v_plus); };

  // v and shift hold the velocities of the current iterate and their Gamma
  // (refreshed by a residual check, reused by the next frozen sweep).
  bool fresh = false;
  bool converged = false;
  const ContactKernel kernel = law.contact_kernel();  // per-contact cone functions, inline
  int it = 0;
  while (it < max_it) {
    if (options.desaxce_frozen && nc > 0 && !fresh) {
      refresh_velocities();
      law.velocity_shift(mu, nc, v + off, shift);
    }
    for (int r = 0; r < nbil; ++r) {
      const Real dl = -step[r] * velocity(r);
      l[r] += dl;
      impulse(r, dl);
    }
    for (int r = nbil; r < off; ++r) {
      const Real next = std::max(Real(0), l[r] - step[r] * velocity(r));
      const Real dl = next - l[r];
      l[r] = next;
      impulse(r, dl);
    }
    for (int k = 0; k < nc; ++k) {
      const int o = off + 3 * k;
      Real vk[3], x[3];
      for (int i = 0; i < 3; ++i) vk[i] = velocity(o + i);
      Real* sk = shift + 3 * k;
      if (!options.desaxce_frozen) contact_kernel::velocity_shift(kernel, mu[k], vk, sk);
      for (int i = 0; i < 3; ++i) x[i] = l[o + i] - step[o] * (vk[i] + sk[i]);
      // fixed point lambda = Pi(lambda - step (v + s))
      contact_kernel::project_primal_step(kernel, mu[k], step[o], x);
      for (int i = 0; i < 3; ++i) {
        const Real dl = x[i] - l[o + i];
        l[o + i] = x[i];
        impulse(o + i, dl);
      }
    }
    ++it;
    fresh = false;
    if (it % interval != 0 && it != max_it) continue;

    refresh_velocities();
    const Residuals res = residuals(problem, law, l, v, ws);
    fresh = true;
    if (stats.record_history) stats.residual_history.push_back(res.vi);
    if (!std::isfinite(res.vi)) {
      stats.iterations = it;
      stats.r_primal = res.primal;
      stats.r_dual = res.dual;
      stats.r_compl = res.compl_;
      return fail();
    }
    if (res.vi <= options.tolerance) {
      converged = true;
      break;
    }
  }
  stats.iterations = it;
  stats.status = converged ? SolveStatus::Converged : SolveStatus::MaxIterations;

  // v+ = D lambda + v_f through the problem's operator, the velocity the
  // integrator will see (u above carries the round-off of incremental updates).
  problem.apply_delassus(l, v_plus.data(), s6);
  for (int i = 0; i < m; ++i) v_plus[i] += (i >= off ? cR[i - off] * l[i] : Real(0)) + problem.v_free[i];
  for (int i = 0; i < m; ++i)
    if (!std::isfinite(l[i]) || !std::isfinite(v_plus[i])) return fail();
  const Residuals fin = residuals(problem, law, l, v_plus.data(), ws);
  stats.r_primal = fin.primal;
  stats.r_dual = fin.dual;
  stats.r_compl = fin.compl_;
}

void PgsOptions::bind(OptionSet& set, const std::string& prefix) {
  PgsOptions& o = *this;
  const Real inf = std::numeric_limits<Real>::infinity();
  set.add(prefix + "max_iterations", &o.max_iterations, "Gauss-Seidel sweeps per solve", 1);
  set.add(prefix + "tolerance", &o.tolerance, "natural-map residual r_vi (MATH.md E.1) to stop at", 0, inf);
  set.add(prefix + "check_interval", &o.check_interval, "sweeps between residual checks", 1);
  set.add(prefix + "relaxation", &o.relaxation, "relaxation omega of every row update, in (0, 2)", 0, 2);
  set.add(prefix + "warm_start", &o.warm_start, "start from the previous step's lambda");
  set.add(prefix + "desaxce_frozen", &o.desaxce_frozen,
          "freeze the de Saxce shift per sweep (off: re-evaluate it before each contact update)");
}

}  // namespace contactlab
