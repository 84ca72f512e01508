// PgsSolver (projected Gauss-Seidel, solvers/pgs.hpp) on hand-built problems
// with known answers (the same as tests/solvers/test_padmm.cpp), against PadmmSolver
// on random multi-contact rigid-body problems, warm start, statuses, options,
// and workspace reuse. The natural-map residual (MATH.md E.1) is computed in
// tests/support/problems.hpp, independently of the solver.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "contact_models/desaxce.hpp"
#include "core/options.hpp"
#include "solvers/padmm.hpp"
#include "solvers/pgs.hpp"
#include "support/problems.hpp"

using namespace contactlab;
using namespace contactlab::test_problems;

namespace {

// Known-answer tolerance: PGS stops at a natural-map residual <= 1e-6; on
// these problems D has eigenvalues in [1, 2.5] (unit particle / box of
// tests/support/problems.hpp), so the impulse and velocity errors are a small
// multiple of 1e-6.
constexpr double kAnswerTol = 1e-5;

const FreshSolve<PgsSolver> solve{};
const FreshSolve<PadmmSolver> solve_padmm{false};

// Total wrench J^T lambda on the bodies (6 per body).
std::vector<Real> wrench(const ConstraintProblem& pr, const std::vector<Real>& lambda) {
  std::vector<Real> y(6 * pr.num_bodies);
  pr.apply_JT(lambda.data(), y.data());
  return y;
}

// Tight settings for comparisons: residual 1e-9 so a 1e-6 check does not sit
// on the stopping threshold.
PgsOptions tight_pgs() {
  PgsOptions o;
  o.tolerance = 1e-9;
  o.max_iterations = 100000;
  return o;
}

PadmmOptions tight_padmm() {
  PadmmOptions o;
  o.tol_primal = o.tol_dual = o.tol_compl = 1e-10;
  o.max_iterations = 5000;
  return o;
}

}  // namespace

TEST_CASE("pgs: separating contact keeps lambda = 0, v+ = v_f") {
  const Result r = check_separating(solve, kAnswerTol);
  CHECK(r.stats.iterations == 1);  // -(v + Gamma(v)) lies in the polar cone: one sweep, nothing moves
}

TEST_CASE("pgs: sticking contact stops the particle") { check_sticking(solve, kAnswerTol); }

TEST_CASE("pgs: sliding contact, friction opposes the slip at mu lambda_n") {
  for (bool frozen : {true, false}) {
    CAPTURE(frozen);
    PgsOptions opt;
    opt.desaxce_frozen = frozen;
    const Result d = check_sliding([&](const ConstraintProblem& pr) { return solve(pr, opt); }, kAnswerTol);
    CHECK(d.stats.status == SolveStatus::Converged);
  }
}

TEST_CASE("pgs: frictionless contact (mu = 0)") { check_frictionless(solve, kAnswerTol); }

TEST_CASE("pgs: limit rows are complementary") { check_limit_rows(solve, kAnswerTol); }

TEST_CASE("pgs: bilateral rows reach v+ = 0, with and without compliance") {
  // lambda = -v_f / D with D = 1 + R: one exact scalar update.
  const auto one_sweep = [](const ConstraintProblem& pr) {
    const Result r = solve(pr);
    CHECK(r.stats.iterations == 1);
    return r;
  };
  check_bilateral_rows(one_sweep, 1e-12);
}

TEST_CASE("pgs: bilateral, limit and contact rows together satisfy the natural map") {
  const ConstraintProblem pr = box(2, Vec3(0.4, -0.3, -1), Vec3(0.2, 0.1, 0.5), 0.5, 1, 1);
  for (bool frozen : {true, false}) {
    CAPTURE(frozen);
    PgsOptions opt = tight_pgs();
    opt.desaxce_frozen = frozen;
    const Result r = solve(pr, opt);
    CHECK(r.stats.status == SolveStatus::Converged);
    check_close(r.v, velocity(pr, r.lambda), 1e-10);  // returned v+ = D lambda + v_f
    CHECK(natural_map(pr, r.lambda, velocity(pr, r.lambda)) < 1e-6);
  }
}

TEST_CASE("pgs: a soft law's contact compliance is added to D") {
  const double c = 0.5;
  const TestLaw law = soft_desaxce(c);
  check_soft_sticking([&](const ConstraintProblem& pr) { return solve(pr, {}, {}, &law); }, c, kAnswerTol);
}

TEST_CASE("pgs: agrees with PADMM on random multi-contact rigid-body problems") {
  // Both solvers are driven to tight tolerances and must satisfy the natural
  // map (computed here) to 1e-6 on every problem. Beyond that, only what is
  // unique is compared:
  // - lambda where D is nonsingular. With two or more corners of a rigid box
  //   the contact rows are redundant (3 nc rows against 6 dof per body, or a
  //   rotation about the line through two corners), so internal impulses in
  //   the null space of J^T are free and each solver may return another lambda.
  // - v+ and the total wrench J^T lambda = M (u+ - u_free) where the normal
  //   rows are independent (at most three non-collinear corners per body): the
  //   free internal impulses then have no wrench.
  // - neither with four coplanar corners on one body: the split of the normal
  //   impulse among the corners is indeterminate, and with the box turning
  //   while it slides each corner's friction points another way, so the
  //   friction wrench mu sum_k lambda_n,k d_k (and v+) depends on that split:
  //   the de Saxce problem has a continuum of solutions there.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(-1, 1), mu_dist(0.1, 1.2);
  int compared_lambda = 0, compared_wrench = 0;
  for (int i = 0; i < 24; ++i) {
    CAPTURE(i);
    const double mu = i % 7 == 0 ? 0.0 : mu_dist(rng);
    ConstraintProblem pr;
    if (i % 4 == 3) {
      const Vec3 v[2] = {Vec3(U(rng), U(rng), U(rng) - 0.5), Vec3(U(rng), U(rng), U(rng) - 0.5)};
      const Vec3 w[2] = {Vec3(U(rng), U(rng), U(rng)), Vec3(U(rng), U(rng), U(rng))};
      pr = stack(2 + i % 3, 2 + (i / 4) % 3, v, w, mu);
    } else {
      pr = box(2 + i % 3, Vec3(U(rng), U(rng), U(rng) - 0.5), Vec3(U(rng), U(rng), U(rng)), mu);
    }
    const Result a = solve(pr, tight_pgs());
    const Result b = solve_padmm(pr, tight_padmm());
    REQUIRE(a.stats.status == SolveStatus::Converged);
    REQUIRE(b.stats.status == SolveStatus::Converged);
    CHECK(natural_map(pr, a.lambda, velocity(pr, a.lambda)) < 1e-6);
    CHECK(natural_map(pr, b.lambda, velocity(pr, b.lambda)) < 1e-6);

    const int nc = pr.num_contacts, nbody = pr.num_bodies;
    MatX JN = MatX::Zero(nc, 6 * nbody);  // normal rows of J
    for (int k = 0; k < nc; ++k) {
      const ConstraintRow& row = pr.rows[pr.contact_offset() + 3 * k];
      if (row.body_a >= 0) JN.block<1, 6>(k, 6 * row.body_a) += row.J_a.transpose();
      if (row.body_b >= 0) JN.block<1, 6>(k, 6 * row.body_b) += row.J_b.transpose();
    }
    if (Eigen::FullPivLU<MatX>(JN).rank() == nc) {
      check_close(a.v, b.v, 1e-5);
      check_close(wrench(pr, a.lambda), wrench(pr, b.lambda), 1e-5);
      ++compared_wrench;
    }
    MatX D;
    pr.dense_delassus(D);
    Eigen::SelfAdjointEigenSolver<MatX> eig(D, Eigen::EigenvaluesOnly);
    if (eig.eigenvalues()(0) > 1e-6) {
      check_close(a.lambda, b.lambda, 1e-5);
      ++compared_lambda;
    }
  }
  CHECK(compared_wrench >= 12);
  // Single contacts have a nonsingular D: lambda is compared there.
  for (int i = 0; i < 8; ++i) {
    CAPTURE(i);
    const ConstraintProblem pr =
        i % 2 ? particle(Vec3(U(rng), 2 * U(rng), 2 * U(rng)), mu_dist(rng))
              : box(1, Vec3(U(rng), U(rng), U(rng) - 0.5), Vec3(U(rng), U(rng), U(rng)), mu_dist(rng));
    const Result a = solve(pr, tight_pgs());
    const Result b = solve_padmm(pr, tight_padmm());
    REQUIRE(a.stats.status == SolveStatus::Converged);
    REQUIRE(b.stats.status == SolveStatus::Converged);
    check_close(a.lambda, b.lambda, 1e-6);
    check_close(a.v, b.v, 1e-6);
    ++compared_lambda;
  }
  CHECK(compared_lambda >= 8);
  MESSAGE("compared lambda on " << compared_lambda << ", v+ and wrench on " << compared_wrench);
}

TEST_CASE("pgs: relaxation and the per-block de Saxce shift reach the same answer") {
  const ConstraintProblem pr = box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4);
  const Result ref = solve(pr, tight_pgs());
  REQUIRE(ref.stats.status == SolveStatus::Converged);
  PgsOptions under = tight_pgs(), over = tight_pgs(), live = tight_pgs();
  under.relaxation = 0.7;
  over.relaxation = 1.3;
  live.desaxce_frozen = false;
  for (const PgsOptions& o : {under, over, live}) {
    const Result r = solve(pr, o);
    CHECK(r.stats.status == SolveStatus::Converged);
    CHECK(natural_map(pr, r.lambda, velocity(pr, r.lambda)) < 1e-6);
    check_close(r.v, ref.v, 1e-6);
    // Guard that the option reaches the iteration.
    CHECK(r.stats.iterations != ref.stats.iterations);
  }
}

TEST_CASE("pgs: warm start from the solution converges in fewer sweeps") {
  for (const ConstraintProblem& pr :
       {particle(Vec3(-1, 2, 0), 0.5), box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4),
        box(4, Vec3(0.05, 0, -1), Vec3(0, 0, 0.3), 0.8, 1, 1)}) {
    check_warm_start<PgsOptions>(pr, solve, [](const Result& cold, const Result& hot) {
      REQUIRE(cold.stats.iterations > 1);
      check_close(hot.v, cold.v, kAnswerTol);
    });
  }
}

TEST_CASE("pgs: statuses and history") {
  SUBCASE("one sweep cannot converge on a sliding contact") {
    const Result r = check_one_iteration<PgsOptions>(solve);
    REQUIRE(r.stats.residual_history.size() == 1);
    CHECK(r.stats.residual_history[0] > 1e-3);
  }
  SUBCASE("history records the natural map of each check; r_* are E.1 at exit") {
    const ConstraintProblem pr = box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4);
    const Result r = solve(pr);
    REQUIRE(r.stats.status == SolveStatus::Converged);
    REQUIRE(static_cast<int>(r.stats.residual_history.size()) == r.stats.iterations);
    CHECK(r.stats.residual_history.back() <= 1e-6);
    CHECK(r.stats.residual_history.front() > r.stats.residual_history.back());
    CHECK(std::abs(r.stats.residual_history.back() - natural_map(pr, r.lambda, r.v)) < 1e-12);
    CHECK(r.stats.r_primal <= 1e-12);  // every iterate lies in K
    CHECK(r.stats.r_dual <= 1e-5);
    CHECK(r.stats.r_compl <= 1e-5);
  }
  SUBCASE("check_interval: residuals every k sweeps and after the last") {
    const ConstraintProblem pr = box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4);
    const Result every = solve(pr);
    PgsOptions opt;
    opt.check_interval = 4;
    const Result r = solve(pr, opt);
    CHECK(r.stats.status == SolveStatus::Converged);
    CHECK(r.stats.iterations % 4 == 0);
    CHECK(r.stats.iterations >= every.stats.iterations);
    CHECK(r.stats.iterations < every.stats.iterations + 4);
    CHECK(static_cast<int>(r.stats.residual_history.size()) == r.stats.iterations / 4);
    opt.max_iterations = 6;
    const Result capped = solve(pr, opt);
    CHECK(capped.stats.status == SolveStatus::MaxIterations);
    CHECK(capped.stats.residual_history.size() == 2);  // after sweeps 4 and 6
  }
  SUBCASE("NaN input is a numerical failure with zero output") {
    for (int interval : {1, 3}) {
      PgsOptions opt;
      opt.check_interval = interval;
      check_numerical_failure(solve(particle(Vec3(-1, std::numeric_limits<double>::quiet_NaN(), 0), 0.5), opt));
    }
    ConstraintProblem pr = box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4);
    pr.inv_mass[0] = std::numeric_limits<double>::quiet_NaN();
    CHECK(solve(pr).stats.status == SolveStatus::NumericalFailure);
  }
  SUBCASE("empty problem") { check_empty_problem(solve); }
  SUBCASE("a workspace of another solver is misuse") {
    PgsSolver pgs;
    PadmmSolver padmm;
    auto ws = padmm.make_workspace();
    std::vector<Real> lambda, v;
    SolveStats stats;
    CHECK_THROWS_AS(pgs.solve(particle(Vec3(-1, 0, 0), 0.5), desaxce(), {}, *ws, lambda, v, stats),
                    std::invalid_argument);
  }
}

TEST_CASE("pgs: a reused workspace keeps its buffers (no allocation once sized)") {
  // tests/sim/test_batch.cpp owns the global operator new replacement of the test
  // binary, so allocation is checked here through the buffers themselves:
  // same data pointers and capacities after solves of the same and smaller size.
  PgsSolver solver;
  const DeSaxceModel law;
  auto ws = solver.make_workspace();
  std::vector<Real> lambda, v;
  SolveStats stats;
  stats.record_history = true;
  const ConstraintProblem big = box(4, Vec3(0.1, 0, -1), Vec3::Zero(), 0.5, 1, 1);
  const ConstraintProblem small = particle(Vec3(-1, 2, 0), 0.5);
  solver.solve(big, law, {}, *ws, lambda, v, stats);
  auto& w = dynamic_cast<PgsWorkspace&>(*ws);
  auto snapshot = [&]() {
    return std::vector<const void*>{w.minv_jt_a.data(), w.minv_jt_b.data(), w.u.data(),     w.R.data(),
                                    w.step.data(),      w.v.data(),         w.contact_R.data(), w.shift.data(),
                                    w.proj.data(),      w.scratch6.data(),  lambda.data(),  v.data(),
                                    stats.residual_history.data()};
  };
  auto capacities = [&]() {
    return std::vector<size_t>{w.minv_jt_a.capacity(), w.u.capacity(), w.R.capacity(), w.step.capacity(),
                               w.v.capacity(), w.shift.capacity(), w.proj.capacity()};
  };
  const auto before = snapshot();
  const auto cap = capacities();
  solver.solve(big, law, {}, *ws, lambda, v, stats);
  CHECK(snapshot() == before);
  solver.solve(small, law, {}, *ws, lambda, v, stats);
  solver.solve(big, law, {}, *ws, lambda, v, stats);
  CHECK(snapshot() == before);
  CHECK(capacities() == cap);
  CHECK(stats.status == SolveStatus::Converged);
}

TEST_CASE("pgs: option validation names the field") {
  const BadOption<PgsOptions> bad[] = {
      {"max_iterations", [](PgsOptions& o) { o.max_iterations = 0; }},
      {"tolerance", [](PgsOptions& o) { o.tolerance = -1; }},
      {"tolerance", [](PgsOptions& o) { o.tolerance = std::numeric_limits<double>::quiet_NaN(); }},
      {"check_interval", [](PgsOptions& o) { o.check_interval = 0; }},
      {"relaxation", [](PgsOptions& o) { o.relaxation = 0; }},
      {"relaxation", [](PgsOptions& o) { o.relaxation = 2; }},
      {"relaxation", [](PgsOptions& o) { o.relaxation = std::numeric_limits<double>::quiet_NaN(); }}
  };
  check_validation_names_fields("PgsOptions", bad);
  // solve() validates too.
  PgsOptions o;
  o.relaxation = 2.5;
  CHECK_THROWS_AS(solve(particle(Vec3(-1, 0, 0), 0.5), o), std::invalid_argument);
}

TEST_CASE("pgs: every option is bound under the prefix") {
  PgsSolver solver;
  CHECK(solver.name() == "pgs");
  std::string why;
  CHECK(solver.accepts(desaxce(), &why));
  OptionSet set;
  solver.bind_options(set, "pgs.");
  check_bound(set, "pgs.",
              {"max_iterations", "tolerance", "check_interval", "relaxation", "warm_start", "desaxce_frozen"});
  set.set("pgs.relaxation", "1.4");
  set.set("pgs.check_interval", "5");
  set.set_assignment("pgs.desaxce_frozen=off");
  CHECK(solver.options.relaxation == 1.4);
  CHECK(solver.options.check_interval == 5);
  CHECK_FALSE(solver.options.desaxce_frozen);
  CHECK_THROWS_AS(set.set("pgs.max_iterations", "0"), std::invalid_argument);
  CHECK_THROWS_AS(set.set("pgs.relaxation", "3"), std::invalid_argument);
}
