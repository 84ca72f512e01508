// Fischer–Burmeister rows (MATH.md B.1) and the non-smooth Newton solver
// (MATH.md C.1): residual zeros per regime, derivatives against finite
// differences with the friction weight frozen, known single-contact answers,
// agreement with PADMM on the same physics, best-iterate selection.
#include <doctest/doctest.h>

#include <random>

#include "contact_models/desaxce.hpp"
#include "contact_models/fb_math.hpp"
#include "contact_models/fischer_burmeister.hpp"
#include "solvers/nonsmooth_newton.hpp"
#include "solvers/padmm.hpp"
#include "support/problems.hpp"

using namespace contactlab;
using namespace contactlab::test_problems;

namespace {

struct Rows {
  double r[3], a[3], c[3], weight[3];
};

Rows rows_at(double mu, const double* lambda, const double* v, double beta = 1.0, double w = 1.0) {
  Rows out;
  fb::Smoothing<double> s;
  fb::contact_rows(mu, lambda, v, beta, w, s, out.r, out.a, out.c, out.weight);
  return out;
}

Result newton(const ConstraintProblem& pr, NewtonOptions opt = {}) {
  FischerBurmeisterModel law;
  NonsmoothNewtonSolver solver;
  solver.options = opt;
  return solve_once(solver, pr, law);
}

}  // namespace

TEST_CASE("fb: residual vanishes at separating, sticking and sliding solutions") {
  // separating: lambda = 0, v_n > 0
  {
    const double lam[3] = {0, 0, 0}, v[3] = {0.5, 0.3, -0.1};
    const Rows r = rows_at(0.5, lam, v);
    CHECK(std::abs(r.r[0]) < 1e-12);
    // Friction rows: W at its clamp; they leave the merit (weight ~ 1/W_max).
    CHECK(std::abs(r.weight[1] * r.r[1]) < 1e-5);
  }
  // sticking: v = 0, lambda strictly inside the cone
  {
    const double lam[3] = {1.0, 0.2, -0.1}, v[3] = {0, 0, 0};
    const Rows r = rows_at(0.5, lam, v);
    for (double x : r.r) CHECK(std::abs(x) < 1e-7);
  }
  // sliding: v_n = 0, lambda_t = -mu lambda_n v_t/|v_t|
  {
    const double vt[2] = {0.3, -0.4};
    const double lam[3] = {2.0, -0.5 * 2.0 * 0.6, -0.5 * 2.0 * -0.8}, v[3] = {0, vt[0], vt[1]};
    const Rows r = rows_at(0.5, lam, v);
    for (double x : r.r) CHECK(std::abs(x) < 1e-7);
    // W = |v_t| / (mu lambda_n): the rows' c / a ratio
    CHECK(r.c[1] / r.a[1] == doctest::Approx(0.5 / (0.5 * 2.0)).epsilon(1e-6));
  }
  // not a solution: sliding against the wrong direction leaves a residual
  {
    const double lam[3] = {2.0, 0.6, -0.8}, v[3] = {0, 0.3, -0.4};
    const Rows r = rows_at(0.5, lam, v);
    CHECK(std::abs(r.r[1]) > 1e-2);
  }
}

TEST_CASE("fb: row derivatives match finite differences (friction weight frozen)") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    double lam[3] = {std::abs(U(rng)) + 0.1, U(rng), U(rng)}, v[3] = {U(rng), U(rng), U(rng)};
    const double mu = 0.8, beta = 1.3, w = 0.7;
    const Rows r0 = rows_at(mu, lam, v, beta, w);
    const double h = 1e-7;
    // Normal row: exact derivative of phi_eps.
    double vp[3] = {v[0] + h, v[1], v[2]}, vm[3] = {v[0] - h, v[1], v[2]};
    const double dr_dv = (rows_at(mu, lam, vp, beta, w).r[0] - rows_at(mu, lam, vm, beta, w).r[0]) / (2 * h);
    CHECK(dr_dv == doctest::Approx(r0.a[0]).epsilon(1e-5));
    double lp[3] = {lam[0] + h, lam[1], lam[2]}, lm[3] = {lam[0] - h, lam[1], lam[2]};
    const double dr_dl = (rows_at(mu, lp, v, beta, w).r[0] - rows_at(mu, lm, v, beta, w).r[0]) / (2 * h);
    CHECK(dr_dl == doctest::Approx(r0.c[0]).epsilon(1e-5));
    // Friction rows with W frozen are linear: r_t = a (v_t + (c/a) lambda_t).
    for (int i = 1; i < 3; ++i) CHECK(r0.r[i] == doctest::Approx(r0.a[i] * v[i] + r0.c[i] * lam[i]).epsilon(1e-12));
  }
}

TEST_CASE("newton: known single-contact answers") {
  SUBCASE("separating") {
    const Result s = newton(particle(Vec3(0.5, 0.2, 0), 0.5));
    CHECK(s.lambda[0] == doctest::Approx(0).scale(1));
    CHECK(std::abs(s.lambda[1]) < 1e-8);
  }
  SUBCASE("sticking") {
    const Result s = newton(particle(Vec3(-1, 0.1, 0), 1.0));
    CHECK(s.lambda[0] == doctest::Approx(1).epsilon(1e-6));
    CHECK(s.lambda[1] == doctest::Approx(-0.1).epsilon(1e-6));
    CHECK(std::abs(s.v[1]) < 1e-6);
  }
  SUBCASE("sliding") {
    const Result s = newton(particle(Vec3(-1, 2, 0), 0.5));
    CHECK(s.lambda[0] == doctest::Approx(1).epsilon(1e-6));
    CHECK(s.lambda[1] == doctest::Approx(-0.5).epsilon(1e-6));
    CHECK(s.v[1] == doctest::Approx(1.5).epsilon(1e-6));
  }
  SUBCASE("frictionless") {
    const Result s = newton(particle(Vec3(-1, 2, 0), 0.0));
    CHECK(s.lambda[0] == doctest::Approx(1).epsilon(1e-6));
    CHECK(std::abs(s.lambda[1]) < 1e-9);
    CHECK(s.v[1] == doctest::Approx(2).epsilon(1e-9));
  }
}

TEST_CASE("newton: where it converges it solves the same physics as padmm") {
  // Random box problems (1-4 corners, with rail and stop rows). The frozen-W
  // Newton is inexact (linear convergence while sliding) and stalls on some
  // problems with redundant corners (docs/solvers.md); it must converge on
  // every single-contact problem, and wherever it reports convergence its
  // answer must satisfy the de Saxce law (natural map, computed here) and give
  // PADMM's contact velocities (unique even where the impulse split is not).
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1, 1);
  int converged = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const int corners = 1 + trial % 4;
    const ConstraintProblem pr = box(corners, Vec3(U(rng), U(rng), -1 + 0.5 * U(rng)), Vec3(U(rng), U(rng), U(rng)),
                                     0.3 + 0.5 * std::abs(U(rng)), trial % 2, trial % 3 == 0 ? 1 : 0);
    NewtonOptions opt;
    opt.newton_iterations = 100;
    opt.pcr_iterations = 50;
    const Result s = newton(pr, opt);
    CAPTURE(trial);
    if (corners == 1) CHECK(s.stats.status == SolveStatus::Converged);
    if (s.stats.status != SolveStatus::Converged) continue;
    ++converged;
    // Merit 1e-8 (m/s) with D's eigenvalues in [0.5, 10] bounds the impulse error ~1e-7.
    CHECK(natural_map(pr, s.lambda, velocity(pr, s.lambda)) < 1e-6);
    PadmmSolver padmm;
    padmm.options.tol_primal = padmm.options.tol_dual = padmm.options.tol_compl = 1e-9;
    padmm.options.max_iterations = 5000;
    DeSaxceModel desaxce;
    auto ws = padmm.make_workspace();
    std::vector<Real> lp, vp;
    SolveStats st;
    padmm.solve(pr, desaxce, WarmStart{}, *ws, lp, vp, st);
    REQUIRE(st.status == SolveStatus::Converged);
    for (int k = 0; k < pr.num_contacts; ++k)
      for (int i = 0; i < 3; ++i) {
        const int r = pr.contact_offset() + 3 * k + i;
        CHECK(std::abs(s.v[r] - vp[r]) < 1e-5);
      }
  }
  CHECK(converged >= 5);  // guard: the comparison above really ran
}

TEST_CASE("newton: best-iterate selection never returns a worse iterate than the first after k_min") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int trial = 0; trial < 30; ++trial) {
    const ConstraintProblem pr = box(1 + trial % 4, Vec3(2 * U(rng), 2 * U(rng), -1), Vec3(U(rng), U(rng), U(rng)), 0.6);
    NewtonOptions opt;
    opt.newton_iterations = 6;  // a tight budget, where selection matters
    opt.k_min = 2;
    const Result s = newton(pr, opt);
    REQUIRE(s.stats.residual_history.size() >= 3);
    const double at_kmin = s.stats.residual_history[2];
    CHECK(s.stats.r_primal <= at_kmin + 1e-15);
    for (size_t k = 2; k < s.stats.residual_history.size(); ++k) CHECK(s.stats.r_primal <= s.stats.residual_history[k] + 1e-15);
  }
}

TEST_CASE("newton: a linear (bilateral) problem converges in one step - refuses laws without a residual") {
  ConstraintProblem pr = box(0, Vec3(0.3, -0.2, 0.1), Vec3(0.1, 0.2, 0.3), 0.5, 3, 0);
  const Result s = newton(pr);
  CHECK(s.stats.iterations == 1);
  CHECK(s.stats.status == SolveStatus::Converged);
  for (int r = 0; r < 3; ++r) CHECK(std::abs(s.v[r]) < 1e-9);
  NonsmoothNewtonSolver solver;
  DeSaxceModel desaxce;
  std::string why;
  CHECK_FALSE(solver.accepts(desaxce, &why));
  CHECK(why.find("desaxce") != std::string::npos);
  NewtonOptions bad;
  bad.pcr_iterations = 0;
  CHECK_THROWS_WITH_AS(bad.Validate(), doctest::Contains("pcr_iterations"), std::invalid_argument);
}
