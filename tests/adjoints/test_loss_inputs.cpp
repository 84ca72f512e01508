// Losses, gradient inputs and the finite-difference checker (adjoints/loss.hpp,
// adjoints/grad_inputs.hpp, sim/gradcheck.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/gradcheck.hpp"
#include "sim/rollout.hpp"
#include "support/gradient_checks.hpp"
#include "support/scenes.hpp"

using namespace contactlab;

namespace {
Model pendulum() { return load_mjcf_file(resolve_scene("pendulum")); }
// Data is not copyable (it owns workspaces): copy the body state only.
void copy_state(const Model& m, const Data& from, Data& to) {
  to.init(m);
  to.x_W = from.x_W;
  to.q_WB = from.q_WB;
  to.v_W = from.v_W;
  to.w_W = from.w_W;
}
// Checks Loss::add_gradient for `body` against central differences of the
// loss in each state block (eps 1e-6: O(eps^2) truncation plus ~1e-10
// rounding on O(1) losses, bound 1e-8 relative); returns the gradient.
std::vector<BodyCotangent> check_state_gradient(const Model& m, const Data& d, const Loss& loss, int body) {
  std::vector<BodyCotangent> g;
  loss.add_gradient(m, d, g);
  const Real eps = 1e-6;
  for (int k = 0; k < 3; ++k) {
    auto fd = [&](auto perturb) {
      Data p, q;
      copy_state(m, d, p);
      copy_state(m, d, q);
      perturb(p, eps);
      perturb(q, -eps);
      return (loss.value(m, p) - loss.value(m, q)) / (2 * eps);
    };
    const Vec3 e = Vec3::Unit(k);
    CHECK(g[body].x[k] == doctest::Approx(fd([&](Data& s, Real t) { s.x_W[body] += t * e; })).epsilon(1e-8));
    CHECK(g[body].v[k] == doctest::Approx(fd([&](Data& s, Real t) { s.v_W[body] += t * e; })).epsilon(1e-8));
    CHECK(g[body].w[k] == doctest::Approx(fd([&](Data& s, Real t) { s.w_W[body] += t * e; })).epsilon(1e-8));
    CHECK(g[body].theta[k] == doctest::Approx(fd([&](Data& s, Real t) {
                                s.q_WB[body] = Quat(Eigen::AngleAxis<Real>(t, e)) * s.q_WB[body];
                              })).epsilon(1e-8));
  }
  return g;
}
}  // namespace

TEST_CASE("loss: terms, scales and errors") {
  const Model m = pendulum();
  const Loss loss = Loss::parse("final:pole.px + 2.5*final:pole.vz+-1e+3*final:pole.wy + sumsq:pole.pos=0.1,-2e-1,0.3", m);
  REQUIRE(loss.terms().size() == 4);
  CHECK(loss.terms()[1].scale == 2.5);
  CHECK(loss.terms()[2].scale == -1000);
  CHECK(loss.terms()[3].target.y() == doctest::Approx(-0.2));
  CHECK_THROWS_WITH_AS(Loss::parse("final:nobody.px", m), doctest::Contains("unknown body 'nobody'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(Loss::parse("final:pole.qx", m), doctest::Contains("unknown field 'qx'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(Loss::parse("sumsq:pole.pos=1,2", m), doctest::Contains("three coordinates"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(Loss::parse("x*final:pole.px", m), doctest::Contains("bad scale 'x'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(Loss::parse("final:pole.px+", m), doctest::Contains("empty term"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(Loss::parse("max:pole.px", m), doctest::Contains("expected final:BODY.FIELD"), std::invalid_argument);
}

TEST_CASE("loss: state gradient against central differences (COM offset, spinning body)") {
  // The pendulum's body has its COM 1 m from its origin, so origin position and
  // velocity depend on the orientation and on w: every cotangent block is exercised.
  const Model m = pendulum();
  Data d;
  d.init(m);
  d.q_WB[0] = Quat(Eigen::AngleAxis<Real>(0.7, Vec3(0.2, 1, -0.3).normalized()));
  d.x_W[0] = Vec3(0.3, -0.1, 0.4);
  d.v_W[0] = Vec3(0.5, -1.2, 0.8);
  d.w_W[0] = Vec3(-0.9, 2.0, 0.4);
  const Loss loss = Loss::parse(
      "final:pole.px + 2*final:pole.py + -0.5*final:pole.pz + final:pole.vx + 3*final:pole.vy + final:pole.vz"
      " + 0.7*final:pole.wx + final:pole.wz + sumsq:pole.pos=0.1,0.2,0.3 + 0.3*sumsq:pole.vel=0.2,-0.1,0.5"
      " + 0.2*sumsq:pole.angvel=0.1,0.3,-0.2",
      m);
  const std::vector<BodyCotangent> g = check_state_gradient(m, d, loss, 0);
  CHECK(g[0].theta.norm() > 0.1);  // guard: the orientation matters here
}

TEST_CASE("loss: site terms, their values and state gradient against central differences") {
  // tests/data/site_arm.xml: "tip" lies off both the origin and the COM of
  // "lower", "target" is on the world (a constant, no gradient).
  const Model m = load_mjcf_file(std::string(CONTACTLAB_TEST_DATA) + "/site_arm.xml");
  Data d;
  d.init(m);
  d.q_WB[1] = Quat(Eigen::AngleAxis<Real>(0.9, Vec3(0.3, 1, 0.2).normalized()));
  d.x_W[1] = Vec3(0.2, 0.1, 1.4);
  d.v_W[1] = Vec3(-0.3, 0.7, 0.2);
  d.w_W[1] = Vec3(1.1, -0.6, 0.9);
  const int tip = m.find_site("tip");
  const SiteState st = site_state(m, d, tip);
  const Loss each = Loss::parse("final:site.tip.px + 10*final:site.tip.vz + 100*final:site.tip.wy", m);
  CHECK(each.value(m, d) == doctest::Approx(st.p.x() + 10 * st.v.z() + 100 * st.w.y()).epsilon(1e-14));
  const Loss world = Loss::parse("final:site.target.pz + sumsq:site.target.pos=0,0,0", m);
  CHECK(world.value(m, d) == doctest::Approx(1.2 + 0.4 * 0.4 + 1.2 * 1.2).epsilon(1e-14));
  const Loss speeds = Loss::parse("sumsq:site.tip.vel=0.1,0,0 + 2*sumsq:site.tip.angvel=0,0,0", m);
  CHECK(speeds.value(m, d) ==
        doctest::Approx((st.v - Vec3(0.1, 0, 0)).squaredNorm() + 2 * st.w.squaredNorm()).epsilon(1e-14));
  CHECK_THROWS_WITH_AS(Loss::parse("sumsq:site.tip.acc=0,0,0", m), doctest::Contains("(or .vel=, .angvel=)"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(Loss::parse("final:site.nosite.px", m), doctest::Contains("unknown site 'nosite'"),
                       std::invalid_argument);

  const Loss loss = Loss::parse(
      "final:site.tip.px + 2*final:site.tip.py + -0.5*final:site.tip.pz + final:site.tip.vx + 3*final:site.tip.vy"
      " + final:site.tip.vz + 0.7*final:site.tip.wx + sumsq:site.tip.pos=0.1,0.2,0.3 + final:site.target.px"
      " + 0.4*sumsq:site.tip.vel=0.3,0.1,-0.2 + 0.6*sumsq:site.tip.angvel=1,0,0.5",
      m);
  const std::vector<BodyCotangent> g = check_state_gradient(m, d, loss, 1);
  CHECK(g[0].x.norm() + g[0].theta.norm() + g[0].v.norm() + g[0].w.norm() == 0);  // nothing of the upper arm
  CHECK(g[1].theta.norm() > 0.1);  // guard: the site's offset makes the orientation matter
}

TEST_CASE("loss: a site's loss through a rollout matches central differences") {
  // site_arm from its keyframe, 80 steps, velocity scheme, tight solves (the
  // joints' rows): the tip's final position and velocity against the initial
  // state, a mass and the elbow motor. Bound 1e-5 relative, as the rows'
  // gradient tests (tests/sim/test_gradients_rows.cpp): FD noise ~1e-12 / 1e-6.
  RolloutSpec spec;
  spec.scene = std::string(CONTACTLAB_TEST_DATA) + "/site_arm.xml";
  spec.model = test::scene_model(spec.scene);
  spec.keyframe = "bent";
  spec.steps = 80;
  spec.ctrls = {"elbow_motor=0.4"};
  spec.sets = {"solver.tol_primal=1e-12", "solver.tol_dual=1e-12", "solver.tol_compl=1e-12", "solver.max_iterations=5000"};
  const std::string loss = "final:site.tip.px + 0.5*final:site.tip.vz + sumsq:site.tip.pos=0.4,0,1.2";
  const std::string wrt = "init:upper.wy,init:lower.wy,param:body.lower.mass,ctrl:elbow_motor";
  test::check_rollout_gradient(spec, loss, wrt, 1e-6, 1e-5, 1e-3);
}

TEST_CASE("gradient inputs: parsing and errors") {
  const Model wp = load_mjcf_file(resolve_scene("wheeled_pallet"));
  const auto in = parse_grad_inputs(
      "init:chassis.px,init:chassis.rz,param:geom.floor.friction,param:body.chassis.mass,"
      "param:actuator.drive_left.kv,ctrl:drive_rear,ctrl:drive_left@12",
      wp);
  REQUIRE(in.size() == 7);
  CHECK(in[1].field == 11);
  CHECK(in[4].kind == GradInput::Kind::VelocityGain);
  CHECK(in[5].step == -1);
  CHECK(in[6].step == 12);
  CHECK_THROWS_WITH_AS(parse_grad_inputs("init:chassis.qq", wp), doctest::Contains("unknown field 'qq'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_grad_inputs("param:actuator.drive_left.kp", wp),
                       doctest::Contains("a velocity servo's gain is kv"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_grad_inputs("ctrl:nothing", wp), doctest::Contains("unknown actuator 'nothing'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_grad_inputs("ctrl:drive_left@-1", wp), doctest::Contains("bad step"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_grad_inputs("init:chassis.px,init:chassis.px", wp), doctest::Contains("twice"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_grad_inputs("param:geom.floor.mass", wp), doctest::Contains("geom parameters"),
                       std::invalid_argument);
}

TEST_CASE("gradient inputs: perturbations move the state as documented") {
  const Model m = pendulum();
  Data d;
  d.init(m);
  d.w_W[0] = Vec3(0, 1.5, 0);
  d.v_W[0] = Vec3(0.2, 0, 0.1);
  const Vec3 origin = d.origin_position(m, 0), origin_v = d.origin_velocity(m, 0);
  const auto in = parse_grad_inputs("init:pole.rx,init:pole.wy,init:pole.vz,init:pole.pz", m);
  Data r;
  copy_state(m, d, r);
  perturb_initial_state(in[0], 0.1, m, r);  // turn about the origin: origin and its velocity stay
  CHECK((r.origin_position(m, 0) - origin).norm() < 1e-12);
  CHECK((r.origin_velocity(m, 0) - origin_v).norm() < 1e-12);
  CHECK((r.x_W[0] - d.x_W[0]).norm() > 0.05);  // the COM swung
  Data w;
  copy_state(m, d, w);
  perturb_initial_state(in[1], 0.3, m, w);  // w changes, origin velocity held
  CHECK(w.w_W[0].y() == doctest::Approx(1.8));
  CHECK((w.origin_velocity(m, 0) - origin_v).norm() < 1e-12);
  Data v;
  copy_state(m, d, v);
  perturb_initial_state(in[2], 0.25, m, v);
  CHECK((v.origin_velocity(m, 0) - origin_v - Vec3(0, 0, 0.25)).norm() < 1e-12);
  Data p;
  copy_state(m, d, p);
  perturb_initial_state(in[3], 0.5, m, p);
  CHECK((p.origin_position(m, 0) - origin - Vec3(0, 0, 0.5)).norm() < 1e-12);
}

TEST_CASE("gradcheck: finite differences of a ballistic flight match the closed form") {
  // bouncing_ball for 20 steps of 10 ms from 1 m above the floor: no contact, so
  // z_N = z0 + N h vz0 - g h^2 N(N+1)/2 and vz_N = vz0 - N g h (semi-implicit Euler):
  // d z_N / d vz0 = N h = 0.2, d z_N / d z0 = 1, d vz_N / d vz0 = 1, d vz_N / d z0 = 0.
  RolloutSpec spec;
  spec.scene = "bouncing_ball";
  spec.model = test::scene_model(spec.scene);
  spec.dt = 0.01;
  spec.steps = 20;
  const Model m = load_mjcf_file(resolve_scene("bouncing_ball"));
  const auto in = parse_grad_inputs("init:ball.vz,init:ball.pz,init:ball.vx", m);
  // The progress callback (gradcheck's bar, apps/grad_command.cpp) hears of
  // each of the 2 x 3 rollouts, in order, with the total.
  std::vector<std::pair<long, long>> heard;
  const auto g = finite_difference_gradient(spec, "final:ball.pz + 3*final:ball.vz", in, 1e-5,
                                            [&](long done, long total) { heard.emplace_back(done, total); });
  REQUIRE(heard.size() == 6);
  for (size_t k = 0; k < heard.size(); ++k) {
    CHECK(heard[k].first == static_cast<long>(k) + 1);
    CHECK(heard[k].second == 6);
  }
  // Tolerance: the map is affine, so only rounding remains: ~1e-16 / 1e-5.
  CHECK(g[0] == doctest::Approx(0.2 + 3).epsilon(1e-9));
  CHECK(g[1] == doctest::Approx(1).epsilon(1e-9));
  CHECK(std::abs(g[2]) < 1e-9);
  GradCheckOptions opt;
  const auto table = compare_gradients(in, {3.2, 1.0, 0.0}, g, opt);
  CHECK(table[0].ok);
  CHECK(table[2].relative_error == 0);  // both below the floor
  const auto bad = compare_gradients(in, {3.3, 1.0, 0.0}, g, opt);
  CHECK_FALSE(bad[0].ok);
  CHECK(bad[0].relative_error == doctest::Approx(0.1 / 3.3).epsilon(1e-6));
}
