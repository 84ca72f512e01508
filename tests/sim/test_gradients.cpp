// Rollout gradients (sim/rollout.hpp) against central finite differences
// of the same forward runs (sim/gradcheck.hpp). The forward solves are
// tightened (tolerances 1e-12) so that the finite differences measure the
// derivative of the exact step map, which is what the implicit-function
// adjoint computes; at the default 1e-6 solver tolerances FD noise is ~1e-4
// relative (docs/gradients.md). Each case guards that the gradient is non-zero
// and not bit-identical to the finite difference (it is not computed by one).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "sim/gradcheck.hpp"
#include "sim/rollout.hpp"
#include "support/cli.hpp"
#include "support/scenes.hpp"

using namespace contactlab;
using test_cli::CliResult;
using test_cli::run_binary;

namespace {

std::vector<std::string> tight(const std::string& solver) {
  if (solver == "padmm")
    return {"solver.tol_primal=1e-12", "solver.tol_dual=1e-12", "solver.tol_compl=1e-12", "solver.max_iterations=5000"};
  if (solver == "pgs") return {"solver.tolerance=1e-12", "solver.max_iterations=20000"};
  return {"solver.tolerance=1e-12", "solver.newton_iterations=200", "solver.pcr_iterations=64"};
}

struct Checked {
  GradientResult analytic;
  std::vector<Real> fd;
};

Checked check(const RolloutSpec& spec, const std::string& loss, const std::string& wrt, double tol,
              const StepAdjointOptions& options = {}, double eps = 1e-6) {
  Checked c;
  c.analytic = rollout_gradient(spec, loss, wrt, options);
  PreparedRollout r = prepare_rollout(spec);
  const auto inputs = parse_grad_inputs(wrt, r.sim.model());
  c.fd = finite_difference_gradient(spec, loss, inputs, eps);
  bool any_nonzero = false, any_differs = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    CAPTURE(inputs[i].text);
    const double a = c.analytic.gradient[i], f = c.fd[i];
    CAPTURE(a);
    CAPTURE(f);
    CHECK(std::isfinite(a));
    // Entries that vanish to FD accuracy (1e-8: tolerance-limited reruns) count as zero.
    const double scale = std::max(std::abs(a), std::abs(f));
    if (scale > 1e-8) CHECK(std::abs(a - f) <= tol * scale);
    any_nonzero = any_nonzero || std::abs(a) > 1e-6;
    any_differs = any_differs || a != f;
  }
  CHECK(any_nonzero);
  CHECK(any_differs);
  return c;
}

RolloutSpec scene(const std::string& name, const std::string& solver = "padmm", const std::string& contact = "desaxce") {
  RolloutSpec s;
  s.scene = name;
  s.model = test::scene_model(s.scene);
  s.solver = solver;
  s.contact = contact;
  s.sets = tight(solver);
  return s;
}

}  // namespace

namespace {
// The flat-ground pallet of the sticking-wheels case, written to a temporary
// file named by `user` (ctest runs the cases that use it in parallel).
std::string flat_pallet_file(const std::string& user) {
  std::ifstream in(std::string(CONTACTLAB_SCENE_DIR) + "/wheeled_pallet.xml");
  std::stringstream text;
  text << in.rdbuf();
  std::string xml = text.str();
  const auto step_geom = xml.find("<geom name=\"step\"");
  REQUIRE(step_geom != std::string::npos);
  xml.erase(step_geom, xml.find("/>", step_geom) + 2 - step_geom);
  const std::string lifted = "<body name=\"chassis\" pos=\"0 0 0.36\">";
  REQUIRE(xml.find(lifted) != std::string::npos);
  xml.replace(xml.find(lifted), lifted.size(), "<body name=\"chassis\" pos=\"0 0 0.35\">");
  const std::string path = "/tmp/contactlab_test_pallet_flat_" + user + ".xml";
  std::ofstream(path) << xml;
  return path;
}
}  // namespace

TEST_CASE("gradients: a ballistic flight is differentiated to rounding") {
  // 20 steps of 10 ms from 1 m: no contact; d(z + 3 vz)/d vz0 = N h + 3 = 3.2 exactly.
  RolloutSpec s = scene("bouncing_ball");
  s.dt = 0.01;
  s.steps = 20;
  const GradientResult g = rollout_gradient(s, "final:ball.pz + 3*final:ball.vz", "init:ball.vz,init:ball.pz,init:ball.vx", {});
  // The pull-back is exact (dual numbers): only rounding, ~1e-16 per step over
  // 20 steps (measured 1.3e-15); bound 1e-12. With central differences
  // (step 1e-8) it rounds at ~1e-16/1e-8 per step: bound 1e-6 (measured 2e-9).
  CHECK(g.gradient[0] == doctest::Approx(3.2).epsilon(1e-12));
  CHECK(g.gradient[1] == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(std::abs(g.gradient[2]) < 1e-12);
  StepAdjointOptions differences;
  differences.exact_pullback = false;
  const GradientResult gd = rollout_gradient(s, "final:ball.pz + 3*final:ball.vz", "init:ball.vz,init:ball.pz,init:ball.vx", differences);
  CHECK(gd.gradient[0] == doctest::Approx(3.2).epsilon(1e-6));
  CHECK(gd.gradient[0] != g.gradient[0]);  // guard: the two derivatives are computed differently
}

TEST_CASE("gradients: through an impact (bouncing ball), padmm and pgs") {
  // 0.6 s: the ball lands at 0.43 s (restitution 0.8) and flies up again.
  // Measured relative error 4.7e-6 (padmm); bound 1e-4 (the restitution
  // bias switches on a discrete closing test that FD straddles only at 1e-6 m).
  for (const std::string solver : {"padmm", "pgs"}) {
    CAPTURE(solver);
    RolloutSpec s = scene("bouncing_ball", solver);
    s.duration = 0.6;
    check(s, "final:ball.pz + final:ball.vz", "init:ball.pz,init:ball.vz", 1e-4);
  }
}

TEST_CASE("gradients: an impulsive contact boundary (a ball thrown onto the floor)") {
  // tests/data/impact_ball.xml: the ball lands inside a 10 ms step, detected at
  // a positive gap, and slides through the impact; the loss after the impact
  // depends on the drop (impact impulse, and the contact point's lever arm,
  // midway between the surfaces), the velocities and the friction. Ostrich
  // reports 0.02 % for its impulsive case. Measured: backward Euler (Ostrich's
  // scheme, fischer_burmeister + newton) <= 4.2e-8, the velocity scheme
  // (padmm) <= 5.1e-7; bound 1e-5. Before the pull-back placed the point
  // midway between the surfaces as the narrow phase does, d wy / d pz0 was off
  // by 3 % in one step (and the sign of the loss's gradient flipped).
  RolloutSpec be = scene(std::string(CONTACTLAB_TEST_DATA) + "/impact_ball.xml", "newton", "fischer_burmeister");
  be.scheme = "backward_euler";
  be.keyframe = "init";
  be.duration = 0.27;
  be.sets = {"solver.tolerance=1e-11", "solver.newton_iterations=64", "solver.pcr_iterations=32"};
  const std::string loss = "final:ball.px + final:ball.vx + final:ball.wy + final:ball.pz";
  const std::string wrt = "init:ball.pz,init:ball.vz,init:ball.vx,init:ball.wy,param:geom.floor.friction";
  check(be, loss, wrt, 1e-5);
  // Each solver's paired adjoint on the velocity scheme: padmm (dense), pgs
  // (the reference) and newton (fischer_burmeister: PCR, GMRES while the ball
  // slides), measured <= 5.1e-7 each. convex_newton (ccp) and padmm's
  // matrix-free path do not solve the forward to where its finite
  // differences are derivatives (noise ~1e-5 at eps = 1e-6); they are checked
  // against the reference: convex_newton's Hessian (its soft bilateral rows,
  // another linearisation point) measured 1.3e-8, bound 1e-6 as in
  // test_solve_adjoint.cpp; padmm's Krylov pairing measured 4.3e-11, bound 1e-8.
  for (const std::string solver : {"padmm", "pgs", "newton"}) {
    CAPTURE(solver);
    RolloutSpec vs = scene(std::string(CONTACTLAB_TEST_DATA) + "/impact_ball.xml", solver,
                           solver == "newton" ? "fischer_burmeister" : "desaxce");
    vs.keyframe = "init";
    vs.duration = 0.27;
    if (solver == "pgs") vs.sets = {"solver.tolerance=1e-13", "solver.max_iterations=20000"};
    check(vs, loss, wrt, 1e-5);
  }
  StepAdjointOptions reference;
  reference.solve = AdjointSolve::Reference;
  RolloutSpec cn = scene(std::string(CONTACTLAB_TEST_DATA) + "/impact_ball.xml", "convex_newton", "ccp");
  cn.sets = {"solver.tolerance=1e-14", "solver.max_iterations=200"};
  RolloutSpec mf = scene(std::string(CONTACTLAB_TEST_DATA) + "/impact_ball.xml");
  mf.sets.push_back("solver.delassus=matrix_free");
  for (RolloutSpec* s : {&cn, &mf}) {
    CAPTURE(s->solver);
    s->keyframe = "init";
    s->duration = 0.27;
    const double bound = s == &cn ? 1e-6 : 1e-8;
    const GradientResult paired = rollout_gradient(*s, loss, wrt, {});
    const GradientResult ref = rollout_gradient(*s, loss, wrt, reference);
    CHECK(paired.reference_fallbacks == 0);
    double worst = 0;
    for (size_t i = 0; i < ref.gradient.size(); ++i) {
      const double scale = std::max(1e-8, std::abs(ref.gradient[i]));
      worst = std::max(worst, std::abs(paired.gradient[i] - ref.gradient[i]) / scale);
    }
    MESSAGE(s->solver << ": paired vs reference " << worst);
    CHECK(worst <= bound);
  }
}

TEST_CASE("gradients: oblique impacts between bodies (spheres, capsules, boxes, a cylinder)") {
  // The contact normal runs between the centres and turns as the bodies pass
  // each other; the pull-back turns it as the narrow phase does (with the
  // captured normal the sphere-sphere gradients were off by 0.4 %). Measured:
  // velocity scheme (padmm) <= 1.8e-7 (spheres), <= 7.3e-8 (capsule); bound
  // 1e-5. Backward Euler + newton on the spheres <= 1.1e-5 (its E_delta by
  // central differences of step 1e-6); bound 1e-4.
  RolloutSpec balls = scene(std::string(CONTACTLAB_TEST_DATA) + "/balls_oblique.xml");
  balls.keyframe = "init";
  balls.duration = 0.3;
  const std::string loss = "final:b.py + final:b.vy + final:a.vy + final:b.wz";
  const std::string wrt = "init:a.py,init:a.vx,init:b.py,init:a.vy";
  check(balls, loss, wrt, 1e-5);
  RolloutSpec capsule = scene(std::string(CONTACTLAB_TEST_DATA) + "/capsule_ball.xml");
  capsule.keyframe = "init";
  capsule.duration = 0.3;
  check(capsule, "final:b.pz + final:b.vz + final:a.vz + final:a.wy", "init:a.pz,init:a.vx,init:b.pz,init:a.vz", 1e-5);
  RolloutSpec be = balls;
  be.scheme = "backward_euler";
  be.contact = "fischer_burmeister";
  be.solver = "newton";
  be.sets = {"solver.tolerance=1e-11", "solver.newton_iterations=64", "solver.pcr_iterations=32"};
  check(be, loss, wrt, 1e-4);
  // Other closed-form pairs, turned and colliding off centre (a moves at
  // 1 m/s and spins; no gravity): the pull-back reruns the narrow phase
  // (adjoints/contact_redetection.hpp). Measured <= 3.0e-7; bound 1e-5.
  // (The feature model alone was off by up to 40 % on these.)
  const char* pairs[][4] = {{"capsule", "0.05 0.15", "capsule", "0.05 0.15"},
                            {"sphere", "0.1", "box", "0.1 0.15 0.2"},
                            {"box", "0.1 0.15 0.2", "box", "0.12 0.1 0.15"},
                            {"sphere", "0.1", "cylinder", "0.1 0.05"}};
  for (const auto& pr : pairs) {
    const std::string name = std::string(pr[0]) + "_" + pr[2];
    CAPTURE(name);
    const std::string path = "/tmp/contactlab_test_pair_" + name + ".xml";
    std::ofstream(path) << "<mujoco model=\"pair\"><option timestep=\"0.01\" gravity=\"0 0 0\"/><worldbody>"
                        << "<body name=\"a\" euler=\"20 30 10\"><freejoint/><geom name=\"a\" type=\"" << pr[0]
                        << "\" size=\"" << pr[1] << "\" mass=\"1\" friction=\"0.3\"/></body>"
                        << "<body name=\"b\" pos=\"0.45 0.05 0.03\" euler=\"-15 40 25\"><freejoint/><geom name=\"b\" type=\""
                        << pr[2] << "\" size=\"" << pr[3] << "\" mass=\"1\" friction=\"0.3\"/></body></worldbody>"
                        << "<keyframe><key name=\"go\" qvel=\"1 0.1 0 0.5 0.3 0 0 0 0 0 0 0\"/></keyframe></mujoco>";
    RolloutSpec s = scene(path);
    s.keyframe = "go";
    s.duration = 0.4;
    check(s, "final:b.px + final:b.vy + final:a.vz + final:b.wz + final:a.wx",
          "init:a.py,init:a.vx,init:b.pz,init:a.rx,init:b.ry", 1e-5);
    std::remove(path.c_str());
  }
}

TEST_CASE("gradients: box_ramp friction, mass and push through sticking and sliding") {
  // Four redundant corner contacts (singular Delassus: minimum-norm sensitivity).
  // Measured relative errors <= 3.1e-7 with padmm; bound 1e-5. PGS and Newton
  // do not reach 1e-12 on this redundant problem within any budget tried, so
  // their finite differences are noise here (docs/gradients.md); they are
  // checked on the impact and cart_pole cases.
  check(scene("box_ramp"), "final:box.px + final:box.vx",
        "param:geom.box.friction,param:body.box.mass,ctrl:push,ctrl:push@1500,init:box.px", 1e-5);
}

TEST_CASE("gradients: cart_pole losses over horizons up to 50 steps") {
  // Joints, a slide limit and a motor; Ostrich reports <= 1.6 % here; measured
  // <= 1.5e-7. Bound 1e-5.
  for (long steps : {10L, 25L, 50L}) {
    CAPTURE(steps);
    RolloutSpec s = scene("cart_pole");
    s.steps = steps;
    check(s, "final:pole.px + final:cart.vx + sumsq:pole.pos=0.3,0,1",
          "init:cart.vx,init:pole.wy,init:pole.ry,ctrl:slide_motor,ctrl:slide_motor@3,param:body.cart.mass", 1e-5);
  }
  // The same with pgs and with fischer_burmeister + newton.
  for (const std::string solver : {"pgs", "newton"}) {
    CAPTURE(solver);
    RolloutSpec s = scene("cart_pole", solver, solver == "newton" ? "fischer_burmeister" : "desaxce");
    s.steps = 50;
    check(s, "final:pole.px + final:cart.vx", "init:cart.vx,init:pole.wy,ctrl:slide_motor", 1e-5);
  }
}

TEST_CASE("gradients: each solver's paired adjoint against finite differences and the reference") {
  // The paired adjoints (adjoints/solve_adjoint.hpp) solve the same linear
  // system as the dense reference by their solver's means; here each runs on
  // whole rollouts, is checked against finite differences where the forward
  // reaches 1e-12, and against the reference elsewhere. Each case also checks
  // that the pairing's own method answered (not a fallback).
  StepAdjointOptions reference;
  reference.solve = AdjointSolve::Reference;
  auto agree = [&](const RolloutSpec& s, const std::string& loss, const std::string& wrt, double tol) {
    const GradientResult paired = rollout_gradient(s, loss, wrt, {});
    const GradientResult ref = rollout_gradient(s, loss, wrt, reference);
    CHECK(ref.solve_methods.at("reference") == ref.steps);
    for (size_t i = 0; i < paired.gradient.size(); ++i) {
      CAPTURE(i);
      CAPTURE(paired.gradient[i]);
      CAPTURE(ref.gradient[i]);
      CHECK(std::abs(paired.gradient[i] - ref.gradient[i]) <=
            tol * std::max(std::abs(ref.gradient[i]), 1e-8));
    }
    return paired;
  };
  // padmm, matrix-free path: cart_pole (hinge, slide limit: the row-wise law,
  // PCR) and box_ramp (four redundant corners, sticking then sliding: PCR and
  // GMRES). Measured against FD <= 1.1e-7 and <= 3.1e-7, as the dense path;
  // bound 1e-5 as there.
  RolloutSpec pole = scene("cart_pole");
  pole.steps = 50;
  pole.sets.push_back("solver.delassus=matrix_free");
  const Checked mf = check(pole, "final:pole.px + final:cart.vx", "init:cart.vx,init:pole.wy,ctrl:slide_motor", 1e-5);
  CHECK(mf.analytic.solve_adjoint == "padmm");
  CHECK(mf.analytic.solve_methods.count("pcr") == 1);
  CHECK(mf.analytic.reference_fallbacks == 0);
  RolloutSpec ramp = scene("box_ramp");
  ramp.sets.push_back("solver.delassus=matrix_free");
  const Checked mr = check(ramp, "final:box.px + final:box.vx", "param:geom.box.friction,ctrl:push,param:body.box.mass", 1e-5);
  CHECK(mr.analytic.solve_methods.count("pcr") == 1);
  CHECK(mr.analytic.solve_methods.count("gmres") == 1);
  // padmm's dense path on the same: Cholesky of the reduced system, its
  // minimum-norm solve on the redundant corners, LU where sliding couples rows.
  const GradientResult dense = agree(scene("box_ramp"), "final:box.px + final:box.vx",
                                     "param:geom.box.friction,ctrl:push,param:body.box.mass", 1e-9);
  CHECK(dense.solve_methods.count("cod") == 1);
  CHECK(dense.solve_methods.count("lu") == 1);
  // newton (fischer_burmeister) on cart_pole: Ostrich's one PCR solve per step.
  RolloutSpec fb = scene("cart_pole", "newton", "fischer_burmeister");
  fb.steps = 50;
  const GradientResult nt = agree(fb, "final:pole.px + final:cart.vx", "init:cart.vx,init:pole.wy,ctrl:slide_motor", 1e-9);
  CHECK(nt.solve_methods.at("pcr") == nt.steps);
  // newton on the flat pallet's sticking wheels (three wheels and hinges:
  // redundant, A_SS singular to rounding; some wheel contacts slide): the
  // near-null cut matches the reference's minimum norm; measured 7e-7
  // relative on the gradient, bound 1e-5. The forward stops at Newton's FB
  // floor (~1e-8) here, so finite differences are not a reference.
  const std::string path = flat_pallet_file("paired");
  RolloutSpec pallet = scene(path, "newton", "fischer_burmeister");
  pallet.steps = 100;
  const GradientResult np = agree(pallet, "final:chassis.px", "init:chassis.vx,ctrl:drive_left", 1e-5);
  CHECK(np.solve_methods.at("pcr") > 0);
  CHECK(np.solve_methods.at("gmres") > 0);
  std::remove(path.c_str());
}

TEST_CASE("gradients: wheeled_pallet's wheels under sticking contact over 1 s") {
  // The robot starts on flat ground (the scene without its step, chassis at
  // z = 0.35 so the wheels touch) and drives at 3 rad/s for 100 steps of 10 ms:
  // line contacts of three cylinders, hinges, velocity servos. Ostrich reports
  // <= 0.4 % here; measured <= 4.6e-4 (the servo gain; others <= 6.1e-6). Bound 1e-3.
  const std::string path = flat_pallet_file("sticking");
  RolloutSpec s = scene(path);
  s.steps = 100;
  check(s, "final:chassis.px + final:chassis.vx + final:wheel_left.wy",
        "init:chassis.vx,init:wheel_rear.wy,param:body.chassis.mass,param:geom.floor.friction,"
        "param:actuator.drive_left.kv,ctrl:drive_left",
        1e-3);
  std::remove(path.c_str());
}

TEST_CASE("gradients: the central-path rollout gradient tends to the exact one as rho falls") {
  // The velocity of a sliding box after 1.8 s with respect to the last push.
  // Steps whose relaxed point does not pass the cone check (the four sticking
  // corners before 1.33 s: singular Delassus) fall back to exact and are counted.
  RolloutSpec s = scene("box_ramp");
  s.steps = 1800;  // the box slides from 1.33 s
  const auto exact = rollout_gradient(s, "final:box.vx", "ctrl:push@1799", {});
  double previous = 1e300;
  for (double rho : {1e-6, 1e-8, 1e-10}) {
    CAPTURE(rho);
    StepAdjointOptions cp;
    cp.sensitivity.kind = SensitivityKind::CentralPath;
    cp.sensitivity.rho = rho;
    const auto relaxed = rollout_gradient(s, "final:box.vx", "ctrl:push@1799", cp);
    const double error = std::abs(relaxed.gradient[0] - exact.gradient[0]);
    CHECK(error < previous);
    CHECK(relaxed.fallbacks < relaxed.steps);
    previous = error;
  }
  CHECK(previous < 1e-3 * std::abs(exact.gradient[0]));
  CHECK(std::abs(exact.gradient[0]) > 1e-4);  // guard: the push acts (h / m = 1e-3)
}


TEST_CASE("gradients: backward Euler (Ostrich's scheme), joints and sticking wheels at large steps") {
  // The step adjoint of adjoints/backward_euler_step_adjoint.hpp, fischer_burmeister
  // + newton solved to 1e-11 (64 iterations) so that finite differences of the
  // forward are derivatives; at Newton's default budget they are noisy at ~1e-3.
  auto be = [](const std::string& scene_name, double dt) {
    RolloutSpec s;
    s.scene = scene_name;
    s.model = test::scene_model(s.scene);
    s.scheme = "backward_euler";
    s.contact = "fischer_burmeister";
    s.solver = "newton";
    s.dt = dt;
    s.sets = {"solver.tolerance=1e-11", "solver.newton_iterations=64", "solver.pcr_iterations=32"};
    return s;
  };
  // Pendulum (1e-4 kg m^2 bob on a 1 m lever), 30 steps at 10 and 100 ms:
  // measured <= 2.0e-6 and 4.7e-7. Bound 1e-5.
  for (double dt : {0.01, 0.1}) {
    CAPTURE(dt);
    RolloutSpec s = be("pendulum", dt);
    s.steps = 30;
    check(s, "final:pole.px + final:pole.vz", "init:pole.vx,init:pole.wy", 1e-5);
  }
  // cart_pole at 50 ms: measured <= 2.4e-7. Bound 1e-5.
  RolloutSpec cart = be("cart_pole", 0.05);
  cart.steps = 30;
  check(cart, "final:pole.px + final:cart.vx", "init:cart.vx,ctrl:slide_motor,param:body.cart.mass", 1e-5);
  // The pallet on flat ground with sticking wheels over 1 s at h = 0.1 and
  // 0.05 s (Ostrich: <= 0.4 %): measured <= 2.1e-5 (the mass). Bound 1e-3.
  // Ostrich's own adjoint (adjoint.geometric_stiffness=false: E_delta = I,
  // the forward Newton's Schur system, one PCR or GMRES per step) measures
  // the same here: the wheels' geometric stiffness does not matter.
  StepAdjointOptions ostrich;
  ostrich.geometric_stiffness = false;
  const std::string path = flat_pallet_file("backward_euler");
  for (double dt : {0.1, 0.05}) {
    CAPTURE(dt);
    RolloutSpec s = be(path, dt);
    s.duration = 1;
    const std::string loss = "final:chassis.px + final:chassis.vx + final:wheel_left.wy";
    const std::string wrt = "init:chassis.vx,param:body.chassis.mass,ctrl:drive_left,param:geom.floor.friction";
    check(s, loss, wrt, 1e-3);
    const Checked o = check(s, loss, wrt, 1e-3, ostrich);
    CHECK(o.analytic.solve_methods.at("pcr") > 0);
    CHECK(o.analytic.solve_adjoint == "newton");
  }
  std::remove(path.c_str());
  // Where bodies turn, the geometric stiffness matters: the pendulum at 100 ms
  // (measured 9.5e-2 relative with Ostrich's adjoint against 5.9e-7 exact)
  // and cart_pole at 50 ms (3.5e-2). The guard: Ostrich's adjoint is off by
  // more than 1e-2 there, the exact one by less than 1e-5 (checked above).
  RolloutSpec pend = be("pendulum", 0.1);
  pend.steps = 30;
  const GradientResult og = rollout_gradient(pend, "final:pole.px + final:pole.vz", "init:pole.wy", ostrich);
  const GradientResult eg = rollout_gradient(pend, "final:pole.px + final:pole.vz", "init:pole.wy", {});
  CHECK(std::abs(og.gradient[0] - eg.gradient[0]) > 1e-2 * std::abs(eg.gradient[0]));
  // Ostrich's frozen friction weight as well (adjoint.sensitivity=frozen_w:
  // sliding friction sigma_t + W lambda_t = 0, W held): symmetric, so newton's
  // pairing is one PCR on every step, but where a contact slides through the
  // impact the friction impulse no longer follows mu lambda_n and the
  // gradient is far off (measured 2-89 % on impact_ball, docs/gradients.md).
  StepAdjointOptions frozen = ostrich;
  frozen.sensitivity.kind = SensitivityKind::FrozenW;
  RolloutSpec ball = be(std::string(CONTACTLAB_TEST_DATA) + "/impact_ball.xml", 0.01);
  ball.keyframe = "init";
  ball.duration = 0.27;
  const std::string loss = "final:ball.px + final:ball.vx + final:ball.wy + final:ball.pz";
  const GradientResult fw = rollout_gradient(ball, loss, "param:geom.floor.friction", frozen);
  const GradientResult ex = rollout_gradient(ball, loss, "param:geom.floor.friction", {});
  CHECK(fw.solve_methods.at("pcr") == fw.steps);
  CHECK(std::abs(fw.gradient[0] - ex.gradient[0]) > 0.5 * std::abs(ex.gradient[0]));
  // The exact pull-back (dual numbers through the scheme's own row
  // evaluation, E_delta and W_delta included) and the central-difference one
  // agree to the differences' accuracy (step 1e-6: ~1e-7 relative; measured
  // 8.6e-9 on the impact ball, 1.2e-7 on the pendulum at 100 ms).
  StepAdjointOptions differences;
  differences.exact_pullback = false;
  const std::string wrt = "init:ball.pz,init:ball.vz,init:ball.vx,init:ball.wy";
  for (RolloutSpec* spec : {&ball, &pend}) {
    const std::string l = spec == &ball ? loss : "final:pole.px + final:pole.vz";
    const std::string w = spec == &ball ? wrt : "init:pole.vx,init:pole.wy";
    const GradientResult dual = rollout_gradient(*spec, l, w, {});
    const GradientResult diff = rollout_gradient(*spec, l, w, differences);
    for (size_t i = 0; i < dual.gradient.size(); ++i) {
      CAPTURE(i);
      CHECK(std::abs(dual.gradient[i] - diff.gradient[i]) <= 1e-6 * std::max(1e-3, std::abs(dual.gradient[i])));
      CHECK(dual.gradient[i] != diff.gradient[i]);
    }
  }
}

TEST_CASE("gradients: position servo gains and an active joint limit") {
  // cart_pole with a position servo added on the hinge (kp 30, kv 3): gains and
  // its control. Measured <= 2.6e-7; bound 1e-5.
  std::ifstream in(std::string(CONTACTLAB_SCENE_DIR) + "/cart_pole.xml");
  std::stringstream text;
  text << in.rdbuf();
  std::string xml = text.str();
  const std::string motor = "<motor name=\"slide_motor\"";
  REQUIRE(xml.find(motor) != std::string::npos);
  xml.insert(xml.find(motor), "<position name=\"hold\" joint=\"hinge\" kp=\"30\" kv=\"3\"/>\n    ");
  const std::string path = "/tmp/contactlab_test_cart_pole_servo.xml";
  std::ofstream(path) << xml;
  RolloutSpec servo = scene(path);
  servo.steps = 50;
  check(servo, "final:pole.px + final:cart.vx", "param:actuator.hold.kp,param:actuator.hold.kv,ctrl:hold,ctrl:slide_motor",
        1e-5);
  std::remove(path.c_str());
  // The cart driven into its slide limit (x = 2 m) by a constant 15 N: the limit
  // row is active for the last 0.5 s. The ctrl@10 entry is small (1.2e-4
  // against a loss of 4), so the differences of the default-tolerance forward
  // are noise-limited, noise ~ (loss error) / eps: with eps = 1e-7, 1e-6, 1e-5
  // its error was 5.9e-4-4.7e-3, 7e-5-3e-4, 2.6e-5-6.7e-5 (gradcheck, padmm's
  // penalty carried or not); eps = 1e-5 (truncation O(eps^2) ~ 1e-10) measured
  // <= 6.7e-5; bound 1e-4.
  RolloutSpec limit = scene("cart_pole");
  limit.steps = 250;
  limit.ctrls = {"slide_motor=15"};
  check(limit, "final:cart.px + final:pole.px + final:cart.vx",
        "init:cart.vx,init:pole.wy,ctrl:slide_motor@10,param:body.cart.mass", 1e-4, {}, 1e-5);
}

TEST_CASE("gradients: compliant (ccp) and relaxed (central_path) forward laws") {
  // ccp: the convex law's own local sensitivity (no de Saxce shift, the law's
  // compliance in A), with padmm (measured <= 3e-7) and convex_newton (its
  // Hessian pairing, measured <= 1.2e-5: it linearises at du = M^-1 J^T lambda,
  // docs/gradients.md). Bound 1e-4.
  for (const std::string solver : {"padmm", "convex_newton"}) {
    CAPTURE(solver);
    RolloutSpec s = scene("box_ramp", solver, "ccp");
    if (solver == "convex_newton") s.sets = {"solver.tolerance=1e-14", "solver.max_iterations=200"};
    check(s, "final:box.px + final:box.vx", "param:geom.box.friction,ctrl:push,param:body.box.mass", 1e-4);
  }
  // central_path forward (rho = 1e-4): differentiated at its own relaxed point
  // (the central-path sensitivity with the law's rho). PADMM stops at the
  // complementarity target 2 rho (docs/central_path.md), which limits the
  // finite differences: measured <= 5.5e-6; bound 1e-4.
  RolloutSpec cp = scene("box_ramp", "padmm", "central_path");
  cp.sets = {"contact.rho=1e-4", "solver.balanced_penalty=false", "solver.rho=1", "solver.tol_primal=1e-12",
             "solver.tol_dual=1e-12", "solver.tol_compl=2e-4", "solver.max_iterations=20000"};
  check(cp, "final:box.px + final:box.vx", "param:geom.box.friction,ctrl:push,param:body.box.mass", 1e-4);
}

TEST_CASE("gradients: the truncated pull-back drops contact geometry only") {
  StepAdjointOptions truncated;
  truncated.truncated = true;
  // Contact-free: identical.
  RolloutSpec free = scene("cart_pole");
  free.steps = 20;
  const auto full_free = rollout_gradient(free, "final:pole.px", "init:cart.vx,init:pole.wy", {});
  const auto trunc_free = rollout_gradient(free, "final:pole.px", "init:cart.vx,init:pole.wy", truncated);
  CHECK(full_free.gradient == trunc_free.gradient);
  // The top box of stacked_boxes lands (restitution 0) and rests at z = 0.3
  // whatever its drop height: d z_final / d z0 = 0. The full pull-back sees the
  // gap close; the truncated one holds the gap fixed and answers 1.
  RolloutSpec stack = scene("stacked_boxes");
  stack.steps = 300;
  const auto full = rollout_gradient(stack, "final:top.pz", "init:top.pz", {});
  const auto trunc = rollout_gradient(stack, "final:top.pz", "init:top.pz", truncated);
  CHECK(std::abs(full.gradient[0]) < 1e-6);
  CHECK(trunc.gradient[0] == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("gradients: backward Euler refuses the truncated pull-back it does not implement") {
  StepAdjointOptions truncated;
  truncated.truncated = true;
  RolloutSpec stack = scene("stacked_boxes", "newton", "fischer_burmeister");
  stack.scheme = "backward_euler";
  stack.dt = 0.01;
  stack.steps = 5;
  CHECK_THROWS_WITH_AS(rollout_gradient(stack, "final:top.pz", "init:top.pz", truncated),
                       doctest::Contains("adjoint.pullback=truncated"), std::invalid_argument);
  // The full pull-back runs on the same rollout.
  CHECK(std::isfinite(rollout_gradient(stack, "final:top.pz", "init:top.pz", {}).gradient[0]));
}

TEST_CASE("gradients: checkpointed and plain gradients are bit-identical") {
  // Segments of 7 and 64 steps (uneven: the last segment is short), replayed
  // from checkpoints that carry the warm-start state; contacts, controls,
  // parameters and the initial state all exercised.
  RolloutSpec s;
  s.scene = "box_ramp";
  s.model = test::scene_model(s.scene);
  s.steps = 1700;
  const std::string wrt = "param:geom.box.friction,param:body.box.mass,ctrl:push,ctrl:push@1500,init:box.vx,init:box.rz";
  const auto plain = rollout_gradient(s, "final:box.px + final:box.vx", wrt, {});
  for (long k : {7L, 64L}) {
    CAPTURE(k);
    const auto checkpointed = rollout_gradient(s, "final:box.px + final:box.vx", wrt, {}, k);
    CHECK(checkpointed.loss == plain.loss);
    CHECK(checkpointed.gradient == plain.gradient);
    CHECK(checkpointed.record_bytes < plain.record_bytes / 4);  // T/K checkpoints + K records
  }
  CHECK(std::abs(plain.gradient[0]) > 1e-3);  // guard: the friction matters here
}

TEST_CASE("gradients: step records hold no solver iterations") {
  RolloutSpec a = scene("box_ramp"), b = scene("box_ramp");
  a.steps = b.steps = 100;
  a.sets = {"solver.max_iterations=20"};
  b.sets = {"solver.max_iterations=2000"};
  const auto ga = rollout_gradient(a, "final:box.px", "ctrl:push", {});
  const auto gb = rollout_gradient(b, "final:box.px", "ctrl:push", {});
  CHECK(ga.record_bytes == gb.record_bytes);
  CHECK(ga.record_bytes > 0);
}

TEST_CASE("gradients: quasi-dynamics (velocities dropped every step)") {
  // The velocity scheme's adjoint on a world at rest before each step: initial
  // velocities have no effect (exactly zero gradient), positions, pushes and
  // parameters do. box_ramp with desaxce + padmm: measured <= 1.6e-8, bound
  // 1e-6; with CQDC's ccp + convex_newton: measured <= 7.1e-5 (its forward
  // stops at 1e-14 on gradients of 1e-3), bound 1e-3; four_bar (loop closure):
  // measured 7e-5, bound 1e-3.
  auto qd = [](const std::string& name, const std::string& law, const std::string& solver) {
    RolloutSpec s = scene(name, solver, law);
    s.scheme = "quasi_dynamic";
    if (solver == "convex_newton") s.sets = {"solver.tolerance=1e-14", "solver.max_iterations=200"};
    return s;
  };
  check(qd("box_ramp", "desaxce", "padmm"), "final:box.px", "param:geom.box.friction,ctrl:push", 1e-6);
  check(qd("box_ramp", "ccp", "convex_newton"), "final:box.px + final:box.vx",
        "param:geom.box.friction,ctrl:push,param:body.box.mass,init:box.px", 1e-3);
  RolloutSpec loop = qd("four_bar", "ccp", "convex_newton");
  loop.steps = 200;
  check(loop, "final:crank.px + final:coupler.pz", "init:crank.ry", 1e-3);
  const GradientResult v = rollout_gradient(qd("box_ramp", "desaxce", "padmm"), "final:box.px", "init:box.vx,init:box.wz", {});
  CHECK(v.gradient[0] == 0);
  CHECK(v.gradient[1] == 0);
}

TEST_CASE("gradients: Moreau's midpoint scheme, as the velocity scheme's cases") {
  // schemes/moreau_scheme.hpp with adjoints/velocity_step_adjoint.hpp's
  // MoreauStepAdjoint, on the velocity scheme's scenes with its bounds:
  // ballistic flight exact (d(z + 3 vz)/d vz0 = T + 3 = 3.2, rounding only),
  // the impact 1e-4, box_ramp 1e-5, cart_pole (joints, limit, motor) 1e-5.
  auto moreau = [](RolloutSpec s) {
    s.scheme = "moreau";
    return s;
  };
  RolloutSpec flight = moreau(scene("bouncing_ball"));
  flight.dt = 0.01;
  flight.steps = 20;
  const GradientResult g =
      rollout_gradient(flight, "final:ball.pz + 3*final:ball.vz", "init:ball.vz,init:ball.pz,init:ball.vx", {});
  CHECK(g.gradient[0] == doctest::Approx(3.2).epsilon(1e-12));
  CHECK(g.gradient[1] == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(std::abs(g.gradient[2]) < 1e-12);
  RolloutSpec impact = moreau(scene("bouncing_ball"));
  impact.duration = 0.6;
  check(impact, "final:ball.pz + final:ball.vz", "init:ball.pz,init:ball.vz", 1e-4);
  check(moreau(scene("box_ramp")), "final:box.px + final:box.vx",
        "param:geom.box.friction,param:body.box.mass,ctrl:push,ctrl:push@1500,init:box.px", 1e-5);
  RolloutSpec pole = moreau(scene("cart_pole"));
  pole.steps = 50;
  check(pole, "final:pole.px + final:cart.vx + sumsq:pole.pos=0.3,0,1",
        "init:cart.vx,init:pole.wy,init:pole.ry,ctrl:slide_motor,ctrl:slide_motor@3,param:body.cart.mass", 1e-5);
}

TEST_CASE("gradients: Moreau's midpoint scheme through impacts, rotations, servos, limits and other laws") {
  // The velocity scheme's cases of the same names with scheme = moreau and
  // their bounds: the impulsive boundary of impact_ball with padmm, pgs and
  // newton (1e-5); oblique impacts of spinning bodies (1e-5: the first
  // drift's rotation partials); wheeled_pallet's sticking wheels with
  // velocity servos (1e-3); a position servo's gains (1e-5) and an active
  // slide limit (1e-4); the ccp and central_path forward laws (1e-4).
  // Measured values: docs/moreau.md.
  auto moreau = [](RolloutSpec s) {
    s.scheme = "moreau";
    return s;
  };
  const std::string loss = "final:ball.px + final:ball.vx + final:ball.wy + final:ball.pz";
  const std::string wrt = "init:ball.pz,init:ball.vz,init:ball.vx,init:ball.wy,param:geom.floor.friction";
  for (const std::string solver : {"padmm", "pgs", "newton"}) {
    CAPTURE(solver);
    RolloutSpec vs = moreau(scene(std::string(CONTACTLAB_TEST_DATA) + "/impact_ball.xml", solver,
                                  solver == "newton" ? "fischer_burmeister" : "desaxce"));
    vs.keyframe = "init";
    vs.duration = 0.27;
    if (solver == "pgs") vs.sets = {"solver.tolerance=1e-13", "solver.max_iterations=20000"};
    check(vs, loss, wrt, 1e-5);
  }
  RolloutSpec balls = moreau(scene(std::string(CONTACTLAB_TEST_DATA) + "/balls_oblique.xml"));
  balls.keyframe = "init";
  balls.duration = 0.3;
  check(balls, "final:b.py + final:b.vy + final:a.vy + final:b.wz", "init:a.py,init:a.vx,init:b.py,init:a.vy", 1e-5);
  {
    const std::string path = "/tmp/contactlab_test_pair_moreau_box_box.xml";
    std::ofstream(path) << "<mujoco model=\"pair\"><option timestep=\"0.01\" gravity=\"0 0 0\"/><worldbody>"
                        << "<body name=\"a\" euler=\"20 30 10\"><freejoint/><geom name=\"a\" type=\"box\""
                        << " size=\"0.1 0.15 0.2\" mass=\"1\" friction=\"0.3\"/></body>"
                        << "<body name=\"b\" pos=\"0.45 0.05 0.03\" euler=\"-15 40 25\"><freejoint/><geom name=\"b\""
                        << " type=\"box\" size=\"0.12 0.1 0.15\" mass=\"1\" friction=\"0.3\"/></body></worldbody>"
                        << "<keyframe><key name=\"go\" qvel=\"1 0.1 0 0.5 0.3 0 0 0 0 0 0 0\"/></keyframe></mujoco>";
    RolloutSpec s = moreau(scene(path));
    s.keyframe = "go";
    s.duration = 0.4;
    check(s, "final:b.px + final:b.vy + final:a.vz + final:b.wz + final:a.wx",
          "init:a.py,init:a.vx,init:b.pz,init:a.rx,init:b.ry", 1e-5);
    std::remove(path.c_str());
  }
  {
    const std::string path = flat_pallet_file("sticking_moreau");
    RolloutSpec s = moreau(scene(path));
    s.steps = 100;
    check(s, "final:chassis.px + final:chassis.vx + final:wheel_left.wy",
          "init:chassis.vx,init:wheel_rear.wy,param:body.chassis.mass,param:geom.floor.friction,"
          "param:actuator.drive_left.kv,ctrl:drive_left",
          1e-3);
    std::remove(path.c_str());
  }
  {
    std::ifstream in(std::string(CONTACTLAB_SCENE_DIR) + "/cart_pole.xml");
    std::stringstream text;
    text << in.rdbuf();
    std::string xml = text.str();
    const std::string motor = "<motor name=\"slide_motor\"";
    REQUIRE(xml.find(motor) != std::string::npos);
    xml.insert(xml.find(motor), "<position name=\"hold\" joint=\"hinge\" kp=\"30\" kv=\"3\"/>\n    ");
    const std::string path = "/tmp/contactlab_test_cart_pole_servo_moreau.xml";
    std::ofstream(path) << xml;
    RolloutSpec servo = moreau(scene(path));
    servo.steps = 50;
    check(servo, "final:pole.px + final:cart.vx",
          "param:actuator.hold.kp,param:actuator.hold.kv,ctrl:hold,ctrl:slide_motor", 1e-5);
    std::remove(path.c_str());
  }
  RolloutSpec limit = moreau(scene("cart_pole"));
  limit.steps = 250;
  limit.ctrls = {"slide_motor=15"};
  check(limit, "final:cart.px + final:pole.px + final:cart.vx",
        "init:cart.vx,init:pole.wy,ctrl:slide_motor@10,param:body.cart.mass", 1e-4);
  for (const std::string solver : {"padmm", "convex_newton"}) {
    CAPTURE(solver);
    RolloutSpec s = moreau(scene("box_ramp", solver, "ccp"));
    if (solver == "convex_newton") s.sets = {"solver.tolerance=1e-14", "solver.max_iterations=200"};
    check(s, "final:box.px + final:box.vx", "param:geom.box.friction,ctrl:push,param:body.box.mass", 1e-4);
  }
  RolloutSpec cp = moreau(scene("box_ramp", "padmm", "central_path"));
  cp.sets = {"contact.rho=1e-4", "solver.balanced_penalty=false", "solver.rho=1", "solver.tol_primal=1e-12",
             "solver.tol_dual=1e-12", "solver.tol_compl=2e-4", "solver.max_iterations=20000"};
  check(cp, "final:box.px + final:box.vx", "param:geom.box.friction,ctrl:push,param:body.box.mass", 1e-4);
}

TEST_CASE("cli: grad prints the loss and one gradient per input - gradcheck's exit status follows --tol") {
  const CliResult g = run_binary("grad box_ramp --loss final:box.px --wrt param:geom.box.friction,ctrl:push --steps 300");
  CHECK(g.status == 0);
  CHECK(g.output.find("{\"loss\": ") == 0);
  CHECK(g.output.find("\"gradient\": {\"param:geom.box.friction\": ") != std::string::npos);
  CHECK(g.output.find("\"ctrl:push\": ") != std::string::npos);
  const std::string tight_padmm =
      " --set solver.tol_primal=1e-12 --set solver.tol_dual=1e-12 --set solver.tol_compl=1e-12 --set solver.max_iterations=5000";
  const CliResult ok = run_binary("gradcheck cart_pole --loss final:pole.px --wrt init:cart.vx,ctrl:slide_motor --steps 30" + tight_padmm);
  CHECK(ok.status == 0);
  CHECK(ok.output.find("all within tolerance") != std::string::npos);
  // An impossible tolerance fails.
  const CliResult bad = run_binary("gradcheck cart_pole --loss final:pole.px --wrt init:cart.vx --steps 30 --tol 1e-16");
  CHECK(bad.status == 1);
  CHECK(bad.output.find("FAIL") != std::string::npos);
  // Errors: unknown adjoint key, bad loss, missing --wrt for gradcheck.
  CHECK(run_binary("grad box_ramp --loss final:box.px --set adjoint.nope=1").status == 1);
  CHECK(run_binary("grad box_ramp --loss final:box.px --steps 10 --set adjoint.solve=dense").status == 1);
  CHECK(run_binary("grad box_ramp --loss final:box.px --steps 10 --set adjoint.krylov_iterations=1.5").status == 1);
  CHECK(run_binary("grad box_ramp --loss final:box.px --steps 10 --set adjoint.krylov_tolerance=2").status == 1);
  // Every key, the adjoint's included, is listed with its value and default by the one option system.
  const CliResult keys = run_binary("grad box_ramp --list-options --set adjoint.sensitivity=signorini --set body.box.mass=2");
  CHECK(keys.status == 0);
  CHECK(keys.output.find("adjoint.sensitivity = signorini (default exact)") != std::string::npos);
  CHECK(keys.output.find("adjoint.krylov_tolerance = 1e-12") != std::string::npos);
  CHECK(keys.output.find("body.box.mass = 2 ") != std::string::npos);  // applied to the scene before the run
  CHECK(keys.output.find("solver.max_iterations") != std::string::npos);
  // The reference and the pairing on the same rollout, and what --profile says about them.
  const CliResult ref = run_binary("grad box_ramp --loss final:box.px --wrt ctrl:push --steps 300 --profile --set adjoint.solve=reference");
  CHECK(ref.status == 0);
  CHECK(ref.output.find("solve_adjoint reference reference 300") != std::string::npos);
  const CliResult paired = run_binary("grad box_ramp --loss final:box.px --wrt ctrl:push --steps 300 --profile --solver newton --contact fischer_burmeister");
  CHECK(paired.status == 0);
  CHECK(paired.output.find("solve_adjoint newton") != std::string::npos);
  CHECK(run_binary("grad box_ramp --loss final:box.qq").status == 1);
  CHECK(run_binary("gradcheck box_ramp --loss final:box.px").status == 2);
}
