// PadmmSolver (MATH.md C.2) on hand-built problems with known answers, the
// natural-map residual (E.1) computed here, both Delassus paths, warm start,
// statuses, options, and the CPU batch path against the solver.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "contact_models/desaxce.hpp"
#include "core/options.hpp"
#include "solvers/batch_padmm_cpu.hpp"
#include "solvers/padmm.hpp"
#include "solvers/padmm_kernels.hpp"
#include "support/problems.hpp"

using namespace contactlab;
using namespace contactlab::test_problems;

namespace {

// Known-answer tolerance: the solver stops when its primal, dual and
// complementarity residuals are <= 1e-6 (impulse and velocity units). On these
// problems D has eigenvalues in [1, 2.5] (unit particle / box of
// tests/support/problems.hpp), so the impulse and velocity errors are a small
// multiple of 1e-6: 1e-5 bounds them.
constexpr double kAnswerTol = 1e-5;

const FreshSolve<PadmmSolver> solve{};

}  // namespace

TEST_CASE("padmm: separating contact keeps lambda = 0, v+ = v_f") { check_separating(solve, kAnswerTol); }

TEST_CASE("padmm: sticking contact stops the particle") { check_sticking(solve, kAnswerTol); }

TEST_CASE("padmm: sliding contact, friction opposes the slip at mu lambda_n") {
  check_sliding(solve, kAnswerTol);
}

TEST_CASE("padmm: frictionless contact (mu = 0)") { check_frictionless(solve, kAnswerTol); }

TEST_CASE("padmm: dense and matrix-free Delassus paths agree") {
  PadmmOptions dense, mf;
  mf.delassus = PadmmOptions::kMatrixFree;
  const ConstraintProblem problems[] = {particle(Vec3(-1, 0.1, 0), 1.0), particle(Vec3(-1, 2, 0), 0.5),
                                        box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4),
                                        box(4, Vec3(0.05, 0, -1), Vec3(0, 0, 0.3), 0.8, 1, 1)};
  for (const ConstraintProblem& pr : problems) {
    const Result a = solve(pr, dense), b = solve(pr, mf);
    CHECK(a.stats.status == SolveStatus::Converged);
    CHECK(b.stats.status == SolveStatus::Converged);
    if (pr.num_contacts < 4) check_close(a.lambda, b.lambda, 1e-6);  // 4 corners: lambda not unique
    check_close(a.v, b.v, 1e-6);
  }
}

TEST_CASE("padmm: warm start from the solution converges in fewer iterations") {
  for (const ConstraintProblem& pr : {particle(Vec3(-1, 2, 0), 0.5), box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4)}) {
    check_warm_start<PadmmOptions>(pr, solve, [](const Result& cold, const Result& hot) {
      check_close(hot.lambda, cold.lambda, kAnswerTol);
    });
  }
}

TEST_CASE("padmm: rigid box on two and four corners satisfies the natural map") {
  struct Case {
    int corners;
    Vec3 v, w;
    double mu;
  };
  const Case cases[] = {{2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4},  // sliding and turning
                        {2, Vec3(0.01, 0, -1), Vec3(0, 0, 0), 1.0},           // sticking
                        {2, Vec3(0, 0, 0.5), Vec3(0.2, 0, 0), 0.5},           // lifting off
                        {4, Vec3(0.05, 0, -1), Vec3(0, 0, 0.3), 0.8},         // resting on four (D singular)
                        {4, Vec3(2, 1, -0.5), Vec3(0.3, -0.1, 1), 0.3}};
  for (const Case& c : cases) {
    CAPTURE(c.corners);
    CAPTURE(c.mu);
    const ConstraintProblem pr = box(c.corners, c.v, c.w, c.mu);
    // Default tolerances 1e-6 bound r_p, r_d, r_c; the natural map is checked at 1e-6 with
    // tolerances 1e-8 so the check does not sit on the stopping threshold.
    PadmmOptions opt;
    opt.tol_primal = opt.tol_dual = opt.tol_compl = 1e-8;
    opt.max_iterations = 2000;
    const Result r = solve(pr, opt);
    CHECK(r.stats.status == SolveStatus::Converged);
    const std::vector<Real> v = velocity(pr, r.lambda);
    check_close(r.v, v, 1e-10);  // returned v+ = D lambda + v_f
    CHECK(natural_map(pr, r.lambda, v) < 1e-6);
    // With the default tolerances the answer is already close.
    const Result d = solve(pr);
    CHECK(d.stats.status == SolveStatus::Converged);
    CHECK(natural_map(pr, d.lambda, velocity(pr, d.lambda)) < 1e-5);
  }
}

TEST_CASE("padmm: limit rows are complementary") { check_limit_rows(solve, kAnswerTol); }

TEST_CASE("padmm: bilateral rows reach v+ = 0, with and without compliance") {
  check_bilateral_rows(solve, kAnswerTol);
}

TEST_CASE("padmm: bilateral, limit and contact rows together") {
  const ConstraintProblem pr = box(2, Vec3(0.4, -0.3, -1), Vec3(0.2, 0.1, 0.5), 0.5, 1, 1);
  PadmmOptions opt;
  opt.tol_primal = opt.tol_dual = opt.tol_compl = 1e-8;
  opt.max_iterations = 2000;
  for (int path : {PadmmOptions::kDense, PadmmOptions::kMatrixFree}) {
    opt.delassus = path;
    const Result r = solve(pr, opt);
    CHECK(r.stats.status == SolveStatus::Converged);
    CHECK(natural_map(pr, r.lambda, velocity(pr, r.lambda)) < 1e-6);
  }
}

TEST_CASE("padmm: a soft law's contact compliance is added to D") {
  const double c = 0.5;
  const TestLaw law = soft_desaxce(c);
  const Result r =
      check_soft_sticking([&](const ConstraintProblem& pr) { return solve(pr, {}, {}, &law); }, c, kAnswerTol);
  PadmmOptions mf;
  mf.delassus = PadmmOptions::kMatrixFree;
  check_close(solve(particle(Vec3(-1, 0.1, 0), 1.0), mf, {}, &law).lambda, r.lambda, 1e-6);
}

TEST_CASE("padmm: statuses") {
  SUBCASE("one iteration cannot converge") {
    CHECK(check_one_iteration<PadmmOptions>(solve).stats.residual_history.size() == 1);
  }
  SUBCASE("history records max(r_p, r_d, r_c) per iteration") {
    const Result r = solve(particle(Vec3(-1, 2, 0), 0.5));
    REQUIRE(static_cast<int>(r.stats.residual_history.size()) == r.stats.iterations);
    CHECK(r.stats.residual_history.back() ==
          std::max({r.stats.r_primal, r.stats.r_dual, r.stats.r_compl}));
    CHECK(r.stats.r_primal <= 1e-6);
    CHECK(r.stats.r_dual <= 1e-6);
    CHECK(r.stats.r_compl <= 1e-6);
  }
  SUBCASE("NaN input is a numerical failure with zero output") {
    for (int path : {PadmmOptions::kDense, PadmmOptions::kMatrixFree}) {
      PadmmOptions opt;
      opt.delassus = path;
      check_numerical_failure(solve(particle(Vec3(-1, std::numeric_limits<double>::quiet_NaN(), 0), 0.5), opt));
    }
  }
  SUBCASE("empty problem") { check_empty_problem(solve); }
  CHECK(std::string(to_string(SolveStatus::MaxIterations)) == "max_iterations");
}

TEST_CASE("padmm: options without acceleration, preconditioning, or with a balanced penalty still converge") {
  const ConstraintProblem pr = box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4);
  // Reference: a fixed penalty (the default balances it), so that each switch
  // below is compared against the plain algorithm.
  PadmmOptions plain;
  plain.balanced_penalty = false;
  const Result ref = solve(pr, plain);
  PadmmOptions a = plain, b = plain, c = plain;
  a.acceleration = false;
  a.max_iterations = 2000;
  b.preconditioning = false;
  b.max_iterations = 2000;
  c.balanced_penalty = true;
  c.rho = 100;  // badly chosen on purpose
  c.max_iterations = 2000;
  for (const PadmmOptions& o : {a, b, c}) {
    const Result r = solve(pr, o);
    CHECK(r.stats.status == SolveStatus::Converged);
    check_close(r.lambda, ref.lambda, kAnswerTol);
  }
  // Guards that the switches reach the iteration: each changes the iteration count.
  PadmmOptions fixed = c;
  fixed.balanced_penalty = false;
  CHECK(solve(pr, c).stats.iterations != solve(pr, fixed).stats.iterations);
  CHECK(solve(pr, a).stats.iterations != ref.stats.iterations);
  CHECK(solve(pr, b).stats.iterations != ref.stats.iterations);
}

TEST_CASE("padmm: the workspace does not grow once it has seen the largest problem") {
  check_workspace_kept<PadmmWorkspace>(PadmmSolver(), DeSaxceModel(), [](const PadmmWorkspace& w) {
    return std::vector<const Real*>{w.factor.dense_factor_data(), w.factor.dense_matrix_data(), w.x.data()};
  });
}

TEST_CASE("padmm: option validation names the field") {
  const BadOption<PadmmOptions> bad[] = {
      {"max_iterations", [](PadmmOptions& o) { o.max_iterations = 0; }},
      {"tol_primal", [](PadmmOptions& o) { o.tol_primal = -1; }},
      {"tol_dual", [](PadmmOptions& o) { o.tol_dual = -1; }},
      {"tol_compl", [](PadmmOptions& o) { o.tol_compl = -1; }},
      {"eta", [](PadmmOptions& o) { o.eta = -1; }},
      {"rho", [](PadmmOptions& o) { o.rho = 0; }},
      {"restart_factor", [](PadmmOptions& o) { o.restart_factor = 1.5; }},
      {"warm_start_factor", [](PadmmOptions& o) { o.warm_start_factor = 2; }},
      {"delassus", [](PadmmOptions& o) { o.delassus = 7; }},
      {"cr_max_iterations", [](PadmmOptions& o) { o.cr_max_iterations = 0; }},
      {"cr_tolerance", [](PadmmOptions& o) { o.cr_tolerance = 0; }},
      {"penalty_interval", [](PadmmOptions& o) { o.penalty_interval = 0; }},
      {"penalty_ratio", [](PadmmOptions& o) { o.penalty_ratio = 0.5; }},
      {"penalty_factor", [](PadmmOptions& o) { o.penalty_factor = 1; }},
      {"rho_min", [](PadmmOptions& o) { o.rho_min = 0; }},
      {"rho_max", [](PadmmOptions& o) { o.rho_max = o.rho_min / 2; }}
  };
  check_validation_names_fields("PadmmOptions", bad);
  // solve() validates too.
  PadmmOptions o;
  o.rho = -1;
  CHECK_THROWS_AS(solve(particle(Vec3(-1, 0, 0), 0.5), o), std::invalid_argument);
}

TEST_CASE("padmm: every option is bound under the prefix") {
  PadmmSolver solver;
  OptionSet set;
  solver.bind_options(set, "padmm.");
  check_bound(set, "padmm.",
              {"max_iterations", "tol_primal", "tol_dual", "tol_compl", "eta", "rho", "restart_factor", "acceleration",
               "warm_start", "warm_start_factor", "preconditioning", "delassus", "cr_max_iterations", "cr_tolerance",
               "balanced_penalty", "penalty_interval", "penalty_ratio", "penalty_factor", "rho_min", "rho_max",
               "sparse_from_rows", "penalty_memory", "penalty_refactorise", "correction_max_iterations"});
  set.set("padmm.delassus", "matrix_free");
  set.set("padmm.rho", "2.5");
  set.set_assignment("padmm.acceleration=off");
  CHECK(solver.options.delassus == PadmmOptions::kMatrixFree);
  CHECK(solver.options.rho == 2.5);
  CHECK_FALSE(solver.options.acceleration);
  CHECK_THROWS_AS(set.set("padmm.max_iterations", "0"), std::invalid_argument);
  set.set("padmm.delassus", "sparse");
  CHECK(solver.options.delassus == PadmmOptions::kSparse);
  CHECK_THROWS_AS(set.set("padmm.delassus", "cholmod"), std::invalid_argument);
}

TEST_CASE("padmm: CPU batch iteration reproduces PadmmSolver's dense path") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> U(-1, 1), mu_dist(0, 1.5);
  std::vector<ConstraintProblem> problems;
  for (int i = 0; i < 12; ++i) {
    const double mu = i % 5 == 0 ? 0.0 : mu_dist(rng);
    if (i % 3 == 0) problems.push_back(particle(Vec3(U(rng), 2 * U(rng), 2 * U(rng)), mu));
    else problems.push_back(box(1 + i % 4, Vec3(U(rng), U(rng), U(rng) - 0.5), Vec3(U(rng), U(rng), U(rng)), mu,
                                i % 4 == 1 ? 1 : 0, i % 4 == 2 ? 1 : 0));
  }
  problems.push_back(particle(Vec3(-1, 2, 0), 0.5));
  int max_rows = 0, max_contacts = 0;
  for (const auto& pr : problems) {
    max_rows = std::max(max_rows, pr.num_rows());
    max_contacts = std::max(max_contacts, pr.num_contacts);
  }
  PadmmOptions opt;
  opt.balanced_penalty = false;  // the batch path runs a fixed penalty
  BatchPadmmState state;
  state.resize(static_cast<int>(problems.size()), max_rows, max_contacts);
  for (size_t w = 0; w < problems.size(); ++w) REQUIRE(batch_padmm_load(state, static_cast<int>(w), problems[w], opt));
  for (int it = 0; it < opt.max_iterations && !batch_padmm_done(state); it += 7) cpu_padmm_iterate(state, 7);
  for (size_t w = 0; w < problems.size(); ++w) {
    CAPTURE(w);
    const Result ref = solve(problems[w], opt);
    std::vector<Real> lambda, v;
    batch_padmm_solution(state, static_cast<int>(w), lambda, v);
    CHECK(state.iteration[w] == ref.stats.iterations);
    CHECK(state.flag[w] == (ref.stats.status == SolveStatus::Converged ? padmm::kConverged : padmm::kRunning));
    CHECK(std::abs(state.r_primal[w] - ref.stats.r_primal) <= 1e-12);
    for (size_t i = 0; i < lambda.size(); ++i) CHECK(std::abs(lambda[i] - ref.lambda[i]) <= 1e-12 * (1 + std::abs(ref.lambda[i])));
    // v = z/P - Gamma(z/P) agrees with the solver's D lambda + v_f to the tolerance.
    if (ref.stats.status == SolveStatus::Converged) check_close(v, ref.v, kAnswerTol);
  }
  // A converged world is skipped: more iterations change nothing.
  const std::vector<double> y = state.y;
  const std::vector<int> iters = state.iteration;
  cpu_padmm_iterate(state, 3);
  for (size_t w = 0; w < problems.size(); ++w)
    if (state.flag[w] != padmm::kRunning) CHECK(state.iteration[w] == iters[w]);
  CHECK(state.y == y);
}
