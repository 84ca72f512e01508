// Backward Euler (MATH.md A.1): position-level rows hold at q+ (re-evaluated
// at each Newton iterate, with J at q+) and it is refused with linear solvers.
// With J at q+ the step is implicit in the constraint forces and dissipative
// where Newton converges; at large steps Newton does not always converge
// (docs/solvers.md lists where), so stability is only claimed below where it
// was measured.
#include <doctest/doctest.h>

#include "core/metrics.hpp"
#include "core/simulation.hpp"
#include "scenes/mjcf.hpp"
#include "scenes/scene_library.hpp"

using namespace contactlab;

namespace {
Simulation scene(const std::string& name, const std::string& scheme = "backward_euler") {
  return Simulation(load_mjcf_file(resolve_scene(name)), PartChoice{"fischer_burmeister", "newton", scheme});
}
}  // namespace

TEST_CASE("backward_euler: joint rows hold at q+, far tighter than the linearised scheme") {
  for (double h : {0.001, 0.01, 0.05}) {
    CAPTURE(h);
    Simulation be = scene("four_bar"), vel = scene("four_bar", "velocity");
    double be_res = 0, vel_res = 0;
    const int n = static_cast<int>(std::lround(1.0 / h));
    for (int i = 0; i < n; ++i) {
      be.step(h);
      vel.step(h);
      be_res = std::max(be_res, be.data().metrics.joint_violation);
      vel_res = std::max(vel_res, vel.data().metrics.joint_violation);
    }
    // Newton's merit tolerance is 1e-8 m/s on rows c(q+)/h, i.e. 1e-8 h m on c.
    CHECK(be_res < 1e-8);
    CHECK(vel_res > 100 * be_res);  // guard: the linearised scheme drifts
  }
}

TEST_CASE("backward_euler: a pendulum never gains energy (implicit constraint forces)") {
  for (double h : {0.001, 0.01}) {
    CAPTURE(h);
    Simulation sim = scene("pendulum");
    double e_prev = mechanical_energy(sim.model(), sim.data());
    const double e0 = e_prev;
    double rise = -1;
    for (int i = 0; i < static_cast<int>(std::lround(4.0 / h)); ++i) {
      sim.step(h);
      const double e = mechanical_energy(sim.model(), sim.data());
      rise = std::max(rise, e - e_prev);
      e_prev = e;
    }
    // Allowance: Newton's merit tolerance (1e-8 m/s) times the bob's momentum scale.
    CHECK(rise <= 1e-8);
    CHECK(e_prev < e0);  // guard: backward Euler damps the swing
  }
}

TEST_CASE("backward_euler: boxes rest on each other at h = 0.01 and 0.1 s") {
  for (double h : {0.01, 0.1}) {
    CAPTURE(h);
    Simulation sim = scene("stacked_boxes");
    double pen = 0;
    for (int i = 0; i < static_cast<int>(std::lround(1.5 / h)); ++i) {
      sim.step(h);
      pen = std::max(pen, sim.data().metrics.max_penetration);
    }
    const int top = sim.model().find_body("top");
    CHECK(sim.data().origin_position(sim.model(), top).z() == doctest::Approx(0.3).epsilon(1e-6));
    // Gaps are rows at q+: the landing step closes the gap exactly (FB smoothing
    // and solver tolerance are below 1e-7 m at these masses).
    CHECK(pen < 1e-6);
  }
}

TEST_CASE("backward_euler: refused with solvers that do not re-linearise") {
  Model m = load_mjcf_file(resolve_scene("box_ramp"));
  CHECK_THROWS_WITH_AS(Simulation(m, PartChoice{"desaxce", "padmm", "backward_euler"}),
                       doctest::Contains("re-linearises"), std::invalid_argument);
}
