// Quaternion integration and the small geometry helpers of core/math.hpp.
#include <doctest/doctest.h>

#include <random>

#include "core/math.hpp"

using namespace contactlab;

TEST_CASE("math: quaternion integration is exact for a constant angular velocity") {
  // q(t) = exp(t w/2) q0 in closed form; integrating in n steps must give the
  // same rotation for any n (the exponential map composes exactly for a fixed axis).
  const Vec3 w(0.3, -1.2, 2.0);
  const Quat q0(Eigen::AngleAxis<Real>(0.7, Vec3(1, 2, 3).normalized()));
  const Real T = 1.7;
  const Quat exact = Quat(Eigen::AngleAxis<Real>(w.norm() * T, w.normalized())) * q0;
  for (int n : {1, 7, 1000}) {
    Quat q = q0;
    for (int i = 0; i < n; ++i) q = integrate_quaternion(q, w, T / n);
    CAPTURE(n);
    CHECK(q.angularDistance(exact) < 1e-12);
    CHECK(std::abs(q.norm() - 1) < 1e-14);
  }
  // Guard: a wrong (body-frame) multiplication order is detected.
  const Quat wrong = q0 * Quat(Eigen::AngleAxis<Real>(w.norm() * T, w.normalized()));
  CHECK(wrong.angularDistance(exact) > 1e-3);
}

TEST_CASE("math: quaternion integration matches the kinematic ODE q' = 1/2 (0, w) q") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> U(-2, 2);
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 w(U(rng), U(rng), U(rng));
    const Quat q(Eigen::AngleAxis<Real>(U(rng), Vec3(U(rng), U(rng), U(rng)).normalized()));
    const Real h = 1e-6;
    const Quat q1 = integrate_quaternion(q, w, h);
    const Quat wq = Quat(0, w.x(), w.y(), w.z()) * q;
    for (int i = 0; i < 4; ++i) CHECK((q1.coeffs()[i] - q.coeffs()[i]) / h == doctest::Approx(0.5 * wq.coeffs()[i]).epsilon(1e-5));
  }
}

TEST_CASE("math: quaternion log inverts the exponential map, tangent basis is orthonormal") {
  std::mt19937 rng(9);
  std::uniform_real_distribution<Real> U(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    Vec3 phi(U(rng), U(rng), U(rng));
    phi *= 3.0 * std::abs(U(rng)) / std::max(phi.norm(), Real(1e-9));  // |phi| < 3 < pi
    const Quat q(Eigen::AngleAxis<Real>(phi.norm(), phi.normalized()));
    CHECK((quaternion_log(q) - phi).norm() < 1e-12);
    CHECK((quaternion_log(Quat(-q.coeffs())) - phi).norm() < 1e-12);  // double cover
    const Vec3 n = Vec3(U(rng), U(rng), U(rng)).normalized();
    Vec3 t1, t2;
    tangent_basis(n, t1, t2);
    CHECK(std::abs(t1.dot(n)) < 1e-14);
    CHECK(std::abs(t1.norm() - 1) < 1e-14);
    CHECK((n.cross(t1) - t2).norm() < 1e-14);  // right-handed (n, t1, t2)
  }
  CHECK(skew(Vec3(1, 2, 3)) * Vec3(-1, 0.5, 2) == Vec3(1, 2, 3).cross(Vec3(-1, 0.5, 2)));
}
