// The control spline (optimizers/control_spline.hpp): interpolation, linear
// reproduction, clamping and its Jacobian against central differences.
#include <doctest/doctest.h>

#include <cmath>

#include "optimizers/control_spline.hpp"
#include "support/point_mass.hpp"

using namespace contactlab;

TEST_CASE("control spline: interpolates its knots and reproduces a linear ramp") {
  const auto model = test::point_mass_model();
  // 5 knots over 41 steps: knot k at step 10 k.
  const ControlSpline s(*model, {"fx"}, 5, 41);
  VecX knots(5);
  knots << 1.0, -3.0, 4.0, 0.5, 2.0;
  MatX u;
  s.controls(knots, u);
  for (int k = 0; k < 5; ++k) CHECK(u(10 * k, 0) == doctest::Approx(knots[k]).epsilon(1e-14));
  // Between knots a cubic, not the chord: the middle of [1, -3] overshoots
  // the chord's -1 (Catmull-Rom with the ghost 2 P0 - P1 = 5): c(1/2) =
  // (-P_-1 + 9 P0 + 9 P1 - P2) / 16 = (-5 + 9 - 27 - 4) / 16 = -1.6875.
  CHECK(u(5, 0) == doctest::Approx(-1.6875).epsilon(1e-14));
  // Linear knot values give the linear ramp at every step (ghost knots
  // extrapolate linearly), so the basis rows sum to 1 and reproduce s_k.
  VecX ramp(5);
  for (int k = 0; k < 5; ++k) ramp[k] = -2.0 + 0.75 * k;
  s.controls(ramp, u);
  for (long t = 0; t < 41; ++t) CHECK(u(t, 0) == doctest::Approx(-2.0 + 0.075 * t).epsilon(1e-13));
  // One knot: constant.
  const ControlSpline c(*model, {"fy"}, 1, 7);
  VecX one(1);
  one << 3.5;
  c.controls(one, u);
  for (long t = 0; t < 7; ++t) CHECK(u(t, 0) == 3.5);
}

TEST_CASE("control spline: Jacobian against central differences, zero where clamped") {
  const auto model = test::point_mass_model();
  const ControlSpline s(*model, {}, 4, 23);  // both actuators, 8 parameters
  REQUIRE(s.num_parameters() == 8);
  VecX knots(8);
  // fy's knots reach past the +-50 N range: some of its steps are clamped.
  knots << 1.0, -2.0, 3.0, 0.5, 10.0, 70.0, -65.0, 20.0;
  const MatX jac = s.jacobian(knots);
  // The map is piecewise linear, so central differences are exact up to
  // rounding (eps 1e-6 on O(100) values: ~1e-8 absolute); no step's raw
  // control lies within eps of a bound here (checked below).
  const Real eps = 1e-6;
  MatX up, um;
  MatX fd(jac.rows(), jac.cols());
  for (int j = 0; j < 8; ++j) {
    VecX p = knots, m = knots;
    p[j] += eps;
    m[j] -= eps;
    s.controls(p, up);
    s.controls(m, um);
    for (long t = 0; t < 23; ++t)
      for (int a = 0; a < 2; ++a) fd(t * 2 + a, j) = (up(t, a) - um(t, a)) / (2 * eps);
  }
  CHECK((jac - fd).cwiseAbs().maxCoeff() < 1e-7);
  // Clamped steps exist and have zero rows; unclamped rows are the basis.
  MatX u;
  s.controls(knots, u);
  int clamped = 0;
  for (long t = 0; t < 23; ++t) {
    if (std::abs(u(t, 1)) == 50.0) {
      ++clamped;
      CHECK(jac.row(t * 2 + 1).cwiseAbs().maxCoeff() == 0.0);
    } else {
      CHECK(jac.row(t * 2 + 1).cwiseAbs().maxCoeff() > 0.0);
    }
  }
  CHECK(clamped >= 4);
  // pull_back is J^T applied to a cotangent.
  MatX u_bar(23, 2);
  for (long t = 0; t < 23; ++t) u_bar(t, 0) = std::sin(0.3 * t), u_bar(t, 1) = std::cos(0.7 * t);
  VecX flat(46);
  for (long t = 0; t < 23; ++t) flat[2 * t] = u_bar(t, 0), flat[2 * t + 1] = u_bar(t, 1);
  VecX g;
  s.pull_back(knots, u_bar, g);
  CHECK((g - jac.transpose() * flat).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("control spline: bad arguments name themselves") {
  const auto model = test::point_mass_model();
  CHECK_THROWS_WITH_AS(ControlSpline(*model, {"nope"}, 3, 10), doctest::Contains("unknown actuator 'nope'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ControlSpline(*model, {}, 0, 10), doctest::Contains("knots must be >= 1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ControlSpline(*model, {}, 11, 10), doctest::Contains("at most one knot per step"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ControlSpline(*model, {"fx", "fx"}, 2, 10), doctest::Contains("given twice"),
                       std::invalid_argument);
  const ControlSpline s(*model, {}, 3, 10);
  MatX u;
  CHECK_THROWS_WITH_AS(s.controls(VecX::Zero(5), u), doctest::Contains("5 knot values, expected 6"),
                       std::invalid_argument);
}
