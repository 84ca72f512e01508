// Newton (fischer_burmeister) reaches its tolerance on every step of the
// built-in scenes where it is claimed to (docs/solvers.md, "Convergence on the
// scenes"), each at its own step and duration with the default budget. The
// scenes that still end steps unconverged (box_ramp, wheeled_pallet) are
// listed there with their counts; here they get the regression bounds of what
// was fixed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/simulation.hpp"

using namespace contactlab;

namespace {

struct NewtonRun {
  long steps = 0;
  long unconverged = 0;
  double worst_residual = 0;  // SolveStats::r_primal of the worst step (m/s)
  double max_penetration = 0;
  double final_y = 0;  // of the first body (m)
};

NewtonRun run_newton(const std::string& scene, const std::string& scheme, double h, double duration,
                     const std::vector<std::string>& sets = {}) {
  Simulation sim(load_mjcf_file(resolve_scene(scene)), PartChoice{"fischer_burmeister", "newton", scheme});
  for (const auto& s : sets) sim.set_option(s);
  NewtonRun run;
  const long n = std::lround(duration / h);
  for (long i = 0; i < n; ++i) {
    sim.apply_scheduled_controls();
    sim.step(h);
    ++run.steps;
    if (!sim.data().metrics.converged) ++run.unconverged;
    run.worst_residual = std::max(run.worst_residual, static_cast<double>(sim.data().solve_stats.r_primal));
    run.max_penetration = std::max(run.max_penetration, static_cast<double>(sim.data().metrics.max_penetration));
  }
  run.final_y = sim.data().origin_position(sim.model(), 0).y();
  return run;
}

// Scene, its own step (s) and duration (s).
struct SceneStep {
  const char* scene;
  double h, duration;
};

}  // namespace

TEST_CASE("newton convergence: zero unconverged steps on the scenes it solves (velocity scheme)") {
  const SceneStep cases[] = {
      {"bouncing_ball", 0.001, 3},  {"cart_pole", 0.01, 2},      {"four_bar", 0.0025, 2},
      {"incline_box", 0.001, 2},    {"incline_sphere", 0.001, 1}, {"pendulum", 0.001, 4},
      {"sliding_box", 0.001, 1},    {"stacked_boxes", 0.001, 1},
  };
  for (const SceneStep& c : cases) {
    CAPTURE(c.scene);
    const NewtonRun run = run_newton(c.scene, "velocity", c.h, c.duration);
    CAPTURE(run.worst_residual);
    CHECK(run.steps == std::lround(c.duration / c.h));
    CHECK(run.unconverged == 0);
  }
}

TEST_CASE("newton convergence: sliding_box needed the per-contact tolerance") {
  // Guard that the scene above tests something: with one bound for the whole
  // problem steps end above 1e-8 m/s (measured 40 of 1000).
  const NewtonRun whole = run_newton("sliding_box", "velocity", 0.001, 1, {"solver.tolerance_per_contact=false"});
  CHECK(whole.unconverged > 0);
}

TEST_CASE("newton convergence: wheeled_pallet at h = 2 ms drives straight and does not sink") {
  // The old solver (both options below off) stalled on most steps and the
  // pallet veered off (y = -3.5 m after 6 s) with wheels 0.3 m in the floor.
  // Measured now: y = 0.000 m, no penetration; steps still end unconverged
  // (docs/solvers.md lists them), so only the trajectory is asserted.
  const std::vector<std::string> old = {"solver.pin_unloaded_friction=false", "solver.tolerance_per_contact=false"};
  const NewtonRun now = run_newton("wheeled_pallet", "velocity", 0.002, 6);
  const NewtonRun before = run_newton("wheeled_pallet", "velocity", 0.002, 6, old);
  CAPTURE(now.unconverged);
  CAPTURE(before.unconverged);
  CHECK(now.max_penetration < 1e-4);
  CHECK(std::abs(now.final_y) < 0.05);
  // Guard: the options are what fixed the stalls. (With the searched
  // box-cylinder pair, the old options also sank the wheels 0.30 m and veered
  // to y = -3.5 m; since its minimisers are exact (geometry/argmin_pullback.hpp)
  // the old options drive straight too, 1401 unconverged steps, no
  // penetration: the sinking came from the pair's jitter, so it is no longer
  // asserted here; docs/geometry.md.)
  CHECK(now.unconverged < before.unconverged);
}
