// Adam through frictional contact: the box of scenes/box_ramp.xml (1 kg,
// mu = 0.5 on the floor) pushed by a constant force F (a one-knot spline)
// for T = 50 steps of h = 0.01 s, to end d = 0.1 m further along x.
// While F > mu m g the box slides from the first step, the friction impulse
// is mu m g h per step, and the velocity scheme's semi-implicit Euler gives
// x_T - x_0 = (F/m - mu g) h^2 T (T + 1) / 2, so the optimum is
// F* = m (mu g + 2 d / (h^2 T (T + 1))) = 5.689314 N.
#include <doctest/doctest.h>

#include <cmath>

#include "optimizers/adam.hpp"
#include "optimizers/control_objective.hpp"
#include "support/scenes.hpp"

using namespace contactlab;

TEST_CASE("adam: box pushed along a frictional floor, against Coulomb sliding in closed form") {
  RolloutSpec spec;
  spec.scene = "box_ramp";
  spec.model = test::scene_model("box_ramp");
  spec.dt = 0.01;
  spec.steps = 50;
  // padmm to 1e-11 so the closed form is compared with the step map, not
  // with the solver's default tolerance (tests/support/tight_solves.hpp's values).
  spec.sets = {"solver.tol_primal=1e-11", "solver.tol_dual=1e-11", "solver.tol_compl=1e-11",
               "solver.max_iterations=2000"};
  const Real m = 1, mu = 0.5, g = 9.81, h = 0.01, T = 50, d = 0.1;
  const Real f_star = m * (mu * g + 2 * d / (h * h * T * (T + 1)));
  const ControlObjective objective(spec, "sumsq:box.pos=0.1,0,0.1", ControlSpline(*spec.model, {"push"}, 1, 50));

  VecX x(1);
  x << f_star;
  // At F*, the box ends at the target: the loss is the squared residual of
  // the closed form (1e-12 m^2 allows a 1e-6 m miss: the solver's 1e-11
  // impulses over 50 steps move the box far less).
  CHECK(objective.evaluate(x, nullptr).loss < 1e-12);

  AdamOptions adam;
  adam.iterations = 150;
  adam.learning_rate = 0.1;  // N per step: from 7 N, ~15 steps to reach F*
  // A shorter memory of the squared gradient than the default 0.999: in one
  // dimension the early, large gradients otherwise shrink the late steps
  // until the run stalls ~1.5 mm short (measured: |F - F*| = 1.4e-2 N).
  adam.beta2 = 0.99;
  adam.cosine_decay = true;
  VecX x0(1);
  x0 << 7.0;
  const OptimiserResult r = adam_minimize(objective.function(), x0, adam);
  MESSAGE("adam box: F = " << r.x[0] << " N, F* = " << f_star << " N, loss " << r.loss << " from "
                           << r.history.front().loss);
  // Success: the box ends within 1 mm of the target. The miss is
  // c |F - F*| with c = h^2 T (T + 1) / (2 m) = 0.1275 m/N, so the force
  // must be within 7.8e-3 N of the closed form (measured: 8e-4 N, 0.1 mm).
  const Real c = h * h * T * (T + 1) / (2 * m);
  CHECK(c * std::abs(r.x[0] - f_star) < 1e-3);
  CHECK(r.loss < 1e-6);  // (1 mm)^2
  CHECK(r.history.front().loss > 1e-2);  // it started 16.7 cm away
}
