// The MuJoCo peer (peers/mujoco_peer.hpp). Without MuJoCo in the build the
// peer must say so; with it, the plumbing (file, keyframes, body and actuator
// names, state mapping, velocity frames) is checked against MuJoCo's own C API
// on the same file, and contact-free scenes are compared with contactlab at
// fine steps.
#include <doctest/doctest.h>

#include <cmath>

#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "peers/mujoco_peer.hpp"
#include "sim/simulation.hpp"

#ifdef CONTACTLAB_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

using namespace contactlab;

TEST_CASE("mujoco peer: built, or a clear message") {
  const Model m = load_mjcf_file(resolve_scene("pendulum"));
  if (!MujocoPeer::built()) {
    MESSAGE("contactlab was built without MuJoCo: the MuJoCo peer tests are skipped");
    CHECK_THROWS_WITH_AS(MujocoPeer(resolve_scene("pendulum"), m), doctest::Contains("libmujoco-dev"),
                         std::invalid_argument);
    return;
  }
  MujocoPeer peer(resolve_scene("pendulum"), m);
  CHECK(peer.integrator() == "Euler");
  CHECK(peer.timestep() == doctest::Approx(0.001));
  CHECK_THROWS_WITH_AS(peer.reset("nope"), doctest::Contains("unknown keyframe 'nope'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(MujocoPeer("/nonexistent.xml", m), doctest::Contains("MuJoCo refused the file"),
                       std::invalid_argument);
}

#ifdef CONTACTLAB_HAVE_MUJOCO

TEST_CASE("mujoco peer: reproduces MuJoCo's own run of the same file exactly") {
  // cart_pole from its keyframe with a constant push, 300 steps, against the
  // C API directly: positions and orientations bit for bit, velocities as
  // mj_objectVelocity at the centre of mass in world axes.
  const std::string path = resolve_scene("cart_pole");
  const Model model = load_mjcf_file(path);
  MujocoPeer peer(path, model);
  peer.reset("init");
  const int motor = model.find_actuator("slide_motor");
  std::vector<double> ctrl(model.actuators.size(), 0.0);
  ctrl[motor] = 3.0;

  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  REQUIRE(m != nullptr);
  mjData* d = mj_makeData(m);
  mj_resetDataKeyframe(m, d, mj_name2id(m, mjOBJ_KEY, "init"));
  d->ctrl[mj_name2id(m, mjOBJ_ACTUATOR, "slide_motor")] = 3.0;
  for (int s = 0; s < 300; ++s) {
    peer.step(ctrl);
    mj_step(m, d);
  }
  Data mine;
  mine.init(model);
  peer.read_state(mine);
  CHECK(mine.step == 300);
  CHECK(mine.time == d->time);
  for (int b = 0; b < model.num_bodies(); ++b) {
    CAPTURE(model.bodies[b].name);
    const int id = mj_name2id(m, mjOBJ_BODY, model.bodies[b].name.c_str());
    REQUIRE(id > 0);
    for (int k = 0; k < 3; ++k) CHECK(mine.x_W[b][k] == d->xipos[3 * id + k]);
    CHECK(mine.q_WB[b].w() == d->xquat[4 * id]);
    CHECK(mine.q_WB[b].z() == d->xquat[4 * id + 3]);
    mjtNum v[6];
    mj_objectVelocity(m, d, mjOBJ_BODY, id, v, 0);
    for (int k = 0; k < 3; ++k) {
      CHECK(mine.w_W[b][k] == v[k]);
      CHECK(mine.v_W[b][k] == v[3 + k]);
    }
  }
  CHECK(std::abs(mine.v_W[model.find_body("cart")].x()) > 0.1);  // guard: the push acted
  mj_deleteData(d);
  mj_deleteModel(m);
}

TEST_CASE("mujoco peer: velocities are centre-of-mass velocities in world axes") {
  // A pendulum turns about its fixed pivot: the COM velocity is w x (x - pivot).
  const std::string path = resolve_scene("pendulum");
  const Model model = load_mjcf_file(path);
  MujocoPeer peer(path, model);
  for (int s = 0; s < 400; ++s) peer.step({});
  Data mine;
  mine.init(model);
  peer.read_state(mine);
  const Vec3 pivot(0, 0, 1);
  CHECK((mine.v_W[0] - mine.w_W[0].cross(mine.x_W[0] - pivot)).norm() < 1e-12);
  CHECK(mine.w_W[0].norm() > 0.1);  // guard: it swings
  CHECK((mine.origin_position(model, 0) - pivot).norm() < 1e-9);  // our origin is MuJoCo's body frame
}

TEST_CASE("mujoco peer: contact-free scenes agree with contactlab at fine steps") {
  // Orientation difference over 2 s. Pendulum: both first order, measured
  // 6.2e-4 rad at 1 ms and 6.3e-5 rad at 0.1 ms; bound 2x. four_bar: MuJoCo's
  // loop-closing <connect> is a soft constraint (default solref 0.02 s), so the
  // difference stops shrinking with the step: measured 4.5e-3 rad at 1 ms and
  // 1.2e-3 rad at 0.1 ms; bound 2x.
  struct Case {
    const char* scene;
    double dt, bound;
  };
  for (const Case& c : {Case{"pendulum", 1e-3, 1.3e-3}, Case{"pendulum", 1e-4, 1.3e-4}, Case{"four_bar", 1e-4, 2.5e-3}}) {
    CAPTURE(c.scene);
    CAPTURE(c.dt);
    const std::string path = resolve_scene(c.scene);
    Simulation sim(load_mjcf_file(path), PartChoice{"desaxce", "padmm", "velocity"});
    sim.reset();
    MujocoPeer peer(path, sim.model());
    peer.set_timestep(c.dt);
    peer.reset();
    Data theirs;
    theirs.init(sim.model());
    double worst = 0;
    const long n = std::lround(2.0 / c.dt);
    for (long s = 0; s < n; ++s) {
      sim.step(c.dt);
      peer.step({});
      peer.read_state(theirs);
      for (int b = 0; b < sim.model().num_bodies(); ++b)
        worst = std::max(worst, sim.data().q_WB[b].angularDistance(theirs.q_WB[b]));
    }
    CAPTURE(worst);
    CHECK(worst <= c.bound);
    CHECK(worst > 0);  // guard: two engines, not one
  }
}

#endif
