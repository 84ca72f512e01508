// The MuJoCo peer (peers/mujoco_peer.hpp). Without MuJoCo in the build the
// peer must say so; with it, the plumbing (file, keyframes, body and actuator
// names, state mapping, velocity frames) is checked against MuJoCo's own C API
// on the same file, and contact-free scenes are compared with contactlab at
// fine steps.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "core/kinematics.hpp"
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

namespace {

// The largest difference of MJCF generalised coordinates (rad or m) between
// contactlab and MuJoCo over `seconds` at step h, each engine reading the
// file itself, both started from (qpos, qvel) with constant controls.
double qpos_difference(const std::string& path, const std::vector<double>& qpos, const std::vector<double>& ctrl,
                       double h, double seconds, std::vector<double> qvel = {}) {
  Simulation sim(load_mjcf_file(path), PartChoice{});
  sim.reset();
  if (qvel.empty()) qvel.assign(sim.model().nv, 0.0);
  set_generalized_state(sim.model(), qpos, qvel, sim.data());
  MujocoPeer peer(path, sim.model());
  peer.set_timestep(h);
  peer.set_generalized_state(qpos, qvel);
  Data theirs;
  theirs.init(sim.model());
  std::vector<Real> q_mine, q_theirs, v;
  std::vector<bool> hinge(sim.model().nq, false);
  for (const Joint& j : sim.model().joints)
    if (j.type == JointType::Hinge) hinge[j.qpos_adr] = true;
  double worst = 0;
  const long n = std::lround(seconds / h);
  for (long s = 0; s < n; ++s) {
    sim.data().ctrl = ctrl;
    sim.step(h);
    peer.step(ctrl);
    peer.read_state(theirs);
    get_generalized_state(sim.model(), sim.data(), q_mine, v);
    get_generalized_state(sim.model(), theirs, q_theirs, v);
    for (size_t i = 0; i < q_mine.size(); ++i) {
      // Hinge angles are read back in (-pi, pi] from both states: compare them modulo 2 pi.
      const double d = q_mine[i] - q_theirs[i];
      worst = std::max(worst, std::abs(hinge[i] ? std::remainder(d, 2 * kPi) : d));
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("mujoco peer: joints with ref move as MuJoCo's, coordinates and springref included") {
  // tests/data/ref_springs.xml: a hinge (ref 30 deg, spring toward 10 deg, a
  // position servo) and a slide (ref 0.2 m, spring toward 0.5 m), started away
  // from the model's pose. A reader that dropped ref would start 0.52 rad and
  // 0.2 m off. Measured 4.8e-3 at h = 1e-3 s and 4.9e-4 at 1e-4 s (first
  // order in h, contactlab's step error); bounds 2x.
  const std::string path = std::string(CONTACTLAB_TEST_DATA) + "/ref_springs.xml";
  const double coarse = qpos_difference(path, {0.7, 0.3}, {0.4}, 1e-3, 1.0);
  const double fine = qpos_difference(path, {0.7, 0.3}, {0.4}, 1e-4, 1.0);
  MESSAGE("ref_springs: largest qpos difference " << coarse << " at h = 1e-3 s, " << fine << " at 1e-4 s");
  CHECK(coarse <= 1e-2);
  CHECK(fine <= 1e-3);
  CHECK(fine > 0);
  CHECK(coarse >= 5 * fine);
}

TEST_CASE("mujoco peer: dm_control's swimmer in its medium (fluid forces, a mass-only ellipsoid) moves as MuJoCo's") {
  // swimmer.xml: option density 3000, contacts disabled, a head of slide x,
  // slide y and hinge z whose ellipsoid geom has mass 0. Launched at 0.3 m/s
  // and 2 rad/s, the inertia-box drag slows it; without fluid forces it would
  // coast (the guard below). Measured 2.0e-3 at h = 1e-3 s and 2.0e-4 at
  // 1e-4 s (first order: contactlab's step error); bounds 2x.
  const std::string path = std::string(CONTACTLAB_MJCF_DIR) + "/dm_control/dm_control/suite/swimmer.xml";
  const std::vector<double> qpos{0.1, -0.2, 0.4}, qvel{0.3, -0.1, 2.0};
  const double coarse = qpos_difference(path, qpos, {}, 1e-3, 1.0, qvel);
  const double fine = qpos_difference(path, qpos, {}, 1e-4, 1.0, qvel);
  MESSAGE("swimmer: largest qpos difference " << coarse << " at h = 1e-3 s, " << fine << " at 1e-4 s");
  CHECK(coarse <= 4e-3);
  CHECK(fine <= 4e-4);
  CHECK(fine > 0);
  CHECK(coarse >= 5 * fine);
  // Guard: the medium matters here. MuJoCo's swimmer travels less than the 0.3 m it would coast.
  const Model model = load_mjcf_file(path);
  MujocoPeer peer(path, model);
  peer.set_timestep(1e-3);
  peer.set_generalized_state(qpos, qvel);
  for (int s = 0; s < 1000; ++s) peer.step({});
  Data theirs;
  theirs.init(model);
  peer.read_state(theirs);
  std::vector<Real> q, v;
  get_generalized_state(model, theirs, q, v);
  CHECK(q[0] - qpos[0] < 0.2);
}

TEST_CASE("mujoco peer: cheetah's masses and inertias after settotalmass are MuJoCo's") {
  // dm_control's cheetah sets compiler settotalmass="14": contactlab's scaled
  // masses and principal moments against MuJoCo's compiled model of the same
  // file. Both compute capsule masses and inertias in closed form from the
  // same numbers, so they agree to rounding (bound 1e-12 relative).
  const std::string path = std::string(CONTACTLAB_MJCF_DIR) + "/dm_control/dm_control/suite/cheetah.xml";
  const Model model = load_mjcf_file(path);
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  REQUIRE_MESSAGE(m != nullptr, error);
  double total = 0;
  for (const Body& b : model.bodies) {
    CAPTURE(b.name);
    const int id = mj_name2id(m, mjOBJ_BODY, b.name.c_str());
    REQUIRE(id > 0);
    CHECK(b.mass == doctest::Approx(m->body_mass[id]).epsilon(1e-12));
    Vec3 mine = Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia_B).eigenvalues();
    Vec3 theirs(m->body_inertia[3 * id], m->body_inertia[3 * id + 1], m->body_inertia[3 * id + 2]);
    std::sort(theirs.data(), theirs.data() + 3);
    for (int k = 0; k < 3; ++k) CHECK(mine[k] == doctest::Approx(theirs[k]).epsilon(1e-12));
    total += b.mass;
  }
  CHECK(total == doctest::Approx(14).epsilon(1e-12));
  mj_deleteModel(m);
}

TEST_CASE("mujoco peer: dm_control's contact-free models, read by each engine's own parser, agree over 1 s") {
  // pendulum (Euler in MuJoCo), acrobot and cartpole (RK4) and point_mass
  // (Euler; motors on fixed tendons) of the dm_control suite: their includes,
  // default classes, flags and motors read by contactlab's reader and by MuJoCo's. From a displaced start with a
  // constant control, the default combination (desaxce + padmm + velocity,
  // first order) against MuJoCo, largest joint difference over 1 s. The
  // difference is contactlab's step error: it shrinks ~10x from h = 1e-3 to
  // 1e-4 s (checked: at least 5x). Bounds: about 2x the measured values
  // (`contactlab_tests -tc='*dm_control*'` prints them). Hinge angles are
  // compared modulo 2 pi: MuJoCo's qpos keeps counting turns, contactlab reads
  // angles from poses.
  struct Case {
    const char* file;
    std::vector<double> qpos, ctrl;
    double bound_coarse, bound_fine;  // at h = 1e-3 s and 1e-4 s
  };
  const std::filesystem::path dir = std::filesystem::path(CONTACTLAB_MJCF_DIR) / "dm_control/dm_control/suite";
  REQUIRE_MESSAGE(std::filesystem::is_directory(dir), "the shared MJCF corpus is missing: " << dir.string());
  // Measured (rad or m, at 1e-3 / 1e-4 s): pendulum 7.2e-3 / 7.6e-4, acrobot
  // 6.7e-3 / 8.7e-4, cartpole 3.4e-3 / 3.8e-4, point_mass 7.7e-5 / 7.7e-6.
  for (const Case& c : {Case{"pendulum.xml", {1.0}, {0.5}, 1.5e-2, 1.6e-3},
                        Case{"acrobot.xml", {0.5, -0.3}, {0.3}, 1.4e-2, 1.8e-3},
                        Case{"cartpole.xml", {0.0, 0.3}, {0.05}, 7e-3, 8e-4},
                        Case{"point_mass.xml", {0.1, -0.05}, {0.8, -0.6}, 1.6e-4, 1.6e-5}}) {
    CAPTURE(c.file);
    const std::string path = (dir / c.file).string();
    const double coarse = qpos_difference(path, c.qpos, c.ctrl, 1e-3, 1.0);
    const double fine = qpos_difference(path, c.qpos, c.ctrl, 1e-4, 1.0);
    MESSAGE(std::string(c.file) << ": largest qpos difference " << coarse << " at h = 1e-3 s, " << fine << " at 1e-4 s");
    CHECK(coarse <= c.bound_coarse);
    CHECK(fine <= c.bound_fine);
    CHECK(fine > 0);              // guard: two engines, not one
    CHECK(coarse >= 5 * fine);    // the difference is the first-order step error
  }
}

#endif
