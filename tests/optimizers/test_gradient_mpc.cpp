// Gradient-based MPC (optimizers/gradient_mpc.hpp) on the contact-free point
// mass of tests/support/point_mass.hpp: re-planning every 0.05 s while the
// plant steps at 0.01 s, it must bring the mass to the target and hold it.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "optimizers/gradient_mpc.hpp"
#include "support/point_mass.hpp"

using namespace contactlab;

namespace {

const char* kLoss = "sumsq:mass.pos=0.5,-0.3,1+0.1*sumsq:mass.vel=0,0,0";

GradientMpcOptions options() {
  GradientMpcOptions o;
  o.horizon = 5;
  o.plan_dt = 0.05;
  o.plant_dt = test::kPointMassStep;
  o.iterations = 20;
  o.blocks = {{"force", {"fx", "fy"}, 5.0}};  // N per iteration, decaying to 0.5 N
  return o;
}

PreparedRollout plant() {
  RolloutSpec spec = test::point_mass_spec(1);
  return prepare_rollout(spec);
}

}  // namespace

TEST_CASE("gradient MPC: a contact-free point mass reaches the target and stays") {
  GradientMpc mpc(test::point_mass_spec(1), kLoss, {}, options());
  PreparedRollout p = plant();
  const MpcRunResult run = run_mpc(mpc, p, 60);  // 3 s of plant time
  REQUIRE(run.cycles.size() == 60);
  const Model& m = p.sim.model();
  const int b = m.find_body("mass");
  const Vec3 x = p.sim.data().origin_position(m, b);
  const Vec3 v = p.sim.data().origin_velocity(m, b);
  // The target is reachable in one horizon (|u| <= 50 N on 2 kg moves 0.78 m
  // in 0.25 s), so the closed loop settles; what is left is the decayed step
  // (0.5 N) over one cycle: about 0.5 / 2 * 0.05^2 / 2 m.
  CHECK((x - Vec3(0.5, -0.3, 1)).norm() < 0.01);
  CHECK(v.norm() < 0.05);
  CHECK(p.sim.data().time == doctest::Approx(3.0));
  // The kept sequence never loses to the warm start it began from.
  for (const MpcCycle& c : run.cycles) CHECK(c.plan_loss <= c.warm_loss);
  // Rollouts per cycle: the warm start, then (iterations + 1) per candidate.
  CHECK(run.cycles[0].rollouts == 1 + 21);
}

TEST_CASE("gradient MPC: the first plan pushes toward the target, and candidates add rollouts") {
  GradientMpcOptions o = options();
  o.candidates = 3;
  o.candidate_noise = 2.0;
  GradientMpc mpc(test::point_mass_spec(1), kLoss, {"fx", "fy"}, o);
  PreparedRollout p = plant();
  MpcCycle c;
  const VecX u = mpc.plan(p.sim.data(), &c);
  REQUIRE(u.size() == 2);
  CHECK(u[0] > 0);  // target at +0.5 m in x
  CHECK(u[1] < 0);  // and -0.3 m in y
  CHECK(c.rollouts == 1 + 3 * 21);
  CHECK(c.best_candidate >= 0);
  CHECK(c.best_candidate < 3);
  // The warm start is the kept plan shifted by one step (last repeated).
  CHECK(mpc.warm_start().rows() == 5);
  CHECK(mpc.warm_start()(3, 0) == mpc.warm_start()(4, 0));
}

TEST_CASE("gradient MPC: bad options are refused with the field named") {
  GradientMpcOptions o = options();
  o.plant_dt = 0.03;
  CHECK_THROWS_WITH_AS(GradientMpc(test::point_mass_spec(1), kLoss, {}, o), doctest::Contains("integer multiple"),
                       std::invalid_argument);
  o = options();
  o.blocks = {{"force", {"fx"}, 5.0}};
  CHECK_THROWS_WITH_AS(GradientMpc(test::point_mass_spec(1), kLoss, {}, o), doctest::Contains("'fy' is in no block"),
                       std::invalid_argument);
  o = options();
  o.horizon = 0;
  CHECK_THROWS_WITH_AS(GradientMpc(test::point_mass_spec(1), kLoss, {}, o), doctest::Contains("horizon"),
                       std::invalid_argument);
  GradientMpc mpc(test::point_mass_spec(1), kLoss, {}, options());
  RolloutSpec spec = test::point_mass_spec(1);
  spec.dt = 0.02;
  PreparedRollout wrong = prepare_rollout(spec);
  CHECK_THROWS_WITH_AS(run_mpc(mpc, wrong, 1), doctest::Contains("plant steps at"), std::invalid_argument);
}
