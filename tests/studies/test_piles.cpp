// The pile scenes of bench-scale (studies/piles.hpp) and the exponent fit.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "io/mjcf.hpp"
#include "studies/piles.hpp"
#include "studies/scale_bench.hpp"

using namespace contactlab;

TEST_CASE("piles: every shape and size loads with N moving bodies and no overlapping bounding spheres at t = 0") {
  for (const PileShape shape : {PileShape::Box, PileShape::Capsule, PileShape::Sphere}) {
    for (const int n : {1, 4, 16, 64, 256}) {
      CAPTURE(pile_shape_name(shape));
      CAPTURE(n);
      PileSpec spec;
      spec.shape = shape;
      spec.bodies = n;
      const Pile pile = make_pile(spec);
      REQUIRE(static_cast<int>(pile.bodies.size()) == n);
      std::vector<std::string> warnings;
      const Model m = load_mjcf_string(pile.xml, "pile", &warnings);
      int moving = 0;
      for (const Body& b : m.bodies) moving += b.fixed ? 0 : 1;
      CHECK(moving == n);
      CHECK(m.options.timestep == doctest::Approx(0.002));
      CHECK(static_cast<int>(m.geoms.size()) == n + 1);  // the floor and one geom per body
      // Positions as the reader placed them, radii as generated.
      double lowest = 1e9;
      for (int i = 0; i < n; ++i) {
        const PileBody& bi = pile.bodies[i];
        const Vec3 pi = m.bodies[i].pos0_W;
        CHECK(pi.x() == doctest::Approx(bi.pos[0]));
        CHECK(pi.z() == doctest::Approx(bi.pos[2]));
        lowest = std::min(lowest, pi.z() - bi.bounding_radius);
        for (int j = i + 1; j < n; ++j) {
          const double d = (pi - m.bodies[j].pos0_W).norm();
          CHECK(d > bi.bounding_radius + pile.bodies[j].bounding_radius);
        }
        CHECK(bi.bounding_radius <= 0.1 * std::sqrt(3.0) + 1e-12);
      }
      CHECK(lowest > 0);  // above the plane: dropped onto it
      if (n >= 16) CHECK(pile.tallest_column >= 2);  // some islands hold several bodies
    }
  }
}

TEST_CASE("piles: the same seed gives the same text, another seed another pile") {
  PileSpec a;
  a.shape = PileShape::Capsule;
  a.bodies = 64;
  a.seed = 7;
  PileSpec b = a;
  CHECK(make_pile(a).xml == make_pile(b).xml);
  b.seed = 8;
  CHECK(make_pile(a).xml != make_pile(b).xml);
  CHECK_THROWS_AS(make_pile(PileSpec{PileShape::Box, 0}), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_pile_shape("cone"), doctest::Contains("cone"), std::invalid_argument);
}

TEST_CASE("scale fit: an exact power law gives its exponent, too few points give NaN") {
  const std::vector<double> x = {10, 40, 160, 640};
  std::vector<double> y;
  for (double v : x) y.push_back(3e-6 * std::pow(v, 1.7));
  int used = 0;
  CHECK(fit_log_log_slope(x, y, &used) == doctest::Approx(1.7).epsilon(1e-12));
  CHECK(used == 4);
  // Non-positive or non-finite points are left out.
  std::vector<double> x2 = x, y2 = y;
  x2.push_back(0);
  y2.push_back(1);
  y2[1] = std::nan("");
  CHECK(fit_log_log_slope(x2, y2, &used) == doctest::Approx(1.7).epsilon(1e-12));
  CHECK(used == 3);
  CHECK(std::isnan(fit_log_log_slope({5}, {2}, &used)));
  CHECK(std::isnan(fit_log_log_slope({5, 5}, {2, 3})));

  // scale_exponents: per shape and combination, bodies >= 16 that finished.
  std::vector<ScaleRun> runs;
  const int bodies[] = {4, 16, 64, 256};
  for (int i = 0; i < 4; ++i) {
    ScaleRun r;
    r.shape = "box";
    r.combo = "c";
    r.bodies = bodies[i];
    r.status = i == 3 ? "time_limit" : "ok";
    r.mean_contacts = 4.0 * bodies[i];
    r.wall_per_step_s = i == 0 ? 1.0 : 2e-7 * std::pow(r.mean_contacts, 2.5);
    runs.push_back(r);
  }
  const std::vector<ScaleExponent> e = scale_exponents(runs, 16);
  REQUIRE(e.size() == 1);
  CHECK(e[0].points == 2);
  CHECK(e[0].exponent == doctest::Approx(2.5).epsilon(1e-12));
}
