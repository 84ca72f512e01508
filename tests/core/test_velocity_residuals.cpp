// r_kin and r_v (core/metrics.hpp velocity_residuals): the raw row
// velocities J u+ of the state after the step, checked against velocities
// computed independently from the bodies' twists.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "core/metrics.hpp"
#include "io/scene_library.hpp"
#include "sim/simulation.hpp"

using namespace contactlab;

TEST_CASE("velocity residuals: r_kin is the pendulum pivot's velocity after the step") {
  // A hinge's point rows are the world velocity of the pivot on the child,
  // v + w x (p - x) with the lever arm at the step's start (where J is
  // built); its two axis rows vanish for a planar swing. So r_kin must equal
  // that velocity's largest component, to rounding (1e-12 m/s).
  Simulation sim(load_scene("pendulum"), PartChoice{"desaxce", "padmm", "velocity"});
  Data& d = sim.data();
  const Model& m = sim.model();
  int body = -1;
  for (int b = 0; b < m.num_bodies(); ++b)
    if (!m.bodies[b].fixed) body = b;
  REQUIRE(body >= 0);
  const Joint& jt = m.joints.at(0);
  double largest = 0;
  for (int s = 0; s < 200; ++s) {
    const Vec3 pivot = d.x_W[body] + d.q_WB[body] * (jt.anchor_B - m.bodies[body].com_B);
    const Vec3 lever = pivot - d.x_W[body];
    sim.step(0.005);
    const Vec3 v_pivot = d.v_W[body] + d.w_W[body].cross(lever);
    CHECK(std::abs(d.metrics.r_kin - v_pivot.cwiseAbs().maxCoeff()) <= 1e-12);
    largest = std::max(largest, static_cast<double>(d.metrics.r_kin));
  }
  // Not trivially zero: Baumgarte's bias makes J u+ = -bias while the pivot drifts.
  CHECK(largest > 0);
  CHECK(d.metrics.r_v == 0);  // no contacts
}

TEST_CASE("velocity residuals: r_v of a sliding box is its distance to the dual cone") {
  // A box sliding at speed s with mu = 0.5 has raw contact velocities (0, s)
  // in (normal, tangent): outside K* = {|t| <= n / mu}; the projection onto
  // the cone's edge leaves (-s c, s) / (1 + c^2), c = 1/mu, whose largest
  // component is s max(c, 1) / (1 + c^2) = 0.4 s. The normal velocity is
  // that of a resting contact (|v_n| < 1e-6 m/s with the default tolerances),
  // hence the bound 1e-5 m/s.
  Simulation sim(load_scene("sliding_box"), PartChoice{"desaxce", "padmm", "velocity"});
  sim.reset("init");
  Data& d = sim.data();
  int box = -1;
  for (int b = 0; b < sim.model().num_bodies(); ++b)
    if (!sim.model().bodies[b].fixed) box = b;
  REQUIRE(box >= 0);
  int checked = 0;
  for (int s = 0; s < 300; ++s) {
    sim.step(0.001);
    if (d.metrics.num_contacts == 0) continue;
    const double speed = std::hypot(d.v_W[box].x(), d.v_W[box].y());
    CHECK(std::abs(d.metrics.r_v - 0.4 * speed) <= 1e-5);
    ++checked;
  }
  CHECK(checked > 200);
}
