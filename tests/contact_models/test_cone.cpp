// Property tests of the per-contact cone math (contact_models/cone.hpp,
// MATH.md B.2): projections land in their cone, are idempotent, leave a
// residual orthogonal to the projection and in the polar cone, satisfy
// Moreau's decomposition, and are closer to x than any other cone member.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "contact_models/cone.hpp"
#include "contact_models/desaxce.hpp"
#include "core/math.hpp"

using namespace contactlab;

namespace {

constexpr double kTol = 1e-12;  // relative to |x|^2 or |x|: a few ulps of the inputs' size

struct Sample {
  double mu;
  Vec3 x;
};

double norm_t(const Vec3& x) { return std::hypot(x[1], x[2]); }

// ~1000 inputs: random scales and directions, mu in [0, 2] and mu = 0, plus
// points on the cone boundaries, the axis and the origin.
std::vector<Sample> samples() {
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> U(-1, 1), mu_dist(0, 2), log_scale(-3, 3);
  std::vector<Sample> s;
  for (int i = 0; i < 1000; ++i) {
    const double mu = (i % 7 == 0) ? 0.0 : mu_dist(rng);
    Vec3 x(U(rng), U(rng), U(rng));
    x *= std::pow(10.0, log_scale(rng));
    s.push_back({mu, x});
  }
  for (double mu : {0.0, 0.3, 1.0, 2.0}) {
    const double th = 0.7;
    s.push_back({mu, Vec3(1, mu * std::cos(th), mu * std::sin(th))});     // primal boundary
    s.push_back({mu, Vec3(-mu, std::cos(th), std::sin(th))});            // dual-polar boundary
    s.push_back({mu, Vec3(2, 0, 0)});
    s.push_back({mu, Vec3(-2, 0, 0)});
    s.push_back({mu, Vec3(0, 1, -1)});
    s.push_back({mu, Vec3(0, 0, 0)});
  }
  return s;
}

// A random member of K_m = {|y_t| <= m y_n}, on its boundary when edge is set.
Vec3 cone_member(double m, std::mt19937_64& rng, bool edge) {
  std::uniform_real_distribution<double> U(0, 1);
  const double yn = 2 * U(rng), th = 2 * kPi * U(rng), frac = edge ? 1.0 : U(rng);
  return Vec3(yn, frac * m * yn * std::cos(th), frac * m * yn * std::sin(th));
}

// Dual-cone member: {mu |y_t| <= y_n} (for mu = 0 the half-space y_n >= 0).
Vec3 dual_member(double mu, std::mt19937_64& rng, bool edge) {
  std::uniform_real_distribution<double> U(0, 1);
  const double th = 2 * kPi * U(rng), frac = edge ? 1.0 : U(rng);
  if (mu == 0) return Vec3(edge ? 0.0 : U(rng), 3 * (U(rng) - 0.5), 3 * (U(rng) - 0.5));
  const double yn = 2 * U(rng);
  return Vec3(yn, frac * yn / mu * std::cos(th), frac * yn / mu * std::sin(th));
}

Vec3 proj_primal(double mu, Vec3 x) {
  cone::project_primal(mu, x.data());
  return x;
}
Vec3 proj_dual(double mu, Vec3 x) {
  cone::project_dual(mu, x.data());
  return x;
}

}  // namespace

TEST_CASE("cone: primal projection lands in K_mu, is idempotent and optimal") {
  std::mt19937_64 rng(99);
  for (const Sample& s : samples()) {
    CAPTURE(s.mu);
    CAPTURE(s.x.transpose());
    const double scale = 1 + s.x.norm();
    const Vec3 p = proj_primal(s.mu, s.x);
    CHECK(norm_t(p) <= s.mu * p[0] + kTol * scale);  // in K_mu
    CHECK(p[0] >= -kTol * scale);
    CHECK((proj_primal(s.mu, p) - p).norm() <= kTol * scale);  // idempotent
    const Vec3 r = s.x - p;
    CHECK(std::abs(r.dot(p)) <= kTol * scale * scale);  // orthogonal residual
    // The residual lies in the polar cone: <x - Pi(x), y> <= 0 for all y in K,
    // and Pi(x) is at least as close to x as any cone member.
    for (int j = 0; j < 8; ++j) {
      const Vec3 y = cone_member(s.mu, rng, j % 2 == 0);
      CHECK(r.dot(y) <= kTol * scale * (1 + y.norm()));
      CHECK(r.norm() <= (s.x - y).norm() + kTol * scale);
    }
    if (s.x[0] >= 0 && norm_t(s.x) <= s.mu * s.x[0]) CHECK((p - s.x).norm() <= kTol * scale);  // members are fixed points
  }
}

TEST_CASE("cone: dual projection lands in the dual cone of K_mu, is idempotent and optimal") {
  std::mt19937_64 rng(77);
  for (const Sample& s : samples()) {
    CAPTURE(s.mu);
    CAPTURE(s.x.transpose());
    const double scale = 1 + s.x.norm();
    const Vec3 p = proj_dual(s.mu, s.x);
    CHECK(s.mu * norm_t(p) <= p[0] + kTol * scale);  // in K_mu*
    CHECK((proj_dual(s.mu, p) - p).norm() <= kTol * scale);
    const Vec3 r = s.x - p;
    CHECK(std::abs(r.dot(p)) <= kTol * scale * scale);
    for (int j = 0; j < 8; ++j) {
      const Vec3 y = dual_member(s.mu, rng, j % 2 == 0);
      CHECK(r.dot(y) <= kTol * scale * (1 + y.norm()));
      CHECK(r.norm() <= (s.x - y).norm() + kTol * scale);
    }
  }
}

TEST_CASE("cone: members of K_mu and of its dual cone have non-negative inner products") {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> mu_dist(0, 2);
  for (int i = 0; i < 1000; ++i) {
    const double mu = (i % 5 == 0) ? 0.0 : mu_dist(rng);
    const Vec3 a = cone_member(mu, rng, i % 2 == 0), b = dual_member(mu, rng, i % 3 == 0);
    CHECK(a.dot(b) >= -1e-12);
  }
}

TEST_CASE("cone: Moreau decomposition x = Pi_K(x) - Pi_Kdual(-x)") {
  for (const Sample& s : samples()) {
    CAPTURE(s.mu);
    CAPTURE(s.x.transpose());
    const double scale = 1 + s.x.norm();
    const Vec3 pk = proj_primal(s.mu, s.x);
    const Vec3 pd = proj_dual(s.mu, Vec3(-s.x));
    CHECK((s.x - (pk - pd)).norm() <= kTol * scale);
    CHECK(std::abs(pk.dot(pd)) <= kTol * scale * scale);
  }
}

TEST_CASE("cone: closed-form values") {
  // mu = 1: K is self-dual; (0, 1, 0) projects to ((0 + 1)/2)(1, 1, 0).
  CHECK((proj_primal(1.0, Vec3(0, 1, 0)) - Vec3(0.5, 0.5, 0)).norm() < 1e-15);
  CHECK((proj_dual(1.0, Vec3(0, 1, 0)) - Vec3(0.5, 0.5, 0)).norm() < 1e-15);
  // mu = 0.5, x = (1, 3, 4): |x_t| = 5 > 0.5, a = (1 + 2.5)/1.25 = 2.8, x_t -> 0.5 a (3, 4)/5.
  CHECK((proj_primal(0.5, Vec3(1, 3, 4)) - Vec3(2.8, 0.84, 1.12)).norm() < 1e-14);
  // mu = 0: K is the ray x_t = 0, x_n >= 0; K* the half-space x_n >= 0.
  CHECK((proj_primal(0.0, Vec3(2, 1, 1)) - Vec3(2, 0, 0)).norm() == 0);
  CHECK(proj_primal(0.0, Vec3(-1, 1, 1)).norm() == 0);
  CHECK((proj_dual(0.0, Vec3(-1, 2, 3)) - Vec3(0, 2, 3)).norm() == 0);
  CHECK((proj_dual(0.0, Vec3(1, 2, 3)) - Vec3(1, 2, 3)).norm() == 0);
  // Deep in the polar cone of K_mu: 0.
  CHECK(proj_primal(0.5, Vec3(-10, 1, 0)).norm() == 0);
  CHECK(proj_dual(0.5, Vec3(-10, 1, 0)).norm() == 0);
}

TEST_CASE("cone: de Saxce shift") {
  double s[3] = {-1, -1, -1};
  const double v[3] = {-2, 3, 4};
  cone::desaxce_shift(0.5, v, s);
  CHECK(s[0] == doctest::Approx(2.5).epsilon(1e-15));
  CHECK(s[1] == 0);
  CHECK(s[2] == 0);
  cone::desaxce_shift(0.0, v, s);
  CHECK(s[0] == 0);
  // Any v with v_n >= 0 shifts into K*: mu |v_t| <= v_n + mu |v_t|.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> U(-1, 1), mu_dist(0, 2);
  for (int i = 0; i < 200; ++i) {
    const double mu = mu_dist(rng);
    Vec3 w(std::abs(U(rng)), U(rng), U(rng)), g;
    cone::desaxce_shift(mu, w.data(), g.data());
    const Vec3 h = w + g;
    CHECK(mu * norm_t(h) <= h[0] + 1e-14);
  }
  // The batch law matches the per-contact functions.
  DeSaxceModel law;
  const double mu2[2] = {0.3, 1.2};
  double x[6] = {-1, 2, 0.5, 0.2, -3, 1}, y[6], sh[6];
  for (int i = 0; i < 6; ++i) y[i] = x[i];
  law.project_primal(mu2, 2, y);
  law.velocity_shift(mu2, 2, x, sh);
  for (int k = 0; k < 2; ++k) {
    const Vec3 p = proj_primal(mu2[k], Vec3(x[3 * k], x[3 * k + 1], x[3 * k + 2]));
    for (int j = 0; j < 3; ++j) CHECK(y[3 * k + j] == p[j]);
    CHECK(sh[3 * k] == doctest::Approx(mu2[k] * std::hypot(x[3 * k + 1], x[3 * k + 2])));
  }
}
