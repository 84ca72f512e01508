// ConvexNewtonSolver (MATH.md C.3) against PadmmSolver on the same compliant
// CCP (both then solve min_{lambda in K} 1/2 lambda^T (D + rho I) lambda +
// lambda^T v_f, strictly convex): particle regimes, a box on four corners,
// bilateral and limit rows, fixed bodies; the identity v+ = D lambda + v_f;
// monotone cost and quadratic convergence; both linear solvers and both line
// searches; warm start; refusal of hard laws; statuses and options.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "contact_models/ccp.hpp"
#include "contact_models/desaxce.hpp"
#include "core/options.hpp"
#include "solvers/convex_newton.hpp"
#include "solvers/padmm.hpp"
#include "support/problems.hpp"

using namespace contactlab;
using namespace contactlab::test_problems;

namespace {

struct NewtonResult : Result {
  std::vector<Real> cost;  // convex_newton's cost history
  std::vector<int> stage;  // its continuation stage per entry
};

NewtonResult newton(const ConstraintProblem& pr, const ContactModel& law, const ConvexNewtonOptions& opt = {},
                    const WarmStart& warm = {}) {
  const ConvexNewtonSolver solver(opt);
  auto ws = solver.make_workspace();
  NewtonResult r;
  static_cast<Result&>(r) = solve_in(solver, *ws, pr, law, warm);
  r.cost = dynamic_cast<ConvexNewtonWorkspace&>(*ws).cost_history;
  r.stage = dynamic_cast<ConvexNewtonWorkspace&>(*ws).cost_stage;
  return r;
}

// PADMM run to tight tolerances: the reference for the same law.
Result padmm(const ConstraintProblem& pr, const ContactModel& law) {
  PadmmOptions opt;
  opt.tol_primal = opt.tol_dual = opt.tol_compl = 1e-11;
  opt.max_iterations = 100000;
  return FreshSolve<PadmmSolver>{false}(pr, opt, {}, &law);
}

CcpModel ccp(double rho) {
  CcpOptions o;
  o.compliance = rho;
  return CcpModel(o);
}

// D lambda + v_f with D = J M^-1 J^T + diag(problem compliance + the law's on
// contact rows), from Eigen's dense Delassus (independent of the solver).
std::vector<Real> dual_velocity(const ConstraintProblem& pr, const ContactModel& law, const std::vector<Real>& lambda) {
  return velocity(pr, lambda, &law);
}

// Optimality certificate of the compliant CCP in the dual variables, with v
// = D lambda + v_f recomputed independently: bilateral v = 0; limits 0 <=
// lambda _|_ v >= 0; contacts K_mu ∋ lambda _|_ v ∈ K_mu*.
void check_certificate(const ConstraintProblem& pr, const ContactModel& law, const std::vector<Real>& lambda,
                       double tol) {
  const std::vector<Real> v = dual_velocity(pr, law, lambda);
  for (int i = 0; i < pr.num_bilateral; ++i) CHECK(std::abs(v[i]) <= tol);
  for (int i = pr.num_bilateral; i < pr.contact_offset(); ++i) {
    CHECK(lambda[i] >= 0);
    CHECK(v[i] >= -tol);
    CHECK(std::abs(lambda[i] * v[i]) <= tol);
  }
  for (int k = 0; k < pr.num_contacts; ++k) {
    CAPTURE(k);
    const int o = pr.contact_offset() + 3 * k;
    const double mu = pr.mu[k];
    CHECK(std::hypot(lambda[o + 1], lambda[o + 2]) <= mu * lambda[o] + 1e-12);
    CHECK(mu * std::hypot(v[o + 1], v[o + 2]) <= v[o] + tol);
    CHECK(std::abs(lambda[o] * v[o] + lambda[o + 1] * v[o + 1] + lambda[o + 2] * v[o + 2]) <= tol);
  }
}

// Newton and padmm on the same law: v+ agree (and lambda to lambda_tol: with a
// small rho, padmm's residual tolerance bounds its lambda only to ~tol/rho
// where D is singular, e.g. four corners), Newton's v+ = D lambda + v_f, and
// Newton's answer passes the optimality certificate.
void check_against_padmm(const ConstraintProblem& pr, const ContactModel& law, double lambda_tol = 1e-6,
                         const ConvexNewtonOptions& opt = {}) {
  const Result a = newton(pr, law, opt), b = padmm(pr, law);
  CHECK(a.stats.status == SolveStatus::Converged);
  REQUIRE(b.stats.status == SolveStatus::Converged);
  check_close(a.lambda, b.lambda, lambda_tol);
  check_close(a.v, b.v, 1e-6);
  check_close(a.v, dual_velocity(pr, law, a.lambda), 1e-9);
  check_certificate(pr, law, a.lambda, 1e-9);
}

std::vector<ConstraintProblem> random_boxes(int n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1), mu_dist(0, 1.2);
  std::vector<ConstraintProblem> out;
  for (int i = 0; i < n; ++i)
    out.push_back(box(1 + i % 4, Vec3(2 * U(rng), 2 * U(rng), U(rng) - 0.5), Vec3(U(rng), U(rng), U(rng)),
                      i % 9 == 0 ? 0.0 : mu_dist(rng)));
  return out;
}

// A convex law that claims to be hard: refused.
TestLaw hard_convex_law() { return TestLaw("hard_ccp", true, true, 0, 0); }

// Convex, soft, but anisotropic compliance: the zone formulas need R = rho I.
TestLaw anisotropic_law() { return TestLaw("anisotropic", true, false, 1e-3, 2e-3); }

}  // namespace

TEST_CASE("convex_newton: agrees with padmm on a particle in every regime") {
  struct Case {
    Vec3 vf;
    double mu;
  };
  const Case cases[] = {{Vec3(0.5, 0.3, -0.2), 0.7},   // separating
                        {Vec3(-1, 0.1, 0), 1.0},       // sticking
                        {Vec3(-1, 2, 0), 0.5},         // sliding
                        {Vec3(-2, 3, 4), 0.2},         // sliding along a diagonal
                        {Vec3(-1, 2, 0.5), 0.0},       // frictionless
                        {Vec3(-0.1, 2, 0), 0.5}};      // sliding with lift-off (gliding)
  for (double rho : {1e-6, 1e-3, 0.1}) {
    const CcpModel law = ccp(rho);
    for (const Case& c : cases) {
      CAPTURE(rho);
      CAPTURE(c.vf.transpose());
      check_against_padmm(particle(c.vf, c.mu), law);
    }
  }
  // Closed forms: separating lambda = 0; sticking (1 + rho) lambda = -v_f.
  const double rho = 0.1;
  const Result sep = newton(particle(Vec3(0.5, 0.3, -0.2), 0.7), ccp(rho));
  for (double l : sep.lambda) CHECK(l == 0);
  const Result stick = newton(particle(Vec3(-1, 0.1, 0), 1.0), ccp(rho));
  CHECK(std::abs(stick.lambda[0] - 1 / (1 + rho)) < 1e-12);
  CHECK(std::abs(stick.lambda[1] + 0.1 / (1 + rho)) < 1e-12);
  for (double v : stick.v) CHECK(std::abs(v) < 1e-12);
}

TEST_CASE("convex_newton: agrees with padmm on a box on four corners") {
  // With rho > 0, D + rho I is positive definite: lambda is unique even on
  // four corners, but its split among the corners is only determined to
  // (padmm's residual 1e-11)/rho: lambda is compared where that is < 1e-6.
  for (double rho : {1e-6, 1e-4}) {
    CAPTURE(rho);
    const CcpModel law = ccp(rho);
    const double lambda_tol = rho < 1e-5 ? 1e-4 : 1e-6;
    check_against_padmm(box(4, Vec3(0.05, 0, -1), Vec3(0, 0, 0.3), 0.8), law, lambda_tol);  // resting, sticking
    check_against_padmm(box(4, Vec3(2, 1, -0.5), Vec3(0.3, -0.1, 1), 0.3), law, lambda_tol);  // sliding, turning
    check_against_padmm(box(2, Vec3(0, 0, 0.5), Vec3(0.2, 0, 0), 0.5), law);                  // lifting off
    check_against_padmm(box(3, Vec3(-1, 0.5, -1), Vec3(0.5, 0.2, -0.4), 0.9), law, lambda_tol);
  }
}

TEST_CASE("convex_newton: bilateral and limit rows with compliance agree with padmm") {
  // Both solve the same strictly convex problem when every row has R > 0.
  for (double vz : {-1.0, 0.3}) {
    ConstraintProblem pr = box(2, Vec3(0.4, -0.3, vz), Vec3(0.2, 0.1, 0.5), 0.5, 2, 2);
    pr.compliance[0] = 1e-4;
    pr.compliance[1] = 1e-2;
    pr.compliance[2] = 1e-3;
    pr.compliance[3] = 1e-5;
    pr.v_free[2] = -0.7;  // limit rows: one pushed into its stop, one pulled away
    pr.v_free[3] = 0.4;
    check_against_padmm(pr, ccp(1e-6));
  }
  // A limit row alone: lambda = max(0, -v_f)/(1 + R).
  for (double vf : {-2.0, 1.0}) {
    ConstraintProblem pr = particle_rows(0, 1, {vf});
    pr.compliance[0] = 0.25;
    const Result r = newton(pr, ccp(1e-6));
    CHECK(std::abs(r.lambda[0] - std::max(0.0, -vf) / 1.25) < 1e-12);
    CHECK(std::abs(r.v[0] - std::max(0.0, vf)) < 1e-12);
  }
}

TEST_CASE("convex_newton: rows without compliance are softened by bilateral_compliance") {
  // Hard bilateral row (problem compliance 0): lambda = -v_f/(1 + R_b) and the
  // row is violated by |v+| = R_b |lambda| (the documented soft-equality error).
  ConvexNewtonOptions opt;
  for (double Rb : {1e-8, 1e-4}) {
    opt.bilateral_compliance = Rb;
    const ConstraintProblem pr = particle_rows(1, 1, {-0.5, -2});
    const Result r = newton(pr, ccp(1e-6), opt);
    CHECK(r.stats.status == SolveStatus::Converged);
    // lambda = -r/R_b is known to ~eps |v_f|/R_b (the rounding floor of r).
    const double floor = 16 * 2.2e-16 * 2 / Rb;
    CHECK(std::abs(r.lambda[0] - 0.5 / (1 + Rb)) < floor);
    CHECK(std::abs(r.lambda[1] - 2 / (1 + Rb)) < floor);
    // v+ = D lambda + v_f with the problem's D (R = 0): the constraint error.
    CHECK(std::abs(r.v[0] + Rb * r.lambda[0]) < 1e-15);
    CHECK(std::abs(r.v[1] + Rb * r.lambda[1]) < 1e-15);
    CHECK(std::abs(r.v[1]) > 0.5 * Rb);
    // Against hard padmm: the impulses differ by O(R_b lambda).
    const Result p = padmm(pr, ccp(1e-6));
    CHECK(std::abs(r.lambda[0] - p.lambda[0]) < 2 * Rb + 1e-9);
  }
  // Default: a box with hard rows stays within ~1e-7 of hard padmm in v+.
  const ConstraintProblem pr = box(2, Vec3(0.4, -0.3, -1), Vec3(0.2, 0.1, 0.5), 0.5, 1, 1);
  const Result r = newton(pr, ccp(1e-6)), p = padmm(pr, ccp(1e-6));
  CHECK(r.stats.status == SolveStatus::Converged);
  check_close(r.v, p.v, 1e-6);
  // v+ = D lambda + v_f to the rounding floor of g, here eps |v_f|/R_b ~ 1e-8 (not 1e-9).
  check_close(r.v, dual_velocity(pr, ccp(1e-6), r.lambda), 1e-7);
}

TEST_CASE("convex_newton: fixed bodies have no unknowns") {
  // Body 0 is fixed (zero inverse mass), body 1 rests on it, body 2 on body 1.
  ConstraintProblem pr;
  pr.resize(3, 0, 0, 2);
  pr.inv_mass = {0, 1, 0.5};
  pr.inv_inertia_W = {Mat3::Zero(), Mat3::Identity() * 2, Mat3::Identity() * 3};
  const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
  for (int j = 0; j < 3; ++j) {
    ConstraintRow& a = pr.rows[j];  // contact 0: body 0 (a) - body 1 (b), at (0.1, 0, -0.2) from body 1
    a.body_a = 0;
    a.body_b = 1;
    a.J_a << -dirs[j], Vec3(0.3, 0.1, 0.1).cross(-dirs[j]);
    a.J_b << dirs[j], Vec3(0.1, 0, -0.2).cross(dirs[j]);
    ConstraintRow& b = pr.rows[3 + j];  // contact 1: body 1 (a) - body 2 (b)
    b.body_a = 1;
    b.body_b = 2;
    b.J_a << -dirs[j], Vec3(0, 0.1, 0.2).cross(-dirs[j]);
    b.J_b << dirs[j], Vec3(-0.1, 0, -0.2).cross(dirs[j]);
  }
  pr.mu = {0.6, 0.4};
  pr.v_free = {-1, 0.3, 0.1, -0.5, 0.8, -0.2};
  check_against_padmm(pr, ccp(1e-6));
  check_against_padmm(pr, ccp(1e-3));
  // Every body fixed: no unknowns, lambda = Pi_K(-v_f)/rho directly.
  ConstraintProblem fixed = particle(Vec3(-1, 0.2, 0), 0.5);
  fixed.inv_mass[0] = 0;
  fixed.inv_inertia_W[0].setZero();
  const Result r = newton(fixed, ccp(0.5));
  CHECK(r.stats.status == SolveStatus::Converged);
  CHECK(r.stats.iterations == 0);
  CHECK(std::abs(r.lambda[0] - 2) < 1e-12);
  CHECK(std::abs(r.lambda[1] + 0.4) < 1e-12);
}

TEST_CASE("convex_newton: cost decreases monotonically and convergence is quadratic") {
  // Without continuation the cost is one function throughout; with it, one per stage.
  for (bool continuation : {false, true}) {
    CAPTURE(continuation);
    ConvexNewtonOptions opt;
    opt.continuation = continuation;
    for (const ConstraintProblem& pr : {box(4, Vec3(2, 1, -0.5), Vec3(0.3, -0.1, 1), 0.3),
                                        box(3, Vec3(-1, 0.5, -1), Vec3(0.5, 0.2, -0.4), 0.9)}) {
      const NewtonResult r = newton(pr, ccp(1e-5), opt);
      CHECK(r.stats.status == SolveStatus::Converged);
      CHECK(r.stats.iterations <= 15);
      REQUIRE(static_cast<int>(r.stats.residual_history.size()) == r.stats.iterations);
      // Cost history: monotone within each continuation stage (the cost changes
      // with rho), up to the rounding slack the line search allows (16 eps |l|).
      int decreases = 0;
      for (size_t i = 1; i < r.cost.size(); ++i) {
        CAPTURE(i);
        if (r.stage[i] != r.stage[i - 1]) continue;
        CHECK(r.cost[i] <= r.cost[i - 1] + 1e-14 * std::abs(r.cost[i - 1]));
        decreases += r.cost[i] < r.cost[i - 1];
      }
      CHECK(decreases >= 3);
      if (!continuation)
        for (int s : r.stage) CHECK(s == 0);
      CHECK(r.stats.r_dual < 1e-8);
      if (continuation) continue;
      // Quadratic: once below 1e-2 m/s, each step at least squares the residual
      // (up to a constant) until the rounding floor (~1e-9 here).
      const auto& g = r.stats.residual_history;
      int seen = 0;
      for (size_t i = 1; i < g.size(); ++i) {
        if (g[i - 1] > 1e-2 || g[i] < 1e-9) continue;
        ++seen;
        CAPTURE(i);
        CHECK(g[i] <= 100 * g[i - 1] * g[i - 1]);
      }
      CHECK(seen >= 1);
    }
  }
}

TEST_CASE("convex_newton: continuation keeps a stiff compliance robust") {
  const std::vector<ConstraintProblem> probs = random_boxes(100, 7);
  for (double rho : {1e-6, 1e-8}) {
    CAPTURE(rho);
    ConvexNewtonOptions off;
    off.continuation = false;
    int max_on = 0, max_off = 0, sum_on = 0, failures_off = 0;
    for (const ConstraintProblem& pr : probs) {
      const Result a = newton(pr, ccp(rho));
      CHECK(a.stats.status == SolveStatus::Converged);
      max_on = std::max(max_on, a.stats.iterations);
      sum_on += a.stats.iterations;
      const Result b = newton(pr, ccp(rho), off);
      max_off = std::max(max_off, b.stats.iterations);
      failures_off += b.stats.status != SolveStatus::Converged;
    }
    CAPTURE(max_on);
    CAPTURE(max_off);
    CAPTURE(sum_on);
    CHECK(max_on <= 25);
    CHECK(max_off > max_on);  // guard: the option reaches the iteration
    if (rho == 1e-8) CHECK(failures_off > 0);
  }
}

TEST_CASE("convex_newton: dense and cg, exact and armijo give the same answer") {
  ConvexNewtonOptions cg, armijo, both;
  cg.linear_solver = ConvexNewtonOptions::kConjugateGradient;
  armijo.line_search = ConvexNewtonOptions::kArmijo;
  both.linear_solver = ConvexNewtonOptions::kConjugateGradient;
  both.line_search = ConvexNewtonOptions::kArmijo;
  std::vector<ConstraintProblem> probs = random_boxes(20, 3);
  probs.push_back(box(2, Vec3(0.4, -0.3, -1), Vec3(0.2, 0.1, 0.5), 0.5, 1, 1));
  for (double rho : {1e-6, 1e-3}) {
    const CcpModel law = ccp(rho);
    for (const ConstraintProblem& pr : probs) {
      const Result ref = newton(pr, law);
      REQUIRE(ref.stats.status == SolveStatus::Converged);
      for (const ConvexNewtonOptions* o : {&cg, &armijo, &both}) {
        const Result r = newton(pr, law, *o);
        CHECK(r.stats.status == SolveStatus::Converged);
        check_close(r.v, ref.v, 1e-8);
        check_close(r.lambda, ref.lambda, 1e-6);
      }
    }
  }
  // Guard: the options reach the solver (different iteration paths).
  const ConstraintProblem pr = box(4, Vec3(2, 1, -0.5), Vec3(0.3, -0.1, 1), 0.3);
  CHECK(newton(pr, ccp(1e-6), armijo).cost != newton(pr, ccp(1e-6)).cost);
}

TEST_CASE("convex_newton: warm start from the solution converges at once") {
  const CcpModel law = ccp(1e-6);
  for (const ConstraintProblem& pr : {particle(Vec3(-1, 2, 0), 0.5), box(4, Vec3(2, 1, -0.5), Vec3(0.3, -0.1, 1), 0.3),
                                      box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4)}) {
    const auto solve = [&](const ConstraintProblem& p, const ConvexNewtonOptions& o, const WarmStart& w) {
      return newton(p, law, o, w);
    };
    check_warm_start<ConvexNewtonOptions>(pr, solve, [](const Result& cold, const Result& hot) {
      CHECK(hot.stats.iterations <= 1);
      check_close(hot.lambda, cold.lambda, 1e-6);
    });
  }
  // A bad warm start (higher cost than du = 0) is ignored.
  const ConstraintProblem pr = particle(Vec3(0.5, 0.3, -0.2), 0.7);  // separating: lambda = 0
  WarmStart bad;
  bad.valid = true;
  bad.lambda = {100, 50, 0};
  bad.v = {0, 0, 0};
  const Result r = newton(pr, law, {}, bad);
  CHECK(r.stats.iterations == 0);
  for (double l : r.lambda) CHECK(l == 0);
}

TEST_CASE("convex_newton: refuses laws that are not convex and compliant") {
  ConvexNewtonSolver solver;
  std::string why;
  CHECK_FALSE(solver.accepts(DeSaxceModel{}, &why));
  CHECK(why == "convex_newton needs a convex compliant law (ccp); 'desaxce' is not convex");
  CHECK_FALSE(solver.accepts(hard_convex_law(), &why));
  CHECK(why == "convex_newton needs a convex compliant law (ccp); 'hard_ccp' is hard (no contact compliance)");
  why.clear();
  CHECK(solver.accepts(CcpModel{}, &why));
  CHECK(why.empty());
  CHECK(solver.accepts(DeSaxceModel{}, nullptr) == false);
  CHECK_THROWS_AS(newton(particle(Vec3(-1, 0, 0), 0.5), DeSaxceModel{}), std::invalid_argument);
  CHECK_THROWS_AS(newton(particle(Vec3(-1, 0, 0), 0.5), anisotropic_law()), std::invalid_argument);
  // convex_newton takes exactly the laws with a convex penalty: the soft
  // convex test law has none, and says so.
  CHECK_FALSE(solver.accepts(anisotropic_law(), &why));
  CHECK(why ==
        "convex_newton needs a convex compliant law (ccp); 'anisotropic' has no convex primal penalty "
        "(ContactModel::has_convex_penalty)");
  // The zone formulas need R = rho I per contact: ccp with a problem whose own
  // compliance differs between a contact's rows is refused.
  ConstraintProblem anisotropic = particle(Vec3(-1, 0, 0), 0.5);
  anisotropic.compliance[1] = 1e-3;
  CHECK_THROWS_WITH_AS(newton(anisotropic, CcpModel{}),
                       doctest::Contains("needs an isotropic compliance rho > 0"), std::invalid_argument);
}

TEST_CASE("convex_newton: statuses") {
  const CcpModel law = ccp(1e-6);
  SUBCASE("one step cannot converge from a cold start") {
    ConvexNewtonOptions opt;
    opt.max_iterations = 1;
    opt.continuation = false;
    const Result r = newton(box(4, Vec3(2, 1, -0.5), Vec3(0.3, -0.1, 1), 0.3), law, opt);
    CHECK(r.stats.status == SolveStatus::MaxIterations);
    CHECK(r.stats.iterations == 1);
    CHECK(r.stats.residual_history.size() == 1);
  }
  SUBCASE("out of iterations inside a continuation stage") {
    ConvexNewtonOptions opt;
    opt.max_iterations = 2;
    const ConstraintProblem pr = box(4, Vec3(2, 1, -0.5), Vec3(0.3, -0.1, 1), 0.3);
    const NewtonResult r = newton(pr, law, opt);
    CHECK(r.stats.status == SolveStatus::MaxIterations);
    REQUIRE(r.stage.front() > 0);
    // lambda is the law's lambda(du): in K_mu, v+ = r + rho lambda on K*'s side.
    for (int k = 0; k < pr.num_contacts; ++k) {
      const int o = 3 * k;
      CHECK(std::hypot(r.lambda[o + 1], r.lambda[o + 2]) <= pr.mu[k] * r.lambda[o] + 1e-12);
      CHECK(pr.mu[k] * std::hypot(r.v[o + 1], r.v[o + 2]) <= r.v[o] + 1e-9);
    }
  }
  SUBCASE("cost_tolerance stops earlier when set") {
    ConvexNewtonOptions opt;
    opt.continuation = false;
    opt.cost_tolerance = 1e-3;
    const ConstraintProblem pr = box(4, Vec3(2, 1, -0.5), Vec3(0.3, -0.1, 1), 0.3);
    ConvexNewtonOptions plain;
    plain.continuation = false;
    const Result loose = newton(pr, law, opt), tight = newton(pr, law, plain);
    CHECK(loose.stats.status == SolveStatus::Converged);
    CHECK(loose.stats.iterations < tight.stats.iterations);
  }
  SUBCASE("statistics at exit") {
    const NewtonResult r = newton(box(2, Vec3(0.3, -0.2, -1), Vec3(0.1, 0.5, -0.2), 0.4), law);
    REQUIRE(r.stats.status == SolveStatus::Converged);
    CHECK(r.stats.r_primal == 0);
    CHECK(r.stats.r_dual == r.stats.residual_history.back());
    CHECK(r.stats.r_compl < 1e-9);  // lambda . v+ = 0 by Moreau, to rounding
    CHECK(r.cost.size() >= r.stats.residual_history.size() + 1);
  }
  SUBCASE("NaN input is a numerical failure with zero output") {
    for (int path : {ConvexNewtonOptions::kDense, ConvexNewtonOptions::kConjugateGradient}) {
      ConvexNewtonOptions opt;
      opt.linear_solver = path;
      check_numerical_failure(newton(particle(Vec3(-1, std::numeric_limits<double>::quiet_NaN(), 0), 0.5), law, opt));
    }
    ConstraintProblem pr = particle(Vec3(-1, 0, 0), 0.5);
    pr.inv_mass[0] = std::numeric_limits<double>::infinity();
    CHECK(newton(pr, law).stats.status == SolveStatus::NumericalFailure);
  }
  SUBCASE("empty problem") {
    check_empty_problem([&](const ConstraintProblem& pr) { return newton(pr, law); });
  }
  SUBCASE("misuse throws") {
    ConstraintProblem pr = particle(Vec3(-1, 0, 0), 0.5);
    pr.inv_inertia_W[0] = Mat3::Zero();  // moving body with no rotational inertia inverse
    CHECK_THROWS_AS(newton(pr, law), std::invalid_argument);
    pr = particle(Vec3(-1, 0, 0), 0.5);
    pr.v_free.resize(2);
    CHECK_THROWS_AS(newton(pr, law), std::invalid_argument);
    ConvexNewtonSolver solver;
    PadmmSolver other;
    auto ws = other.make_workspace();
    std::vector<Real> l, v;
    SolveStats st;
    CHECK_THROWS_AS(solver.solve(particle(Vec3(-1, 0, 0), 0.5), law, {}, *ws, l, v, st), std::invalid_argument);
  }
}

TEST_CASE("convex_newton: the workspace does not grow once it has seen the largest problem") {
  check_workspace_kept<ConvexNewtonWorkspace>(ConvexNewtonSolver(), ccp(1e-6), [](const ConvexNewtonWorkspace& w) {
    return std::vector<const Real*>{w.hessian.data(), w.r.data()};
  });
}

TEST_CASE("convex_newton: option validation names the field") {
  const BadOption<ConvexNewtonOptions> bad[] = {
      {"max_iterations", [](ConvexNewtonOptions& o) { o.max_iterations = 0; }},
      {"tolerance", [](ConvexNewtonOptions& o) { o.tolerance = -1; }},
      {"cost_tolerance", [](ConvexNewtonOptions& o) { o.cost_tolerance = -1; }},
      {"bilateral_compliance", [](ConvexNewtonOptions& o) { o.bilateral_compliance = 0; }},
      {"linear_solver", [](ConvexNewtonOptions& o) { o.linear_solver = 5; }},
      {"cg_max_iterations", [](ConvexNewtonOptions& o) { o.cg_max_iterations = 0; }},
      {"cg_tolerance", [](ConvexNewtonOptions& o) { o.cg_tolerance = 1; }},
      {"line_search", [](ConvexNewtonOptions& o) { o.line_search = -1; }},
      {"ls_tolerance", [](ConvexNewtonOptions& o) { o.ls_tolerance = 0; }},
      {"ls_max_iterations", [](ConvexNewtonOptions& o) { o.ls_max_iterations = 0; }},
      {"armijo_c", [](ConvexNewtonOptions& o) { o.armijo_c = 1; }},
      {"continuation_start", [](ConvexNewtonOptions& o) { o.continuation_start = 0; }},
      {"continuation_factor", [](ConvexNewtonOptions& o) { o.continuation_factor = 1; }}
  };
  check_validation_names_fields("ConvexNewtonOptions", bad);
  ConvexNewtonOptions o;
  o.max_iterations = 0;
  CHECK_THROWS_AS(newton(particle(Vec3(-1, 0, 0), 0.5), ccp(1e-6), o), std::invalid_argument);
}

TEST_CASE("convex_newton: every option is bound under the prefix") {
  ConvexNewtonSolver solver;
  OptionSet set;
  solver.bind_options(set, "solver.");
  check_bound(set, "solver.",
              {"max_iterations", "tolerance", "cost_tolerance", "bilateral_compliance", "linear_solver",
               "cg_max_iterations", "cg_tolerance", "line_search", "ls_tolerance", "ls_max_iterations", "armijo_c",
               "warm_start", "continuation", "continuation_start", "continuation_factor"});
  set.set("solver.linear_solver", "cg");
  set.set("solver.line_search", "armijo");
  set.set_assignment("solver.continuation=off");
  set.set("solver.bilateral_compliance", "1e-6");
  CHECK(solver.options.linear_solver == ConvexNewtonOptions::kConjugateGradient);
  CHECK(solver.options.line_search == ConvexNewtonOptions::kArmijo);
  CHECK_FALSE(solver.options.continuation);
  CHECK(solver.options.bilateral_compliance == 1e-6);
  CHECK_THROWS_AS(set.set("solver.linear_solver", "lu"), std::invalid_argument);
  CHECK(solver.name() == "convex_newton");
}
