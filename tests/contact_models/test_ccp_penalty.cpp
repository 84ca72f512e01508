// CCP's convex primal penalty through the ContactModel interface
// (ContactModel::convex_penalty and friends, what convex_newton and its
// Hessian adjoint call; contact_models/ccp_zones.hpp per contact): several
// contacts of every zone in one call, gradient (= -lambda) and Hessian
// against central differences, the line-search form against differences
// along the direction, the middle zone's Hessian from the impulse,
// d lambda/d mu at fixed r against differences in mu, zones as modes.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "contact_models/ccp.hpp"
#include "contact_models/desaxce.hpp"
#include "core/contact_model.hpp"

using namespace contactlab;

namespace {

using Mat3R = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

// A point of `mode`'s zone (separating = top, sticking = bottom, sliding =
// middle) well inside it.
Vec3 point_in(ContactMode mode, double mu, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  const double th = 2 * kPi * U(rng), t = 0.2 + U(rng), a = 0.1 + U(rng);
  const Vec3 dir(0, std::cos(th), std::sin(th));
  double rn = 0;
  if (mode == ContactMode::Separating) rn = mu * t + a;
  if (mode == ContactMode::Sticking) rn = -t / mu - a;
  if (mode == ContactMode::Sliding) {
    const double lo = mu > 0 ? -t / mu : -2.0, hi = mu * t, f = 0.1 + 0.8 * U(rng);
    rn = lo + f * (hi - lo);
  }
  return Vec3(rn, 0, 0) + t * dir;
}

struct Eval {
  double cost = 0;
  VecX lambda;
  VecX H;  // (9 nc) row-major blocks
};

Eval eval(const ContactModel& law, const VecX& mu, const VecX& rho, const VecX& r) {
  const int nc = static_cast<int>(mu.size());
  Eval e;
  e.lambda.resize(3 * nc);
  e.H.resize(9 * nc);
  law.convex_penalty(mu.data(), nc, rho.data(), r.data(), &e.cost, e.lambda.data(), e.H.data());
  return e;
}

struct Problem {
  VecX mu, rho, r;
  std::vector<ContactMode> zone;
};

// nc contacts, each zone in turn (sticking only where mu > 0), rho per contact on its three rows.
Problem problem(int nc, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> U(0, 1);
  Problem p;
  p.mu.resize(nc);
  p.rho.resize(3 * nc);
  p.r.resize(3 * nc);
  for (int k = 0; k < nc; ++k) {
    p.mu[k] = k % 4 == 3 ? 0.0 : 0.05 + 1.95 * U(rng);
    ContactMode z = ContactMode(k % 3);
    if (z == ContactMode::Sticking && p.mu[k] == 0) z = ContactMode::Sliding;  // the bottom zone is empty at mu = 0
    p.zone.push_back(z);
    p.rho.segment<3>(3 * k).setConstant(std::pow(10.0, -3 + 3 * U(rng)));
    p.r.segment<3>(3 * k) = point_in(z, p.mu[k], rng);
  }
  return p;
}

}  // namespace

TEST_CASE("ccp penalty: zones, gradient and Hessian of the batch match central differences") {
  const CcpModel law;
  REQUIRE(law.has_convex_penalty());
  std::mt19937_64 rng(5);
  const double h = 1e-6;
  for (int trial = 0; trial < 20; ++trial) {
    const int nc = 8;
    const Problem p = problem(nc, rng);
    std::vector<ContactMode> zones(nc);
    law.convex_penalty_zones(p.mu.data(), nc, p.r.data(), zones.data());
    for (int k = 0; k < nc; ++k) CHECK(zones[k] == p.zone[k]);
    const Eval e = eval(law, p.mu, p.rho, p.r);
    // The cost is the sum over contacts; each contact's lambda and H depend on its r only.
    double sum = 0;
    for (int k = 0; k < nc; ++k) {
      const Eval ek = eval(law, p.mu.segment<1>(k), p.rho.segment<3>(3 * k), p.r.segment<3>(3 * k));
      sum += ek.cost;
      CHECK((ek.lambda - e.lambda.segment<3>(3 * k)).isZero(0));
      CHECK((ek.H - e.H.segment<9>(9 * k)).isZero(0));
    }
    CHECK(e.cost == doctest::Approx(sum).epsilon(1e-15));
    for (int k = 0; k < nc; ++k) {
      CAPTURE(k);
      CAPTURE(std::string(to_string(p.zone[k])));
      const double scale = 1 / p.rho[3 * k];  // lambda ~ |r|/rho, H ~ 1/rho
      const Eigen::Map<const Mat3R> H(e.H.data() + 9 * k);
      for (int j = 0; j < 3; ++j) {
        VecX rp = p.r, rm = p.r;
        rp[3 * k + j] += h;
        rm[3 * k + j] -= h;
        const Eval ep = eval(law, p.mu, p.rho, rp), em = eval(law, p.mu, p.rho, rm);
        CHECK(std::abs((ep.cost - em.cost) / (2 * h) + e.lambda[3 * k + j]) <= 1e-6 * scale);  // dl/dr = -lambda
        const Vec3 col = -(ep.lambda.segment<3>(3 * k) - em.lambda.segment<3>(3 * k)) / (2 * h);
        CHECK((col - H.col(j)).lpNorm<Eigen::Infinity>() <= 1e-6 * scale);
      }
      if (p.zone[k] != ContactMode::Separating) CHECK(H(0, 0) > 0);  // guard
    }
  }
}

TEST_CASE("ccp penalty: the line-search form is the penalty along r + a s with its two derivatives") {
  const CcpModel law;
  std::mt19937_64 rng(9);
  std::normal_distribution<double> N(0, 1);
  const int nc = 6;
  for (int trial = 0; trial < 10; ++trial) {
    const Problem p = problem(nc, rng);
    VecX s(3 * nc);
    for (int i = 0; i < 3 * nc; ++i) s[i] = 1e-3 * N(rng);  // stays inside the zones for |a| <= 2
    for (double a : {0.0, 0.5, 2.0}) {
      CAPTURE(a);
      double pen = 1.5, dpen = -0.25, d2pen = 0.75;  // the form accumulates into its arguments
      law.convex_penalty_along(p.mu.data(), nc, p.rho.data(), p.r.data(), s.data(), a, &pen, &dpen, &d2pen);
      const VecX x = p.r + a * s;
      const Eval e = eval(law, p.mu, p.rho, x);
      CHECK(pen - 1.5 == doctest::Approx(e.cost).epsilon(1e-13));
      const double h = 1e-4;
      double pp = 0, dp = 0, d2p = 0, pm = 0, dm = 0, d2m = 0;
      law.convex_penalty_along(p.mu.data(), nc, p.rho.data(), p.r.data(), s.data(), a + h, &pp, &dp, &d2p);
      law.convex_penalty_along(p.mu.data(), nc, p.rho.data(), p.r.data(), s.data(), a - h, &pm, &dm, &d2m);
      // Sizes: dpen ~ |lambda| |s| <= |s| / rho, d2pen ~ |s|^2 / rho.
      const double srho = s.lpNorm<Eigen::Infinity>() / p.rho.minCoeff();
      CHECK(std::abs((pp - pm) / (2 * h) - (dpen + 0.25)) <= 1e-6 * srho);
      CHECK(std::abs((dp - dm) / (2 * h) - (d2pen - 0.75)) <= 1e-6 * srho * s.lpNorm<Eigen::Infinity>());
      CHECK(d2pen - 0.75 > 0);  // guard: a curved penalty along s
    }
  }
}

TEST_CASE("ccp penalty: the middle zone's Hessian from the impulse, d lambda/d mu at fixed r") {
  const CcpModel law;
  std::mt19937_64 rng(3);
  const int nc = 9;
  const Problem p = problem(nc, rng);
  const Eval e = eval(law, p.mu, p.rho, p.r);
  // With the impulse the penalty itself gives, the Hessian from the impulse
  // is the penalty's Hessian (to rounding); other zones are left untouched.
  VecX H(9 * nc);
  H.setConstant(7.0);
  law.convex_penalty_hessian_from_impulse(p.mu.data(), nc, p.rho.data(), p.r.data(), e.lambda.data(), H.data());
  for (int k = 0; k < nc; ++k) {
    CAPTURE(k);
    if (p.zone[k] == ContactMode::Sliding) {
      const double scale = e.H.segment<9>(9 * k).lpNorm<Eigen::Infinity>();
      CHECK((H.segment<9>(9 * k) - e.H.segment<9>(9 * k)).lpNorm<Eigen::Infinity>() <= 1e-12 * scale);
    } else {
      CHECK((H.segment<9>(9 * k).array() == 7.0).all());
    }
  }
  // d lambda/d mu at fixed r against central differences of lambda in mu
  // (zero in the top and bottom zones).
  VecX out(3 * nc), from_r(3 * nc);
  law.convex_impulse_mu_derivative(p.mu.data(), nc, p.rho.data(), p.r.data(), e.lambda.data(), out.data());
  law.convex_impulse_mu_derivative(p.mu.data(), nc, p.rho.data(), p.r.data(), nullptr, from_r.data());
  const double h = 1e-7;
  int sliding = 0;
  for (int k = 0; k < nc; ++k) {
    CAPTURE(k);
    VecX mp = p.mu, mm = p.mu;
    mp[k] += h;
    mm[k] -= h;
    const Vec3 fd = (eval(law, mp, p.rho, p.r).lambda.segment<3>(3 * k) - eval(law, mm, p.rho, p.r).lambda.segment<3>(3 * k)) /
                    (2 * h);
    const double scale = 1 / p.rho[3 * k];
    CHECK((out.segment<3>(3 * k) - fd).lpNorm<Eigen::Infinity>() <= 1e-6 * scale);
    CHECK((out.segment<3>(3 * k) - from_r.segment<3>(3 * k)).lpNorm<Eigen::Infinity>() <= 1e-12 * scale);
    if (p.zone[k] == ContactMode::Sliding && p.mu[k] > 0) {
      ++sliding;
      CHECK(out.segment<3>(3 * k).lpNorm<Eigen::Infinity>() > 1e-2 * scale);  // guard
    } else if (p.zone[k] != ContactMode::Sliding) {
      CHECK(out.segment<3>(3 * k).isZero(0));
    }
  }
  CHECK(sliding >= 2);
}

TEST_CASE("ccp penalty: only laws with the capability have it") {
  const CcpModel ccp;
  const DeSaxceModel desaxce;
  CHECK(ccp.has_convex_penalty());
  CHECK_FALSE(desaxce.has_convex_penalty());
  const double mu = 0.5, rho[3] = {1, 1, 1}, r[3] = {-1, 0, 0};
  double cost = 0, lambda[3], H[9];
  CHECK_THROWS_AS(desaxce.convex_penalty(&mu, 1, rho, r, &cost, lambda, H), std::logic_error);
  ContactMode zone;
  CHECK_THROWS_WITH_AS(desaxce.convex_penalty_zones(&mu, 1, r, &zone),
                       "contact law 'desaxce' has no convex primal penalty (ContactModel::has_convex_penalty)",
                       std::logic_error);
  ccp.convex_penalty_zones(&mu, 1, r, &zone);
  CHECK(zone == ContactMode::Sticking);
}
