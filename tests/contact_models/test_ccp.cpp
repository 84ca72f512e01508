// The compliant CCP law (contact_models/ccp.hpp) and its zone functions
// (contact_models/ccp_zones.hpp, MATH.md B.3/C.3): cost, gradient and Hessian
// against central finite differences in each zone, lambda in K_mu and the
// Moreau decomposition, the model's interface and options, and the gliding
// artifact measured against de Saxce.
#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "contact_models/ccp.hpp"
#include "contact_models/ccp_zones.hpp"
#include "contact_models/cone.hpp"
#include "contact_models/desaxce.hpp"
#include "core/options.hpp"
#include "solvers/convex_newton.hpp"
#include "solvers/padmm.hpp"
#include "support/problems.hpp"

using namespace contactlab;
using namespace contactlab::test_problems;

namespace {

using Mat3R = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

struct Eval {
  double cost;
  Vec3 lambda;
  Mat3R H;
};

Eval eval(double mu, double rho, const Vec3& r) {
  Eval e;
  e.cost = ccp::evaluate(mu, rho, r.data(), e.lambda.data(), e.H.data());
  return e;
}

// A point of the given zone, at least `margin` (relative) away from the zone
// boundaries so that finite differences with a smaller step stay inside.
Vec3 point_in_zone(int zone, double mu, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  const double th = 2 * kPi * U(rng);
  const double t = 0.2 + U(rng);  // |r_t| in [0.2, 1.2]
  const Vec3 dir(0, std::cos(th), std::sin(th));
  double rn = 0;
  const double a = 0.1 + U(rng);  // distance into the zone along r_n
  if (zone == ccp::kTop) rn = mu * t + a;
  if (zone == ccp::kBottom) rn = -t / mu - a;
  if (zone == ccp::kMiddle) {
    // r_n strictly between the bottom boundary -t/mu and the top boundary mu t.
    const double lo = mu > 0 ? -t / mu : -2.0, hi = mu * t, f = 0.1 + 0.8 * U(rng);
    rn = lo + f * (hi - lo);
  }
  return Vec3(rn, 0, 0) + t * dir;
}

}  // namespace

TEST_CASE("ccp: zone cost, gradient and Hessian match central finite differences") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> U(0, 1);
  const double h = 1e-6;  // FD step; points sit >= 0.1/(1+mu^2)-ish inside their zone
  int checked[3] = {0, 0, 0};
  for (int i = 0; i < 600; ++i) {
    const double mu = i % 6 == 0 ? 0.0 : 0.05 + 1.95 * U(rng);
    const double rho = std::pow(10.0, -3 + 3 * U(rng));  // 1e-3 .. 1
    const int zone = i % 3;
    if (zone == ccp::kBottom && mu == 0) continue;  // empty for mu = 0 (measure zero)
    const Vec3 r = point_in_zone(zone, mu, rng);
    CAPTURE(mu);
    CAPTURE(rho);
    CAPTURE(zone);
    REQUIRE(ccp::zone(mu, r.data()) == zone);
    const Eval e = eval(mu, rho, r);
    const double scale = 1 / rho;  // lambda ~ |r|/rho, H ~ 1/rho
    for (int j = 0; j < 3; ++j) {
      Vec3 rp = r, rm = r;
      rp[j] += h;
      rm[j] -= h;
      REQUIRE(ccp::zone(mu, rp.data()) == zone);
      REQUIRE(ccp::zone(mu, rm.data()) == zone);
      const Eval ep = eval(mu, rho, rp), em = eval(mu, rho, rm);
      // dl/dr = -lambda.
      const double fd_grad = (ep.cost - em.cost) / (2 * h);
      CHECK(std::abs(fd_grad + e.lambda[j]) <= 1e-6 * scale);
      // d2l/dr2 column j = -(dlambda/dr_j).
      const Vec3 fd_col = -(ep.lambda - em.lambda) / (2 * h);
      for (int k = 0; k < 3; ++k) CHECK(std::abs(fd_col[k] - e.H(k, j)) <= 1e-6 * scale);
    }
    // Guards: the analytic quantities are not trivially zero outside the top zone.
    if (zone == ccp::kTop) {
      CHECK(e.cost == 0);
      CHECK(e.lambda.isZero(0));
      CHECK(e.H.isZero(0));
    } else {
      CHECK(e.cost > 1e-4 / rho);
      CHECK(e.lambda[0] > 1e-3 / rho);
      CHECK(e.H(0, 0) > 0);
    }
    CHECK((e.H - e.H.transpose()).norm() == 0);
    CHECK(Eigen::SelfAdjointEigenSolver<Mat3>(e.H).eigenvalues().minCoeff() >= -1e-12 * scale);
    ++checked[zone];
  }
  CHECK(checked[ccp::kTop] > 100);
  CHECK(checked[ccp::kBottom] > 100);
  CHECK(checked[ccp::kMiddle] > 100);
}

TEST_CASE("ccp: zone closed forms (MATH.md B.3) and mu = 0") {
  const double rho = 0.5;
  // Bottom: stiction spring, l = |r|^2/(2 rho), lambda = -r/rho, H = I/rho.
  const Vec3 rb(-1, 0.2, -0.1);
  const Eval b = eval(0.8, rho, rb);
  CHECK(ccp::zone(0.8, rb.data()) == ccp::kBottom);
  CHECK(b.cost == doctest::Approx(rb.squaredNorm() / (2 * rho)));
  CHECK((b.lambda + rb / rho).norm() < 1e-15);
  CHECK((b.H - Mat3R::Identity() / rho).norm() < 1e-15);
  // Middle: lambda = (mu t - r_n)/(rho (1+mu^2)) (1, -mu that).
  const double mu = 0.5;
  const Vec3 rm(0.1, 0.6, 0.8);  // t = 1, mu t = 0.5 > r_n
  const Eval m = eval(mu, rho, rm);
  CHECK(ccp::zone(mu, rm.data()) == ccp::kMiddle);
  const double a = (mu * 1 - 0.1) / (rho * (1 + mu * mu));
  CHECK((m.lambda - Vec3(a, -a * mu * 0.6, -a * mu * 0.8)).norm() < 1e-14);
  CHECK(m.cost == doctest::Approx(0.4 * 0.4 / (2 * rho * (1 + mu * mu))));
  // mu = 0: frictionless, only the normal row is penalised; no bottom zone even
  // at r_t = 0 (its limit from the middle zone is e_n e_n^T/rho, not I/rho).
  for (const Vec3& r : {Vec3(-0.3, 0.0, 0.0), Vec3(-0.3, 1.0, -2.0)}) {
    const Eval z = eval(0.0, rho, r);
    CHECK(ccp::zone(0.0, r.data()) == ccp::kMiddle);
    CHECK((z.lambda - Vec3(0.3 / rho, 0, 0)).norm() < 1e-15);
    Mat3R expect = Mat3R::Zero();
    expect(0, 0) = 1 / rho;
    CHECK((z.H - expect).norm() < 1e-15);
    CHECK(z.cost == doctest::Approx(0.09 / (2 * rho)));
  }
  const Eval top = eval(0.0, rho, Vec3(0.0, 5, 5));
  CHECK(top.cost == 0);
  CHECK(top.lambda.isZero(0));
}

TEST_CASE("ccp: lambda lies in K_mu and satisfies Moreau's decomposition") {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> U(-1, 1), mu_dist(0, 2), log_scale(-3, 3);
  std::vector<std::pair<double, Vec3>> samples;
  for (int i = 0; i < 2000; ++i)
    samples.push_back({i % 7 == 0 ? 0.0 : mu_dist(rng), Vec3(U(rng), U(rng), U(rng)) * std::pow(10.0, log_scale(rng))});
  for (double mu : {0.0, 0.5, 1.0}) {  // zone boundaries, the axis, the origin
    samples.push_back({mu, Vec3(mu, 0.6, 0.8)});
    samples.push_back({mu, Vec3(mu > 0 ? -1 / mu : -1, 0.6, 0.8)});
    samples.push_back({mu, Vec3(-1, 0, 0)});
    samples.push_back({mu, Vec3(1, 0, 0)});
    samples.push_back({mu, Vec3::Zero()});
  }
  for (const auto& sample : samples) {
    const double mu = sample.first;  // no structured binding: clang 14 cannot CAPTURE one
    const Vec3& r = sample.second;
    CAPTURE(mu);
    CAPTURE(r.transpose());
    const double rho = 0.01;
    const Eval e = eval(mu, rho, r);
    const double tol = 1e-12 * (1 + r.norm());
    // lambda in K_mu.
    CHECK(std::hypot(e.lambda[1], e.lambda[2]) <= mu * e.lambda[0] + tol / rho);
    // rho lambda = Pi_K(-r) and r + rho lambda = Pi_K*(r): r = Pi_K*(r) - Pi_K(-r).
    Vec3 pk = -r, pd = r;
    cone::project_primal(mu, pk.data());
    cone::project_dual(mu, pd.data());
    CHECK((rho * e.lambda - pk).norm() <= tol);
    CHECK((r + rho * e.lambda - pd).norm() <= tol);
    // Complementarity lambda . (r + rho lambda) = 0 and l = rho |lambda|^2 / 2.
    CHECK(std::abs(e.lambda.dot(r + rho * e.lambda)) <= tol * (1 + e.lambda.norm()));
    CHECK(std::abs(e.cost - 0.5 * rho * e.lambda.squaredNorm()) <= 1e-12 * (1 + e.cost));
  }
}

TEST_CASE("ccp: model interface") {
  CcpOptions o;
  o.compliance = 2e-5;
  o.gap_recovery = 0.3;
  const CcpModel law(o);
  CHECK(law.name() == "ccp");
  CHECK(law.is_convex());
  CHECK_FALSE(law.is_hard());
  const double mu[2] = {0.5, 0.0};
  double v[6] = {-1, 2, 3, 0.5, -4, 1}, s[6] = {9, 9, 9, 9, 9, 9}, R[6];
  law.velocity_shift(mu, 2, v, s);
  for (double x : s) CHECK(x == 0);
  law.contact_compliance(mu, 2, R);
  for (double x : R) CHECK(x == 2e-5);
  CHECK(law.penetration_recovery(0.01) == 0.3);
  double x[6] = {-1, 2, 3, 0.5, -4, 1}, y[6];
  std::copy(x, x + 6, y);
  law.project_primal(mu, 2, x);
  cone::project_primal(mu[0], y);
  cone::project_primal(mu[1], y + 3);
  for (int i = 0; i < 6; ++i) CHECK(x[i] == y[i]);
  std::copy(v, v + 6, x);
  std::copy(v, v + 6, y);
  law.project_dual(mu, 2, x);
  cone::project_dual(mu[0], y);
  cone::project_dual(mu[1], y + 3);
  for (int i = 0; i < 6; ++i) CHECK(x[i] == y[i]);
  // Defaults are valid; a bad option set directly is caught where it is used.
  CHECK(validate_message(CcpOptions{}).empty());
  CcpModel bad;
  bad.options.compliance = 0;
  CHECK_THROWS_AS(bad.contact_compliance(mu, 2, R), std::invalid_argument);
}

TEST_CASE("ccp: option validation names the field - options are bound") {
  CcpOptions o;
  o.compliance = -1;
  CHECK(validate_message(o).find("CcpOptions.compliance ") != std::string::npos);
  o = CcpOptions{};
  o.compliance = std::numeric_limits<double>::infinity();
  CHECK(validate_message(o).find("CcpOptions.compliance ") != std::string::npos);
  o = CcpOptions{};
  o.gap_recovery = 1.5;
  CHECK(validate_message(o).find("CcpOptions.gap_recovery ") != std::string::npos);
  CcpModel law;
  OptionSet set;
  law.bind_options(set, "contact.");
  CHECK(set.has("contact.compliance"));
  CHECK(set.has("contact.gap_recovery"));
  set.set("contact.compliance", "1e-4");
  set.set_assignment("contact.gap_recovery=0.5");
  CHECK(law.options.compliance == 1e-4);
  CHECK(law.options.gap_recovery == 0.5);
  CHECK_THROWS_AS(set.set("contact.gap_recovery", "2"), std::invalid_argument);
}

// Gliding (ccp.hpp): v_free = (-0.1, 2, 0) on a unit particle, mu = 0.5.
// Hard-CCP limit: lambda_n = (0.1 + 2 mu)/(1 + mu^2) = 0.88, sigma = (0.78,
// 1.56, 0): the particle lifts off at mu |sigma_t|. De Saxce: lambda_n = 0.1,
// sigma = (0, 1.95, 0).
TEST_CASE("ccp: gliding - a sliding particle lifts off at mu |v_t| under CCP, not under de Saxce") {
  const double mu = 0.5, rho = 1e-6;
  const ConstraintProblem pr = particle(Vec3(-0.1, 2, 0), mu);
  CcpOptions o;
  o.compliance = rho;
  const CcpModel ccp_law(o);
  const DeSaxceModel desaxce;
  ConvexNewtonSolver newton;
  PadmmOptions po;
  po.tol_primal = po.tol_dual = po.tol_compl = 1e-10;
  po.max_iterations = 10000;
  PadmmSolver padmm(po);
  auto wn = newton.make_workspace();
  auto wp = padmm.make_workspace();
  std::vector<Real> lc, vc, lp, vp, ld, vd;
  SolveStats sn, sp, sd;
  newton.solve(pr, ccp_law, {}, *wn, lc, vc, sn);
  padmm.solve(pr, ccp_law, {}, *wp, lp, vp, sp);
  padmm.solve(pr, desaxce, {}, *wp, ld, vd, sd);
  REQUIRE(sn.status == SolveStatus::Converged);
  REQUIRE(sp.status == SolveStatus::Converged);
  REQUIRE(sd.status == SolveStatus::Converged);
  // The body's velocity sigma = v+ - rho lambda (v+ includes the compliance).
  const Vec3 sigma_c = Vec3(vc[0], vc[1], vc[2]) - rho * Vec3(lc[0], lc[1], lc[2]);
  const Vec3 sigma_d(vd[0], vd[1], vd[2]);
  CAPTURE(sigma_c.transpose());
  CAPTURE(sigma_d.transpose());
  // CCP: sigma_n = mu |sigma_t| (to O(rho)), the numbers of the closed form.
  CHECK(std::abs(sigma_c[0] - mu * std::hypot(sigma_c[1], sigma_c[2])) < 1e-5);
  CHECK(std::abs(lc[0] - 0.88) < 1e-5);
  CHECK(std::abs(sigma_c[0] - 0.78) < 1e-5);
  CHECK(std::abs(sigma_c[1] - 1.56) < 1e-5);
  // Solver independent: padmm on the same law gives the same lifting.
  for (int i = 0; i < 3; ++i) {
    CHECK(std::abs(lp[i] - lc[i]) < 1e-6);
    CHECK(std::abs(vp[i] - vc[i]) < 1e-6);
  }
  // De Saxce: no lifting, sigma_n = 0, lambda_n = 0.1.
  CHECK(std::abs(sigma_d[0]) < 1e-5);
  CHECK(std::abs(ld[0] - 0.1) < 1e-5);
  CHECK(std::abs(sigma_d[1] - 1.95) < 1e-5);
}

// The same artifact in time: a 1 kg box (half extents 0.1 m) resting on four
// corners slides at 2 m/s, mu = 0.5, h = 1 ms, gravity 9.81. Each step builds
// v_free = J u_free + bias (bias = gap/h for gap >= 0, eta gap/h below, as the
// velocity scheme), solves, and integrates the corner gaps to first order.
// Under CCP the first step launches the box upwards at ~mu |v_t| (it sits on
// the plane with no gap to spend), it flies a ballistic arc, and once it lands
// it hovers at gap/h = mu |v_t| (gap_{k+1} = gap_k + h (mu |v_t| - gap_k/h)).
// Under de Saxce it stays on the plane.
TEST_CASE("ccp: a sliding box jumps at mu |v_t| then hovers at gap h mu |v_t| (gliding, measured)") {
  const double h = 1e-3, mu = 0.5, g = 9.81, m = 1, a = 0.1;
  const double inertia = m / 3 * (2 * a * a);
  ConstraintProblem pr;
  pr.resize(1, 0, 0, 4);
  pr.inv_mass[0] = 1 / m;
  pr.inv_inertia_W[0] = Mat3::Identity() / inertia;
  const Vec3 corners[4] = {{a, a, -a}, {-a, a, -a}, {a, -a, -a}, {-a, -a, -a}};
  const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
  for (int k = 0; k < 4; ++k) {
    pr.mu[k] = mu;
    for (int j = 0; j < 3; ++j) {
      ConstraintRow& row = pr.rows[3 * k + j];
      row.body_b = 0;
      row.J_b << dirs[j], corners[k].cross(dirs[j]);
    }
  }
  struct Run {
    double v_n_first, v_t_first;  // CoM velocity after the first step
    double max_gap;               // highest mean corner gap
    double gap, v_t, v_n;         // at the end
    double mean_iterations;
  };
  auto simulate = [&](const ContactModel& law, const Solver& solver, int steps) {
    auto ws = solver.make_workspace();
    Vec6 u = Vec6::Zero();
    u[0] = 2;
    double gaps[4] = {0, 0, 0, 0};
    std::vector<Real> lambda, v;
    WarmStart warm;
    Run run{};
    int iterations = 0;
    for (int s = 0; s < steps; ++s) {
      Vec6 u_free = u;
      u_free[2] -= h * g;
      pr.apply_J(u_free.data(), pr.v_free.data());
      const double eta = law.penetration_recovery(0.1);
      for (int k = 0; k < 4; ++k) pr.v_free[3 * k] += gaps[k] >= 0 ? gaps[k] / h : eta * gaps[k] / h;
      SolveStats stats;
      solver.solve(pr, law, warm, *ws, lambda, v, stats);
      REQUIRE(stats.status == SolveStatus::Converged);
      iterations += stats.iterations;
      warm.valid = true;
      warm.lambda = lambda;
      warm.v = v;
      std::vector<Real> f(6), du(6);
      pr.apply_JT(lambda.data(), f.data());
      pr.apply_Minv(f.data(), du.data());
      u = u_free + Eigen::Map<const Vec6>(du.data());
      std::vector<Real> cv(12);
      pr.apply_J(u.data(), cv.data());
      for (int k = 0; k < 4; ++k) gaps[k] += h * cv[3 * k];
      const double gap = 0.25 * (gaps[0] + gaps[1] + gaps[2] + gaps[3]);
      if (s == 0) {
        run.v_n_first = u[2];
        run.v_t_first = std::hypot(u[0], u[1]);
      }
      run.max_gap = std::max(run.max_gap, gap);
      run.gap = gap;
    }
    run.v_t = std::hypot(u[0], u[1]);
    run.v_n = u[2];
    run.mean_iterations = double(iterations) / steps;
    return run;
  };
  CcpModel ccp_law;  // defaults: rho_c = 1e-6, eta = 0.1
  ConvexNewtonSolver newton;
  const Run c = simulate(ccp_law, newton, 250);
  CAPTURE(c.v_n_first);
  CAPTURE(c.v_t_first);
  CAPTURE(c.max_gap);
  CAPTURE(c.gap);
  CAPTURE(c.v_t);
  CAPTURE(c.v_n);
  CAPTURE(c.mean_iterations);
  // Launch: the body's normal velocity after the first step is mu |v_t|.
  CHECK(std::abs(c.v_n_first - mu * c.v_t_first) < 1e-3);
  // Hovering at the end: gap ~ h mu |v_t| (within 5%), normal velocity ~ 0, still sliding.
  CHECK(c.v_t > 0.5);
  CHECK(std::abs(c.gap - h * mu * c.v_t) < 0.05 * h * mu * c.v_t);
  CHECK(std::abs(c.v_n) < 0.05 * mu * c.v_t);
  // De Saxce (padmm) keeps the box on the plane.
  DeSaxceModel desaxce;
  PadmmSolver padmm;
  const Run d = simulate(desaxce, padmm, 250);
  CAPTURE(d.max_gap);
  CAPTURE(d.gap);
  CHECK(d.max_gap < 1e-5);
  CHECK(std::abs(d.gap) < 1e-5);
}
