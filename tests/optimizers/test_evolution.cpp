// Evolution strategies (optimizers/evolution_strategies.hpp): the centred
// ranks, and the search reducing a smooth rollout loss without gradients.
#include <doctest/doctest.h>

#include <cmath>

#include "optimizers/batch_population.hpp"
#include "optimizers/control_objective.hpp"
#include "optimizers/evolution_strategies.hpp"
#include "support/point_mass.hpp"
#include "support/scenes.hpp"

using namespace contactlab;

TEST_CASE("evolution strategies: centred ranks") {
  const std::vector<Real> r = centred_ranks({3.0, -1.0, 10.0, 2.0, 1e30});
  // Sorted: -1 (rank 0), 2, 3, 10, 1e30 (rank 4): r = rank / 4 - 1/2.
  CHECK(r[1] == -0.5);
  CHECK(r[3] == -0.25);
  CHECK(r[0] == 0.0);
  CHECK(r[2] == 0.25);
  CHECK(r[4] == 0.5);
}

TEST_CASE("evolution strategies: point mass to a target without gradients") {
  // 2 knots per actuator, 30 steps, loss = squared distance to the target.
  const RolloutSpec spec = test::point_mass_spec(30);
  const ControlObjective objective(spec, "sumsq:mass.pos=0.5,-0.3,1", ControlSpline(*spec.model, {}, 2, 30));
  EvolutionOptions es;
  es.iterations = 60;
  es.pairs = 8;
  es.sigma = 1.0;          // N: the optimum's knots are O(10 N)
  es.learning_rate = 1.0;  // N per step
  es.seed = 7;
  const OptimiserResult r = evolution_minimize(objective.function(), VecX::Zero(4), es);
  REQUIRE(r.history.size() == 61);
  MESSAGE("es point mass: loss " << r.loss << " from " << r.history.front().loss << ", " << r.evaluations
                                 << " rollouts");
  CHECK(r.history.front().loss == doctest::Approx(0.34).epsilon(1e-12));
  // The optimum is 0 (a line of knot values reaches the target exactly);
  // ES must bring the loss below 1% of its start in 60 iterations (the
  // measured run ends far lower; a search that did not follow the shaped
  // estimate would not get there with unit steps from 0).
  CHECK(r.loss < 0.01 * r.history.front().loss);
  CHECK(r.evaluations == 60 * 17 + 1);
  // The same seed gives the same search; another seed a different one.
  CHECK(evolution_minimize(objective.function(), VecX::Zero(4), es).x == r.x);
  es.seed = 8;
  CHECK(evolution_minimize(objective.function(), VecX::Zero(4), es).x != r.x);
}

TEST_CASE("evolution strategies: a population on a batch of worlds equals the serial rollouts") {
  // The box of box_ramp pushed through frictional contact (a 3-knot spline),
  // so the batch's worlds solve contact problems; per_world mode is
  // documented bit-identical to independent Simulations (sim/batch.hpp).
  RolloutSpec spec;
  spec.scene = "box_ramp";
  spec.model = test::scene_model("box_ramp");
  spec.dt = 0.01;
  spec.steps = 20;
  ControlObjectiveOptions opt;
  opt.effort_weight = 1e-3;
  const ControlObjective objective(spec, "sumsq:box.pos=0.1,0,0.1", ControlSpline(*spec.model, {"push"}, 3, 20), opt);
  std::vector<VecX> candidates;
  for (int i = 0; i < 6; ++i) candidates.push_back(Vec3(2.0 + i, 7.0 - i, 4.0 + 0.5 * i));
  std::vector<Real> batched;
  const PopulationObjective population = batch_population(objective, 2);
  population(candidates, batched);
  REQUIRE(batched.size() == 6);
  for (int i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(batched[i] == objective.evaluate(candidates[i], nullptr).loss);
  }
  // The losses differ between candidates (the comparison is not vacuous).
  CHECK(batched[0] != batched[5]);
  // A second call resets the worlds: the same answers again.
  std::vector<Real> again;
  population(candidates, again);
  CHECK(again == batched);
  // ES with the batch follows the serial search exactly.
  EvolutionOptions es;
  es.iterations = 5;
  es.pairs = 3;
  es.sigma = 0.5;
  es.learning_rate = 0.2;
  const VecX x0 = Vec3(6, 6, 6);
  CHECK(evolution_minimize(objective.function(), x0, es, {}, population).x ==
        evolution_minimize(objective.function(), x0, es).x);
}
