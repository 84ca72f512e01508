// The residuals every solver is measured with (core/residuals.hpp) and the
// statistics Solver::solve adds around every solver (SolveStats::wall_time_s,
// SolveStats::natural_map).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "contact_models/desaxce.hpp"
#include "core/residuals.hpp"
#include "io/scene_library.hpp"
#include "sim/registry.hpp"
#include "sim/simulation.hpp"

using namespace contactlab;

namespace {

// One contact (mu = 0.5) and one limit row, no bilateral row.
ConstraintProblem one_contact_one_limit() {
  ConstraintProblem p;
  p.num_limit = 1;
  p.num_contacts = 1;
  p.mu = {0.5};
  p.rows.resize(4);  // the layout is all the residuals read
  return p;
}

}  // namespace

TEST_CASE("residuals: the natural map of hand-checked points") {
  const DeSaxceModel law;
  const ConstraintProblem p = one_contact_one_limit();
  ResidualScratch scratch;
  // An exact solution: an active limit (lambda 2, v 0) and a sticking contact
  // inside the cone with zero velocity.
  CHECK(natural_map_residual(p, law, {2, 1, 0.2, 0}, {0, 0, 0, 0}, scratch) == 0);
  // Contact pushing while approaching: lambda - Pi_K(lambda - s) with
  // s = v + Gamma(v) = (-0.5, 0, 0): Pi_K((1.5, 0, 0)) = (1.5, 0, 0), residual 0.5.
  CHECK(natural_map_residual(p, law, {0, 1, 0, 0}, {0, -0.5, 0, 0}, scratch) == doctest::Approx(0.5));
  // A limit row separating with a positive impulse: |l - max(0, l - v)| = min(l, v) = 0.25.
  CHECK(natural_map_residual(p, law, {0.25, 0, 0, 0}, {1, 0, 0, 0}, scratch) == doctest::Approx(0.25));
  // Sliding contact: v_t = (1, 0) gives Gamma = (mu |v_t|, 0, 0); the impulse on
  // the cone's edge opposing the motion, lambda = (1, -0.5, 0), solves the law.
  CHECK(natural_map_residual(p, law, {0, 1, -0.5, 0}, {0, 0, 1, 0}, scratch) == doctest::Approx(0).epsilon(1e-15));
  // natural_map_residual is constraint_residuals' r_vi.
  const ConstraintResiduals all = constraint_residuals(p, law, {0.25, 1, 0, 0}, {1, -0.5, 0, 0}, scratch);
  CHECK(all.r_vi == natural_map_residual(p, law, {0.25, 1, 0, 0}, {1, -0.5, 0, 0}, scratch));
  CHECK(all.r_vi == doctest::Approx(0.5));
}

TEST_CASE("residuals: every solver's statistics carry its solve time and the natural map of its answer") {
  // The common measure must be the metrics' r_vi exactly, for every solver
  // (the step's metrics are computed from the same lambda, v+ and law).
  const Model model = load_scene("stacked_boxes");
  for (const PartInfo& solver : solver_names()) {
    if (!solver.builtin) continue;
    CAPTURE(solver.name);
    const std::string law = solver.name == "newton"          ? "fischer_burmeister"
                            : solver.name == "convex_newton" ? "ccp"
                                                             : "desaxce";
    Simulation sim(model, PartChoice{law, solver.name, "velocity"});
    for (int s = 0; s < 50; ++s) sim.step(model.options.timestep);
    const SolveStats& st = sim.data().solve_stats;
    CHECK(sim.data().metrics.num_contacts > 0);
    CHECK(st.natural_map == sim.data().metrics.r_vi);
    CHECK(std::isfinite(st.natural_map));
    CHECK(st.wall_time_s > 0);
    CHECK(st.wall_time_s < 1);
  }
}
