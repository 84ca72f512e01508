#include "studies/fc3d_solve.hpp"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "contact_models/cone.hpp"
#include "contact_models/desaxce.hpp"
#include "core/metrics.hpp"
#include "core/options.hpp"
#include "sim/registry.hpp"

namespace contactlab {
namespace {

// The solver option keys --tol drives, and the standalone budget: a
// simulation step stops early and warm-starts, a benchmark problem is solved
// from zero to the requested accuracy (docs/benchmarks.md).
struct SolverKnobs {
  std::vector<std::string> tolerances;
  std::string budget_key;
  int budget = 0;
};

SolverKnobs knobs_for(const std::string& solver) {
  if (solver == "padmm") return {{"tol_primal", "tol_dual", "tol_compl"}, "max_iterations", 5000};
  if (solver == "pgs") return {{"tolerance"}, "max_iterations", 5000};
  if (solver == "newton") return {{"tolerance"}, "newton_iterations", 100};
  return {};
}

constexpr int kTighteningRounds = 4;

std::string exact(Real x) {  // std::to_string would print 1e-7 as 0.000000
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

}  // namespace

Fc3dErrors fc3d_errors(const FrictionContactProblem& p, const VecX& r, VecX& u) {
  const int nc = p.num_contacts;
  u = p.W * r + p.q;
  Fc3dErrors e;
  Real sum = 0;
  for (int k = 0; k < nc; ++k) {
    const Real* rk = r.data() + 3 * k;
    const Real* uk = u.data() + 3 * k;
    const Real mu = p.mu[k];
    Real x[3] = {rk[0] - (uk[0] + mu * std::hypot(uk[1], uk[2])), rk[1] - uk[1], rk[2] - uk[2]};
    cone::project_primal(mu, x);
    for (int i = 0; i < 3; ++i) sum += (rk[i] - x[i]) * (rk[i] - x[i]);
  }
  e.natural_map = std::sqrt(sum);
  const Real norm_q = p.q.norm();
  e.relative = norm_q > DBL_EPSILON ? e.natural_map / norm_q : e.natural_map;
  const Real norm_max = std::max({norm_q, r.norm(), u.norm()});
  e.siconos = norm_max > DBL_EPSILON ? e.natural_map / norm_max : e.natural_map;
  const Real round_off = DBL_EPSILON * (r.norm() + u.norm());
  e.rounding = norm_q > DBL_EPSILON ? round_off / norm_q : round_off;

  // constraint_residuals reads only the row layout and mu: no copy of W.
  ConstraintProblem cp;
  cp.num_contacts = nc;
  cp.mu.assign(p.mu.data(), p.mu.data() + nc);
  const std::vector<Real> lambda(r.data(), r.data() + r.size()), v(u.data(), u.data() + u.size());
  ResidualScratch scratch;
  const ConstraintResiduals m = constraint_residuals(cp, DeSaxceModel(), lambda, v, scratch);
  e.r_primal = m.r_primal;
  e.r_dual = m.r_dual;
  e.r_compl = m.r_compl;
  if (!r.allFinite())
    e.natural_map = e.relative = e.siconos = e.r_primal = e.r_dual = e.r_compl = e.rounding = std::nan("");
  return e;
}

bool fc3d_success(const Fc3dErrors& e, Real tol) {
  return std::isfinite(e.relative) && e.relative <= tol && std::isfinite(e.rounding) && e.rounding <= tol;
}

std::string default_contact_for(const std::string& solver_name) {
  // The first registered law the solver accepts (desaxce for padmm and pgs,
  // fischer_burmeister for newton, ccp for convex_newton).
  const std::unique_ptr<Solver> solver = make_solver(solver_name);
  for (const PartInfo& law : contact_model_names())
    if (solver->accepts(*make_contact_model(law.name), nullptr)) return law.name;
  throw std::invalid_argument("solver '" + solver_name + "' accepts none of the registered contact laws");
}

Fc3dSolveResult solve_fc3d(const FrictionContactProblem& problem, const Fc3dSolveOptions& options) {
  if (!(options.tol > 0)) throw std::invalid_argument("--tol must be positive");
  check_fc3d_problem(problem);  // the library path gets the reader's checks too
  Fc3dSolveResult res;
  res.solver = options.solver;
  res.contact = options.contact.empty() ? default_contact_for(options.solver) : options.contact;
  std::unique_ptr<Solver> solver = make_solver(res.solver);
  std::unique_ptr<ContactModel> law = make_contact_model(res.contact);
  std::string why;
  if (!solver->accepts(*law, &why)) throw std::invalid_argument(why);

  OptionSet set;
  law->bind_options(set, "contact.");
  solver->bind_options(set, "solver.");
  const ConstraintProblem cp = problem.to_constraint_problem(options.storage);
  const int m = cp.num_rows();
  res.sparse_W = cp.explicit_W->sparse();

  // Solver tolerances start at the scale where a residual of that size in
  // every row gives a relative error of about tol; the user's --set wins.
  const SolverKnobs knobs = knobs_for(res.solver);
  const Real start_tol = options.tol * std::max(problem.q.norm(), Real(DBL_EPSILON)) / std::sqrt(Real(m));
  std::vector<std::string> user_keys;
  for (const std::string& a : options.sets) user_keys.push_back(a.substr(0, a.find('=')));
  auto user_set = [&](const std::string& key) {
    return std::find(user_keys.begin(), user_keys.end(), key) != user_keys.end();
  };
  if (!knobs.budget_key.empty()) set.set("solver." + knobs.budget_key, std::to_string(knobs.budget));
  // The friction weight clamp of fischer_burmeister bounds how small a sticking
  // |u_t| it reaches (error floor ~ 1/max_weight; NESpheres_10_1 stalls at a
  // relative 3.7e-6 with the simulation default 1e5, docs/benchmarks.md).
  if (set.has("contact.max_weight")) set.set("contact.max_weight", "1e8");
  for (const std::string& a : options.sets) {
    if (a.find('=') == std::string::npos) throw std::invalid_argument("--set '" + a + "': expected KEY=VALUE");
    set.set_assignment(a);
  }
  std::vector<std::string> tightened;
  for (const std::string& key : knobs.tolerances)
    if (!user_set("solver." + key)) tightened.push_back("solver." + key);

  // Refuses a problem without bodies with the solver's own message.
  std::unique_ptr<SolverWorkspace> ws = solver->make_workspace();
  WarmStart warm;
  std::vector<Real> lambda, v;
  Real tol = start_tol;
  const auto t0 = std::chrono::steady_clock::now();
  for (int round = 0; round < kTighteningRounds; ++round) {
    for (const std::string& key : tightened) set.set(key, exact(tol));
    SolveStats stats;
    solver->solve(cp, *law, warm, *ws, lambda, v, stats);
    ++res.rounds;
    res.stats.iterations += stats.iterations;
    res.stats.status = stats.status;
    res.stats.r_primal = stats.r_primal;
    res.stats.r_dual = stats.r_dual;
    res.stats.r_compl = stats.r_compl;
    res.r = Eigen::Map<const VecX>(lambda.data(), m);
    res.errors = fc3d_errors(problem, res.r, res.u);
    res.success = fc3d_success(res.errors, options.tol);
    // Another round only helps a solver that stopped on its own tolerance.
    if (res.success || stats.status != SolveStatus::Converged || tightened.empty()) break;
    warm.valid = true;
    warm.lambda = lambda;
    warm.v = v;
    tol *= 0.01;
  }
  res.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace contactlab
