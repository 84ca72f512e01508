// CentralPathModel (contact_models/central_path.hpp) and its per-contact math
// (contact_models/soc_smoothing.hpp): properties of the smoothed projections
// on random inputs, the Lorentz scaling S = diag(mu, 1, 1), convergence to
// the exact projection as rho -> 0, and PGS / PADMM on the unit particle:
// the relaxed relation at the returned (lambda, v), convergence to de Saxce's
// answer in each mode, and a sweep of the free normal velocity across
// sticking -> sliding -> separating (Kim et al. Fig. 3). Set
// CONTACTLAB_CENTRAL_PATH_SWEEP=docs/central_path_sweep.csv to write the
// sweep (scripts/plot_central_path.gnuplot plots it).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "contact_models/central_path.hpp"
#include "contact_models/cone.hpp"
#include "contact_models/desaxce.hpp"
#include "contact_models/soc_smoothing.hpp"
#include "core/options.hpp"
#include "solvers/padmm.hpp"
#include "solvers/pgs.hpp"
#include "support/problems.hpp"

using namespace contactlab;
using namespace contactlab::test_problems;

namespace {

double norm3(const double* x) { return std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]); }
double tnorm(const double* x) { return std::hypot(x[1], x[2]); }

// Random contact vectors over many scales: x = scale * (normal, tangent),
// with a share of them put on the boundaries of K_mu and of its polar cone.
struct RandomInputs {
  std::mt19937 gen{20240611};
  std::normal_distribution<double> normal{0, 1};
  std::uniform_real_distribution<double> log_rho{-14, 1};

  double mu(int i) { return i % 7 == 0 ? 0.0 : std::exp(0.8 * normal(gen)); }
  double rho() { return std::pow(10.0, log_rho(gen)); }
  void x(int i, double mu, double* out) {
    const double scale = std::pow(10.0, 2 * normal(gen));
    out[0] = scale * normal(gen) * std::pow(10.0, normal(gen));
    out[1] = scale * normal(gen);
    out[2] = scale * normal(gen);
    const double t = tnorm(out);
    if (i % 5 == 1 && mu > 0) out[0] = t / mu;  // on the boundary of K_mu
    if (i % 5 == 2) out[0] = -mu * t;           // on the boundary of the polar cone
  }
};

// Central-path residual |w - (rho, 0, 0)|, w = diag(1, mu, mu)(S y)∘(S^-1 s),
// and the scale it is judged against: the bilinear terms of w are formed from
// entries of size |y||s| (>= y^T s = rho), so round-off alone leaves
// ~eps (1 + mu^2) |y||s| (e.g. a middle-zone x with |y| ~ |s| ~ 1, rho = 1e-8).
struct JordanCheck {
  double residual, scale;
};
JordanCheck jordan_check(double mu, double rho, const double* y, const double* s) {
  double w[3];
  soc_smoothing::scaled_jordan(mu, y, s, w);
  const double r = std::max({std::abs(w[0] - rho), std::abs(w[1]), std::abs(w[2])});
  return {r, std::max(rho, (1 + mu * mu) * norm3(y) * norm3(s))};
}

// Margins of y ∈ K_mu and s ∈ K_mu* (> 0: interior).
double primal_margin(double mu, const double* y) { return mu * y[0] - tnorm(y); }
double dual_margin(double mu, const double* s) { return s[0] - mu * tnorm(s); }

// y ∈ int K_mu, s ∈ int K_mu*. The margins are >= ~rho/|x|, while rounding
// y and s moves them by ~eps |x|: strictly positive wherever rho >> eps |x|^2
// (checked for rho >= 1e-12 (1 + mu^2) |x|^2), never negative beyond round-off.
void check_interior(double mu, double rho, const double* x, const double* y, const double* s) {
  const double nx = norm3(x), k = 1 + mu * mu;
  const bool visible = rho >= 1e-12 * k * nx * nx;
  const double roundoff = 4e-16 * k * (nx + std::sqrt(rho));
  CAPTURE(mu);
  CAPTURE(rho);
  CAPTURE(nx);
  if (mu > 0) {
    CHECK(primal_margin(mu, y) > (visible ? 0 : -roundoff));
  } else {  // K_0 is a ray: its relative interior
    CHECK(y[0] > 0);
    CHECK(y[1] == 0);
    CHECK(y[2] == 0);
  }
  CHECK(dual_margin(mu, s) > (visible ? 0 : -roundoff));
}

// de Saxce's exact answer on the unit particle (D = I): sticking lambda = -b,
// v = 0; sliding lambda_n = -b_n, lambda_t = -mu lambda_n d, v_n = 0; separating
// lambda = 0, v = b.
void desaxce_particle(const Vec3& b, double mu, Vec3& lambda, Vec3& v) {
  const double bt = std::hypot(b[1], b[2]);
  if (b[0] >= 0) {
    lambda.setZero();
  } else if (bt <= mu * -b[0]) {
    lambda = -b;
  } else {
    lambda = Vec3(-b[0], -mu * -b[0] * b[1] / bt, -mu * -b[0] * b[2] / bt);
  }
  v = lambda + b;
}

// Relaxed relation at a solver's answer: sigma^ = v + Gamma(v), then
// |w - (rho_eff, 0, 0)| and the interior margins.
struct Relation {
  double residual, primal_margin, dual_margin;
  Vec3 sigma_hat;
};
Relation relation_at(double mu, double rho_eff, const std::vector<Real>& lambda, const std::vector<Real>& v) {
  double s[3];
  cone::desaxce_shift(mu, v.data(), s);
  for (int i = 0; i < 3; ++i) s[i] += v[i];
  double w[3];
  soc_smoothing::scaled_jordan(mu, lambda.data(), s, w);
  Relation r;
  r.residual = std::max({std::abs(w[0] - rho_eff), std::abs(w[1]), std::abs(w[2])});
  r.primal_margin = primal_margin(mu, lambda.data());
  r.dual_margin = dual_margin(mu, s);
  r.sigma_hat = Vec3(s[0], s[1], s[2]);
  return r;
}

CentralPathModel law_with(double rho) {
  CentralPathOptions o;
  o.rho = rho;
  return CentralPathModel(o);
}

// Tight solver settings: the relation is checked far below the answers' O(rho) error.
PgsOptions tight_pgs() {
  PgsOptions o;
  o.tolerance = 1e-13;
  o.max_iterations = 10000;
  return o;
}

// PADMM with a pinned penalty rho_a (its fixed point then has rho_eff = rho
// rho_a) and the complementarity test off: at the relaxed point lambda^T
// sigma^ = rho_eff, which a tol_compl below it would never accept.
PadmmOptions tight_padmm(double rho_a) {
  PadmmOptions o;
  o.tol_primal = o.tol_dual = 1e-13;
  o.tol_compl = std::numeric_limits<double>::infinity();
  o.max_iterations = 20000;
  o.balanced_penalty = false;
  o.rho = rho_a;
  return o;
}

struct Mode {
  const char* name;
  Vec3 b;
  double mu;
};
const Mode kModes[3] = {{"sticking", Vec3(-1, 0.1, 0), 1.0},
                        {"sliding", Vec3(-1, 2, 0), 0.5},
                        {"separating", Vec3(0.5, 0.3, -0.2), 0.7}};

double max_abs_diff(const std::vector<Real>& a, const Vec3& b) {
  return std::max({std::abs(a[0] - b[0]), std::abs(a[1] - b[1]), std::abs(a[2] - b[2])});
}

}  // namespace

// ---------------------------------------------------------------- smoothed projections

TEST_CASE("central_path: Lorentz smoothing lands inside Q, s = y - x inside Q, y∘s = rho e") {
  RandomInputs in;
  double worst_rel = 0, worst_sum = 0, worst_small = 0;
  for (int i = 0; i < 20000; ++i) {
    const double rho = in.rho();
    double x[3], y[3], s[3];
    in.x(i, 1.0, x);
    soc_smoothing::lorentz(rho, x, y, s);
    CAPTURE(i);
    check_interior(1.0, rho, x, y, s);
    for (int j = 0; j < 3; ++j)
      worst_sum = std::max(worst_sum, std::abs(y[j] - s[j] - x[j]) / (norm3(x) + std::sqrt(rho)));
    const JordanCheck c = jordan_check(1.0, rho, y, s);
    worst_rel = std::max(worst_rel, c.residual / c.scale);
  }
  // Where |x| ~ sqrt(rho) (|y||s| ~ rho) the relation holds relative to rho itself.
  for (int i = 0; i < 2000; ++i) {
    const double rho = in.rho();
    double x[3], y[3], s[3];
    for (double& xi : x) xi = std::sqrt(rho) * in.normal(in.gen);
    soc_smoothing::lorentz(rho, x, y, s);
    const JordanCheck c = jordan_check(1.0, rho, y, s);
    worst_small = std::max(worst_small, c.residual / rho);
  }
  MESSAGE("Lorentz: |y∘s - rho e| / max(rho, |y||s|) <= " << worst_rel << ", |x| ~ sqrt(rho): / rho <= "
                                                          << worst_small << ", |y - s - x|/|x| <= " << worst_sum);
  CHECK(worst_rel <= 1e-12);
  CHECK(worst_small <= 1e-12);
  CHECK(worst_sum <= 1e-14);
}

TEST_CASE("central_path: friction-cone central point: interior, y - s = x, (S y)∘(S^-1 s) = rho e") {
  RandomInputs in;
  double worst_rel = 0, worst_sum = 0, worst_lorentz = 0;
  int max_it = 0;
  for (int i = 0; i < 20000; ++i) {
    const double mu = in.mu(i), rho = in.rho();
    double x[3], y[3], s[3];
    in.x(i, mu, x);
    max_it = std::max(max_it, soc_smoothing::friction(mu, rho, x, y, s));
    CAPTURE(i);
    check_interior(mu, rho, x, y, s);
    for (int j = 0; j < 3; ++j)
      worst_sum = std::max(worst_sum, std::abs(y[j] - s[j] - x[j]) / (norm3(x) + std::sqrt(rho)));
    const JordanCheck c = jordan_check(mu, rho, y, s);
    worst_rel = std::max(worst_rel, c.residual / c.scale);
    // mu = 1: S = I and the map is the Lorentz smoothing.
    double yl[3], sl[3], y1[3], s1[3];
    soc_smoothing::lorentz(rho, x, yl, sl);
    soc_smoothing::friction(1.0, rho, x, y1, s1);
    for (int j = 0; j < 3; ++j)
      worst_lorentz = std::max(worst_lorentz, std::abs(yl[j] - y1[j]) / (norm3(yl) + norm3(sl)));
  }
  MESSAGE("K_mu: |w - rho e| / max(rho, (1+mu^2)|y||s|) <= " << worst_rel << ", |y - s - x|/|x| <= " << worst_sum
                                                             << ", Newton iterations <= " << max_it
                                                             << ", mu = 1 vs Lorentz " << worst_lorentz);
  CHECK(worst_rel <= 1e-12);
  CHECK(worst_sum <= 1e-14);
  CHECK(max_it <= 10);
  CHECK(worst_lorentz <= 1e-13);
}

TEST_CASE("central_path: rho = 0 is the exact projection - the dual map is the Moreau complement") {
  RandomInputs in;
  for (int i = 0; i < 5000; ++i) {
    const double mu = in.mu(i), rho = in.rho();
    double x[3];
    in.x(i, mu, x);
    double p[3] = {x[0], x[1], x[2]}, e[3] = {x[0], x[1], x[2]};
    soc_smoothing::project_primal(mu, 0.0, p);
    cone::project_primal(mu, e);
    double d[3] = {x[0], x[1], x[2]}, ed[3] = {x[0], x[1], x[2]};
    soc_smoothing::project_dual(mu, 0.0, d);
    cone::project_dual(mu, ed);
    CAPTURE(i);
    for (int j = 0; j < 3; ++j) {
      CHECK(std::abs(p[j] - e[j]) <= 1e-14 * norm3(x));
      CHECK(std::abs(d[j] - ed[j]) <= 1e-14 * norm3(x));
    }
    // Smoothed: P_rho(x) - Q_rho(-x) = x (Moreau with the same central pair).
    double sp[3] = {x[0], x[1], x[2]}, sd[3] = {-x[0], -x[1], -x[2]};
    soc_smoothing::project_primal(mu, rho, sp);
    soc_smoothing::project_dual(mu, rho, sd);
    for (int j = 0; j < 3; ++j) CHECK(std::abs(sp[j] - sd[j] - x[j]) <= 1e-14 * (norm3(x) + std::sqrt(rho)));
  }
}

TEST_CASE("central_path: P_rho -> Pi_K as rho -> 0: O(rho) away from zone boundaries, O(sqrt(rho)) on them") {
  // slope = log(e(rho_hi)/e(rho_lo)) / log(rho_hi/rho_lo) of the error e = |P_rho(x) - Pi_K(x)|.
  auto slope = [](double mu, const Vec3& x) {
    auto err = [&](double rho) {
      double p[3] = {x[0], x[1], x[2]}, e[3] = {x[0], x[1], x[2]};
      soc_smoothing::project_primal(mu, rho, p);
      cone::project_primal(mu, e);
      return std::max({std::abs(p[0] - e[0]), std::abs(p[1] - e[1]), std::abs(p[2] - e[2])});
    };
    return std::log(err(1e-4) / err(1e-10)) / std::log(1e6);
  };
  const double mu = 0.6;
  // Strictly inside, strictly polar, strictly in the middle zone (and at mu = 0).
  for (const Vec3& x : {Vec3(2, 0.3, -0.4), Vec3(-2, 0.3, 0.4), Vec3(0.5, 1.5, -1.0), Vec3(-0.2, 1.0, 0.5)}) {
    CAPTURE(x.transpose());
    CHECK(std::abs(slope(mu, x) - 1) < 0.02);
  }
  CHECK(std::abs(slope(0.0, Vec3(1, 2, 0)) - 1) < 0.02);
  CHECK(std::abs(slope(0.0, Vec3(-1, 2, 0)) - 1) < 0.02);
  // On the boundary of K_mu, of its polar cone, and at the apex.
  const double t = std::hypot(0.3, 0.4);
  for (const Vec3& x : {Vec3(t / mu, 0.3, 0.4), Vec3(-mu * t, 0.3, 0.4), Vec3::Zero().eval()}) {
    CAPTURE(x.transpose());
    CHECK(std::abs(slope(mu, x) - 0.5) < 0.02);
  }
  // The apex exactly: P_rho(0) = (sqrt(rho), 0, 0).
  double z[3] = {0, 0, 0};
  soc_smoothing::project_primal(mu, 1e-6, z);
  CHECK(z[0] == doctest::Approx(1e-3).epsilon(1e-14));
  CHECK(z[1] == 0);
}

TEST_CASE("central_path: mu = 0 is frictionless smoothing (lambda_t = 0, lambda_n sigma_n = rho)") {
  const double rho = 1e-4;
  for (const Vec3& x : {Vec3(1, 2, -1), Vec3(-1, 0.5, 3), Vec3(0, 1, 0)}) {
    double y[3], s[3];
    soc_smoothing::friction(0.0, rho, x.data(), y, s);
    CAPTURE(x.transpose());
    CHECK(y[1] == 0);
    CHECK(y[2] == 0);
    CHECK(y[0] > 0);
    CHECK(s[0] > 0);
    CHECK(y[0] * s[0] == doctest::Approx(rho).epsilon(1e-14));
    CHECK(y[0] == doctest::Approx((x[0] + std::sqrt(x[0] * x[0] + 4 * rho)) / 2).epsilon(1e-12));
    CHECK(s[1] == -x[1]);  // the dual cone K_0* is the half-space sigma_n >= 0
    CHECK(s[2] == -x[2]);
  }
}

// ---------------------------------------------------------------- the scaling S = diag(mu, 1, 1)

TEST_CASE("central_path: S maps K_mu and S^-1 maps its dual cone onto Q, keeping the pairing") {
  std::mt19937 gen(7);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < 10000; ++i) {
    const double mu = std::exp(0.8 * nd(gen));
    const Vec3 l(nd(gen), nd(gen), nd(gen)), s(nd(gen), nd(gen), nd(gen));
    const Vec3 Sl(mu * l[0], l[1], l[2]), Sis(s[0] / mu, s[1], s[2]);
    auto in_Q = [](const Vec3& x) { return x[0] >= std::hypot(x[1], x[2]); };
    CAPTURE(i);
    CHECK((std::hypot(l[1], l[2]) <= mu * l[0]) == in_Q(Sl));   // K_mu
    CHECK((mu * std::hypot(s[1], s[2]) <= s[0]) == in_Q(Sis));  // K_mu*
    CHECK(Sl.dot(Sis) == doctest::Approx(l.dot(s)).epsilon(1e-13));
    // scaled_jordan = diag(1, mu, mu) (S l)∘(S^-1 s), Jordan product of Q.
    double w[3];
    soc_smoothing::scaled_jordan(mu, l.data(), s.data(), w);
    const Vec3 jordan(Sl.dot(Sis), Sl[0] * Sis[1] + Sis[0] * Sl[1], Sl[0] * Sis[2] + Sis[0] * Sl[2]);
    CHECK(w[0] == doctest::Approx(jordan[0]).epsilon(1e-13).scale(l.norm() * s.norm()));
    CHECK(w[1] == doctest::Approx(mu * jordan[1]).epsilon(1e-13).scale((1 + mu * mu) * l.norm() * s.norm()));
    CHECK(w[2] == doctest::Approx(mu * jordan[2]).epsilon(1e-13).scale((1 + mu * mu) * l.norm() * s.norm()));
  }
}

TEST_CASE("central_path: S^-1 Pi_Q(S x) is not the projection onto K_mu: it breaks de Saxce sliding") {
  // Sliding on the unit particle (mu = 0.5): lambda = (1, -0.5, 0), v = (0, 1.5, 0).
  // The de Saxce fixed point lambda = Pi(lambda - v^) holds with Pi_{K_mu}, and
  // with the rho -> 0 limit of the smoothed map, not with the S-conjugate.
  const double mu = 0.5;
  const double x[3] = {1 - mu * 1.5, -0.5 - 1.5, 0};  // lambda - (v + Gamma(v))
  double exact[3] = {x[0], x[1], x[2]};
  cone::project_primal(mu, exact);
  CHECK(exact[0] == doctest::Approx(1));
  CHECK(exact[1] == doctest::Approx(-0.5));
  double y[3], s[3];
  soc_smoothing::friction(mu, 0.0, x, y, s);
  CHECK(y[0] == doctest::Approx(1));
  CHECK(y[1] == doctest::Approx(-0.5));
  const double Sx[3] = {mu * x[0], x[1], x[2]};
  soc_smoothing::lorentz(0.0, Sx, y, s);
  CHECK(std::abs(y[0] / mu - 1) > 0.5);  // 2.125: the conjugate moves the fixed point
}

// ---------------------------------------------------------------- the law

TEST_CASE("central_path: law interface, options, de Saxce shift, no compliance") {
  CentralPathModel law;
  CHECK(law.name() == "central_path");
  CHECK_FALSE(law.is_convex());
  CHECK(law.is_hard());
  CHECK(law.options.rho == 1e-6);
  const double mu[2] = {0.5, 0.0};
  const double v[6] = {0.1, 3, 4, -1, 2, 0};
  double s[6], R[6];
  law.velocity_shift(mu, 2, v, s);
  CHECK(s[0] == doctest::Approx(2.5));
  CHECK(s[3] == 0);
  for (int i : {1, 2, 4, 5}) CHECK(s[i] == 0);
  law.contact_compliance(mu, 2, R);
  for (double r : R) CHECK(r == 0);

  OptionSet set;
  law.bind_options(set, "contact.");
  check_bound(set, "contact.", {"rho"});
  set.set("contact.rho", "0.25");
  CHECK(law.options.rho == 0.25);
  CHECK_THROWS_AS(set.set("contact.rho", "-1"), std::invalid_argument);

  CentralPathOptions bad;
  bad.rho = -1;
  CHECK(validate_message(bad).find("CentralPathOptions.rho ") != std::string::npos);
  bad.rho = std::numeric_limits<double>::quiet_NaN();
  CHECK(validate_message(bad).find("CentralPathOptions.rho ") != std::string::npos);
  double x[3] = {1, 2, 3};
  CHECK_THROWS_AS(CentralPathModel(bad).project_primal(mu, 1, x), std::invalid_argument);
  CHECK_THROWS_AS(law.project_primal_step(mu, 1, 0.0, x), std::invalid_argument);

  // rho = 0 is de Saxce's law exactly.
  const CentralPathModel hard = law_with(0.0);
  double a[6] = {-1, 2, 0.3, 0.4, -2, 1}, b[6];
  std::copy(a, a + 6, b);
  hard.project_primal(mu, 2, a);
  desaxce().project_primal(mu, 2, b);
  for (int i = 0; i < 6; ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-15));
}

TEST_CASE("central_path: project_primal_step makes the fixed point's relation independent of the step") {
  // Fixed-point iteration lambda <- P_{rho c}(lambda - c sigma^) on the unit
  // particle (sigma = lambda + b): for every step c the limit satisfies the
  // rho relation; project_primal (no step) gives rho / c.
  const double rho = 1e-3, mu = 0.5;
  const CentralPathModel law = law_with(rho);
  const Vec3 b(-1, 2, 0);
  for (double c : {0.3, 1.0, 1.7}) {
    for (bool with_step : {true, false}) {
      std::vector<Real> l(3, 0.0), v(3);
      for (int it = 0; it < 2000; ++it) {
        for (int i = 0; i < 3; ++i) v[i] = l[i] + b[i];
        double g[3], x[3];
        cone::desaxce_shift(mu, v.data(), g);
        for (int i = 0; i < 3; ++i) x[i] = l[i] - c * (v[i] + g[i]);
        if (with_step) law.project_primal_step(&mu, 1, c, x);
        else law.project_primal(&mu, 1, x);
        for (int i = 0; i < 3; ++i) l[i] = x[i];
      }
      for (int i = 0; i < 3; ++i) v[i] = l[i] + b[i];
      CAPTURE(c);
      CAPTURE(with_step);
      const Relation r = relation_at(mu, with_step ? rho : rho / c, l, v);
      CHECK(r.residual <= 1e-12);
    }
  }
}

// ---------------------------------------------------------------- solvers on the unit particle

TEST_CASE("central_path: PGS and PADMM reach the relaxed relation and tend to de Saxce's answer as O(rho)") {
  // Unit particle: D = I, so PGS's block step is c = omega = 1 (rho_eff =
  // rho) and PADMM with rho_a = 1 has rho_eff = rho (central_path.hpp).
  const double rhos[3] = {1e-2, 1e-4, 1e-6};
  for (const Mode& mode : kModes) {
    const ConstraintProblem pr = particle(mode.b, mode.mu);
    Vec3 l_exact, v_exact;
    desaxce_particle(mode.b, mode.mu, l_exact, v_exact);
    for (int solver = 0; solver < 2; ++solver) {
      double err[3];
      for (int j = 0; j < 3; ++j) {
        const CentralPathModel law = law_with(rhos[j]);
        const Result r = solver == 0 ? FreshSolve<PgsSolver>{}(pr, tight_pgs(), {}, &law)
                                     : FreshSolve<PadmmSolver>{}(pr, tight_padmm(1.0), {}, &law);
        const std::string name = mode.name;
        CAPTURE(name);
        CAPTURE(solver);
        CAPTURE(rhos[j]);
        CHECK(r.stats.status == SolveStatus::Converged);
        check_close(r.v, velocity(pr, r.lambda), 1e-14);
        // (a) the relation at the returned (lambda, v), to the solver tolerance.
        const Relation rel = relation_at(mode.mu, rhos[j], r.lambda, r.v);
        CHECK(rel.residual <= 1e-11);
        CHECK(rel.primal_margin > 0);
        CHECK(rel.dual_margin > 0);
        // (c) separating: a small positive lambda_n = rho sigma^_n / (sigma^_n^2 -
        // mu^2 |sigma_t|^2) ~ rho / sigma^_n (exactly so when sigma_t = 0).
        if (mode.b[0] > 0) {
          const Vec3& sh = rel.sigma_hat;
          const double st2 = sh[1] * sh[1] + sh[2] * sh[2];
          CHECK(r.lambda[0] > 0);
          CHECK(r.lambda[0] ==
                doctest::Approx(rhos[j] * sh[0] / (sh[0] * sh[0] - mode.mu * mode.mu * st2)).epsilon(1e-6));
          CHECK(r.lambda[0] * sh[0] / rhos[j] == doctest::Approx(1).epsilon(0.15));
        }
        err[j] = std::max(max_abs_diff(r.lambda, l_exact), max_abs_diff(r.v, v_exact));
        MESSAGE(std::string(mode.name) << std::string(solver == 0 ? " pgs" : " padmm") << " rho " << rhos[j]
                                       << ": |(lambda, v) - de Saxce|_inf = " << err[j] << " ("
                                       << r.stats.iterations << " iterations)");
      }
      // (b) strictly complementary modes: the error is O(rho).
      const std::string name = mode.name;
      CAPTURE(name);
      CAPTURE(solver);
      for (int j = 0; j < 3; ++j) CHECK(err[j] <= 2 * rhos[j]);
      CHECK(std::log10(err[0] / err[2]) / 4 == doctest::Approx(1).epsilon(0.02));
    }
  }
}

TEST_CASE("central_path: PADMM and PGS land on the rho relation whatever their step (project_primal_step)") {
  const double rho = 1e-3;
  const CentralPathModel law = law_with(rho);
  for (const Mode& mode : kModes) {
    const ConstraintProblem pr = particle(mode.b, mode.mu);
    const std::string name = mode.name;
    CAPTURE(name);
    for (double rho_a : {0.25, 4.0}) {
      const Result r = FreshSolve<PadmmSolver>{}(pr, tight_padmm(rho_a), {}, &law);
      CAPTURE(rho_a);
      CHECK(r.stats.status == SolveStatus::Converged);
      CHECK(relation_at(mode.mu, rho, r.lambda, r.v).residual <= 1e-11);
      // Guard: the relation with the parameter scaled by the step does not hold.
      CHECK(relation_at(mode.mu, rho * rho_a, r.lambda, r.v).residual > 1e-6);
    }
    // PGS with omega = 0.5: step c = 0.5; the solver passes it to the law, so
    // its unit-step stopping test vanishes at the fixed point and it converges.
    PgsOptions o = tight_pgs();
    o.relaxation = 0.5;
    o.max_iterations = 400;
    const Result r = FreshSolve<PgsSolver>{}(pr, o, {}, &law);
    CHECK(r.stats.status == SolveStatus::Converged);
    CHECK(relation_at(mode.mu, rho, r.lambda, r.v).residual <= 1e-11);
  }
}

TEST_CASE("central_path: on the apex (b = 0) the relaxed answer is O(sqrt(rho))") {
  // b = 0: lambda = sigma^ = 0 is degenerate (not strictly complementary).
  const ConstraintProblem pr = particle(Vec3::Zero(), 0.5);
  double e[2];
  int j = 0;
  for (double rho : {1e-4, 1e-8}) {
    const CentralPathModel law = law_with(rho);
    const Result r = FreshSolve<PgsSolver>{}(pr, tight_pgs(), {}, &law);
    CHECK(r.stats.status == SolveStatus::Converged);
    e[j++] = std::max(max_abs_diff(r.lambda, Vec3::Zero()), max_abs_diff(r.v, Vec3::Zero()));
    CHECK(r.lambda[0] == doctest::Approx(std::sqrt(rho)).epsilon(1e-9));  // lambda_n = sigma_n = sqrt(rho)
  }
  CHECK(std::log10(e[0] / e[1]) / 4 == doctest::Approx(0.5).epsilon(0.02));
}

TEST_CASE("central_path: sweep of b_N across sticking -> sliding -> separating (Kim et al. Fig. 3)") {
  // Unit particle, b = (b_N, 1, 0), mu = 0.5: de Saxce sticks for b_N <= -2,
  // slides for -2 < b_N < 0 (lambda_n = -b_N, lambda_t = -mu lambda_n),
  // separates for b_N >= 0. lambda_n(b_N) has a kink at 0 (slope -1 -> 0),
  // lambda_t one at -2 (slope 0 -> 0.5). The relaxed curves are smooth.
  const double mu = 0.5, h = 0.01;
  const int n = 401;  // b_N in [-3, 1]
  const std::vector<double> rhos = {1e-1, 1e-2, 1e-4};
  std::vector<double> bn(n);
  std::vector<std::vector<double>> ln(rhos.size() + 1, std::vector<double>(n)), lt = ln;
  for (int i = 0; i < n; ++i) {
    bn[i] = -3 + h * i;
    const ConstraintProblem pr = particle(Vec3(bn[i], 1, 0), mu);
    for (size_t j = 0; j <= rhos.size(); ++j) {
      const CentralPathModel law = law_with(j == 0 ? 0.0 : rhos[j - 1]);
      const ContactModel& l = j == 0 ? static_cast<const ContactModel&>(desaxce()) : law;
      const Result r = FreshSolve<PgsSolver>{false}(pr, tight_pgs(), {}, &l);
      REQUIRE(r.stats.status == SolveStatus::Converged);
      ln[j][i] = r.lambda[0];
      lt[j][i] = r.lambda[1];
    }
  }
  // Largest jump between adjacent samples, and largest change of the slope
  // between adjacent intervals (a kink: ~|slope change|; smooth: ~h curvature).
  auto max_jump = [&](const std::vector<double>& f) {
    double m = 0;
    for (int i = 1; i < n; ++i) m = std::max(m, std::abs(f[i] - f[i - 1]));
    return m;
  };
  auto max_slope_change = [&](const std::vector<double>& f) {
    double m = 0;
    for (int i = 1; i + 1 < n; ++i) m = std::max(m, std::abs(f[i + 1] - 2 * f[i] + f[i - 1]) / h);
    return m;
  };
  for (size_t j = 0; j <= rhos.size(); ++j) {
    MESSAGE((j == 0 ? std::string("desaxce") : "rho " + std::to_string(rhos[j - 1]))
            << ": max jump of lambda_n " << max_jump(ln[j]) << ", max slope change lambda_n "
            << max_slope_change(ln[j]) << ", lambda_t " << max_slope_change(lt[j]));
    CHECK(max_jump(ln[j]) <= 1.01 * h);  // continuous (Lipschitz 1) for every law
  }
  // de Saxce: the kinks are there, in one sample.
  CHECK(max_slope_change(ln[0]) >= 0.9);
  CHECK(max_slope_change(lt[0]) >= 0.45);
  // Relaxed, width sqrt(rho) = 0.3 and 0.1 (30 and 10 samples): the slope changes gradually.
  CHECK(max_slope_change(ln[1]) <= 0.05);
  CHECK(max_slope_change(ln[2]) <= 0.1);
  CHECK(max_slope_change(lt[1]) <= 0.05);
  CHECK(max_slope_change(lt[2]) <= 0.1);
  // Separating side (b_N = 1): lambda_n = rho sigma^_n / (sigma^_n^2 - mu^2
  // sigma_t^2) with sigma ~ b = (1, 1, 0), sigma^_n ~ 1.5: ~0.75 rho.
  CHECK(ln[2][n - 1] > 0);
  CHECK(ln[2][n - 1] == doctest::Approx(0.75e-2).epsilon(0.05));

  if (const char* path = std::getenv("CONTACTLAB_CENTRAL_PATH_SWEEP")) {
    FILE* f = std::fopen(path, "w");
    REQUIRE(f);
    std::fprintf(f, "# tests/contact_models/test_central_path.cpp sweep: unit particle, b = (b_N, 1, 0), mu = 0.5, PGS\n");
    std::fprintf(f, "b_N,desaxce_ln,desaxce_lt");
    for (double rho : rhos) std::fprintf(f, ",cp%g_ln,cp%g_lt", rho, rho);
    std::fprintf(f, "\n");
    for (int i = 0; i < n; i += 2) {
      std::fprintf(f, "%.3f", bn[i]);
      for (size_t j = 0; j <= rhos.size(); ++j) std::fprintf(f, ",%.6g,%.6g", ln[j][i], lt[j][i]);
      std::fprintf(f, "\n");
    }
    std::fclose(f);
    MESSAGE("wrote " << std::string(path));
  }
}
