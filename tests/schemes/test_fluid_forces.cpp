// MuJoCo's inertia-box fluid model (schemes/fluid_forces.hpp): the box of a
// body's inertia, and the drag on a free box in zero gravity against the
// discrete recursion the velocity scheme's explicit force makes of it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/mjcf.hpp"
#include "schemes/fluid_forces.hpp"
#include "sim/simulation.hpp"
#include "support/gradient_checks.hpp"
#include "support/scenes.hpp"

using namespace contactlab;

namespace {

// A 2 kg box of sides 0.2 x 0.4 x 0.6 m, turned so that its principal axes
// are not the world's, in zero gravity, in a medium.
Simulation box_in(const std::string& medium) {
  const std::string xml =
      "<mujoco><option timestep=\"0.001\" gravity=\"0 0 0\" " + medium +
      "/><worldbody><body name=\"b\" euler=\"20 -30 50\"><freejoint/>"
      "<geom type=\"box\" size=\"0.1 0.2 0.3\" mass=\"2\"/></body></worldbody></mujoco>";
  Simulation sim(load_mjcf_string(xml, "fluid.xml"), PartChoice{"desaxce", "padmm", "velocity"});
  sim.reset();
  return sim;
}

}  // namespace

TEST_CASE("fluid forces: the equivalent box of a box's inertia is the box") {
  Simulation sim = box_in("density=\"1000\"");
  const FluidBox box = fluid_box(sim.model().bodies[0]);
  Vec3 sides = box.sides;
  std::sort(sides.data(), sides.data() + 3);
  CHECK(sides[0] == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(sides[1] == doctest::Approx(0.4).epsilon(1e-12));
  CHECK(sides[2] == doctest::Approx(0.6).epsilon(1e-12));
}

TEST_CASE("fluid forces: viscous and quadratic drag follow the scheme's explicit recursion") {
  // Moving along the box's principal axis of side a (and turning about it),
  // the drag has no other component, so with h = 1e-3 the velocity scheme gives
  //   viscous:   v <- v (1 - h 3 pi d mu / m),     w <- w (1 - h pi d^3 mu / I)
  //   quadratic: v <- v - h rho/2 b c |v| v / m,   w <- w - h rho a (b^4 + c^4)/64 |w| w / I
  // (d the mean side). The run matches the recursion to rounding (1e-12).
  for (const char* medium : {"viscosity=\"2\"", "density=\"1000\""}) {
    CAPTURE(medium);
    Simulation sim = box_in(medium);
    const Body& body = sim.model().bodies[0];
    const FluidBox box = fluid_box(body);
    const Mat3 R_WI = sim.data().q_WB[0].toRotationMatrix() * box.R_BI;
    const int i = 0;  // along principal axis 0
    const Real a = box.sides[0], b = box.sides[1], c = box.sides[2], m = body.mass;
    const Real I = (box.R_BI.col(0).transpose() * body.inertia_B * box.R_BI.col(0))(0, 0);
    const Real mu = sim.model().options.viscosity, rho = sim.model().options.density;
    const Real d = (a + b + c) / 3;
    Real v = 1.5, w = 2.0;
    sim.data().v_W[0] = v * R_WI.col(i);
    sim.data().w_W[0] = w * R_WI.col(i);
    const Real h = 1e-3;
    for (int n = 0; n < 500; ++n) {
      sim.step(h);
      v -= h * (3 * kPi * d * mu * v + 0.5 * rho * b * c * std::abs(v) * v) / m;
      w -= h * (kPi * d * d * d * mu * w + rho * a * (std::pow(b, 4) + std::pow(c, 4)) / 64 * std::abs(w) * w) / I;
    }
    CHECK((sim.data().v_W[0] - v * R_WI.col(i)).norm() <= 1e-12);
    CHECK((sim.data().w_W[0] - w * R_WI.col(i)).norm() <= 1e-12);
    CHECK(v < 1.4);  // guard: the medium slowed it
    CHECK(w < 1.9);
  }
}

TEST_CASE("fluid forces: option density and viscosity are read and checked") {
  CHECK(box_in("density=\"1.2\" viscosity=\"1.8e-5\"").model().options.density == 1.2);
  CHECK(box_in("density=\"1.2\" viscosity=\"1.8e-5\"").model().options.viscosity == 1.8e-5);
  CHECK_THROWS_WITH_AS(box_in("density=\"-1\""), doctest::Contains("density"), MjcfError);
  CHECK_THROWS_WITH_AS(box_in("viscosity=\"nan\""), doctest::Contains("viscosity"), MjcfError);
}

TEST_CASE("fluid forces: rollout gradients through the drag match central differences") {
  // fluid_box.xml from its keyframe, 100 steps of 2 ms: the final velocity and
  // spin against the initial ones and the mass (the drag depends on all).
  // No contact or joint row: the step is smooth, so the bound is FD noise,
  // 1e-6 relative (O(eps^2) truncation and ~1e-10 rounding on O(1) values).
  RolloutSpec spec;
  spec.scene = std::string(CONTACTLAB_TEST_DATA) + "/fluid_box.xml";
  spec.model = test::scene_model(spec.scene);
  spec.keyframe = "moving";
  spec.steps = 100;
  const std::string loss = "final:box.vx + 0.5*final:box.wz + final:box.py";
  const std::string wrt = "init:box.vx,init:box.vy,init:box.wz,param:body.box.mass";
  test::check_rollout_gradient(spec, loss, wrt, 1e-6, 1e-6, 1e-3);
}
