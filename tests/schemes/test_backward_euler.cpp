// Backward Euler (MATH.md A.1): position-level rows hold at q+ (re-evaluated
// at each Newton iterate) and it is refused with linear solvers. By default
// the impulses act along the rows' derivative at q+ (fully implicit and
// dissipative where Newton converges); scheme.jacobian_at_q_plus=false gives
// Ostrich's J(q-). Stability is claimed below only where it was measured
// (docs/solvers.md has the table and commands).
#include <doctest/doctest.h>

#include "core/metrics.hpp"
#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/simulation.hpp"

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
  // Up to h = 0.1 s: a 1e-4 kg m^2 bob on a 1 m lever turns 0.1 rad per step,
  // which Newton handles only with the exponential map's derivative in J.
  for (double h : {0.001, 0.01, 0.05, 0.1}) {
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
    CHECK(sim.data().solve_stats.status == SolveStatus::Converged);
  }
}

TEST_CASE("backward_euler: with Ostrich's J(q-) a pendulum's energy oscillates within O(h), without drift") {
  // J(q-) makes the constraint impulse lag the rod by a step: energy is not
  // monotone (measured: +-1.6 % of the swing energy at h = 0.01 s, +-0.16 % at
  // 1 ms, over 40 s), and that band shrinks with h. Bounds: 2x the measured band.
  for (double h : {0.001, 0.01}) {
    CAPTURE(h);
    Simulation sim = scene("pendulum");
    sim.set_option("scheme.jacobian_at_q_plus=false");
    const double e0 = mechanical_energy(sim.model(), sim.data());
    double band = 0;
    for (int i = 0; i < static_cast<int>(std::lround(40.0 / h)); ++i) {
      sim.step(h);
      band = std::max(band, std::abs(mechanical_energy(sim.model(), sim.data()) - e0));
    }
    CAPTURE(band / e0);
    CHECK(band <= 2 * 1.6 * h * e0);
    CHECK(band > 0.1 * h * e0);  // guard: the lag is there (not the q+ variant)
  }
}

namespace {
struct PalletRun {
  double final_x = 0, final_y = 0, wheel_speed = 0, max_penetration = 0;
  double top_z[3] = {0, 0, 0};  // highest wheel centre while over the step (1.0 < x < 2.2)
};

PalletRun drive_pallet(double h, bool jacobian_at_q_plus) {
  Simulation sim = scene("wheeled_pallet");
  sim.set_option(std::string("scheme.jacobian_at_q_plus=") + (jacobian_at_q_plus ? "true" : "false"));
  const Model& m = sim.model();
  const int chassis = m.find_body("chassis");
  const int wheels[3] = {m.find_body("wheel_left"), m.find_body("wheel_right"), m.find_body("wheel_rear")};
  PalletRun run;
  for (int i = 0; i < static_cast<int>(std::lround(10.0 / h)); ++i) {
    sim.apply_scheduled_controls();
    sim.step(h);  // throws if the state turns non-finite
    run.max_penetration = std::max(run.max_penetration, sim.data().metrics.max_penetration);
    for (int w = 0; w < 3; ++w) {
      const Vec3 x = sim.data().origin_position(m, wheels[w]);
      if (x.x() > 1.0 && x.x() < 2.2) run.top_z[w] = std::max(run.top_z[w], x.z());
    }
  }
  const Vec3 x = sim.data().origin_position(m, chassis);
  run.final_x = x.x();
  run.final_y = x.y();
  run.wheel_speed = sim.data().w_W[wheels[0]].y();
  return run;
}
}  // namespace

TEST_CASE("backward_euler: wheeled_pallet climbs the step and drives on at h = 0.1 and 0.05 s") {
  // The forward-matrix issue's large-step case, at Newton's default 16 x 16 budget.
  for (bool at_q_plus : {true, false}) {
    for (double h : {0.1, 0.05}) {
      CAPTURE(at_q_plus);
      CAPTURE(h);
      const PalletRun run = drive_pallet(h, at_q_plus);
      // Every wheel rides on top of the 0.144 m step: centre at 0.144 + 0.35
      // (1 cm allowance for the penetration large steps leave on impact).
      for (double z : run.top_z) CHECK(z >= 0.494 - 0.01);
      // After the step it rolls without slip at the commanded 3 rad/s: the
      // velocity servo's steady state is exact in both variants.
      CHECK(run.wheel_speed == doctest::Approx(3.0).epsilon(1e-3));
      // 10 s at 1.05 m/s less what climbing costs: the fine-step velocity
      // scheme ends at 10.17 m; measured here 10.14-10.28 m. Bound: +-0.3 m.
      CHECK(run.final_x == doctest::Approx(10.17).epsilon(0.03));
      CHECK(std::abs(run.final_y) < 0.2);     // it drives straight (measured < 0.07 m)
      CHECK(run.max_penetration < 0.05);      // measured 0.011 m at most
    }
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
