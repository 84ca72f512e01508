// Generalised <-> maximal coordinates: Data::init, set_generalized_state,
// joint_position/velocity, get_generalized_state, geom_world_pose.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/data.hpp"
#include "core/kinematics.hpp"
#include "core/model.hpp"
#include "io/mjcf.hpp"
#include "io/scene_library.hpp"

using namespace contactlab;

namespace {

// A fixed base carrying a hinge-slide-hinge chain (with a welded tip), and a
// free body carrying a ball-jointed child. Frames, anchors and axes are all
// generic so that no term vanishes by symmetry.
const char* const kChain = R"(<mujoco model="chain">
  <worldbody>
    <body name="base" pos="0.1 -0.2 0.5" euler="10 20 30">
      <geom type="box" size="0.1 0.1 0.1"/>
      <body name="l1" pos="0.2 0 0" euler="0 30 0">
        <joint name="h1" type="hinge" axis="0 1 0.3" pos="0 0 0.05"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
        <body name="l2" pos="0.3 0 0" euler="15 0 -20">
          <joint name="s2" type="slide" axis="1 0.2 0" pos="0.01 0.02 0"/>
          <geom type="box" size="0.05 0.04 0.03" pos="0.05 0 0"/>
          <body name="l3" pos="0.1 0.05 0" axisangle="1 1 1 40">
            <joint name="h3" type="hinge" axis="1 0 0" pos="0 0.02 0.01"/>
            <geom type="cylinder" size="0.02 0.1" pos="0 0 0.1"/>
            <body name="tip" pos="0 0 0.2">
              <geom type="sphere" size="0.03" pos="0.01 0 0"/>
            </body>
          </body>
        </body>
      </body>
    </body>
    <body name="floater" pos="1 0 1" euler="30 -40 50">
      <freejoint name="free"/>
      <geom type="box" size="0.1 0.2 0.3" pos="0.05 0 0"/>
      <body name="ball_child" pos="0.3 0.1 0">
        <joint name="ball" type="ball" pos="0.05 0 0.02"/>
        <geom type="capsule" size="0.03 0.1" pos="0.1 0 0" euler="0 90 0"/>
      </body>
    </body>
  </worldbody>
</mujoco>)";

Model chain() { return load_mjcf_string(kChain, "chain.xml"); }

struct Random {
  std::mt19937 rng{12345};
  Real uniform(Real lo, Real hi) { return std::uniform_real_distribution<Real>(lo, hi)(rng); }
  Vec3 vec(Real s) { return Vec3(uniform(-s, s), uniform(-s, s), uniform(-s, s)); }
  Quat quat() {
    Quat q(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    q.normalize();
    if (q.w() < 0) q.coeffs() = -q.coeffs();
    return q;
  }
};

void put_quat(std::vector<Real>& v, int adr, const Quat& q) {
  v[adr] = q.w();
  v[adr + 1] = q.x();
  v[adr + 2] = q.y();
  v[adr + 3] = q.z();
}

Quat get_quat(const std::vector<Real>& v, int adr) { return Quat(v[adr], v[adr + 1], v[adr + 2], v[adr + 3]); }

// Random qpos (hinge angles inside (-pi, pi), unit quaternions with w >= 0) and qvel.
void random_state(const Model& m, Random& r, std::vector<Real>& qpos, std::vector<Real>& qvel) {
  qpos = reference_qpos(m);
  qvel.assign(m.nv, 0.0);
  for (const Joint& j : m.joints) {
    switch (j.type) {
      case JointType::Hinge:
        qpos[j.qpos_adr] = r.uniform(-3.0, 3.0);
        break;
      case JointType::Slide:
        qpos[j.qpos_adr] = r.uniform(-0.5, 0.5);
        break;
      case JointType::Ball:
        put_quat(qpos, j.qpos_adr, r.quat());
        break;
      case JointType::Free: {
        const Vec3 p = r.vec(2);
        for (int i = 0; i < 3; ++i) qpos[j.qpos_adr + i] = p[i];
        put_quat(qpos, j.qpos_adr + 3, r.quat());
        break;
      }
      case JointType::Weld:
        break;
    }
  }
  for (Real& v : qvel) v = r.uniform(-2, 2);
}

// qpos advanced by dt along qvel (quaternions on the manifold, body-frame rates).
std::vector<Real> advance(const Model& m, const std::vector<Real>& qpos, const std::vector<Real>& qvel, Real dt) {
  std::vector<Real> out = qpos;
  for (const Joint& j : m.joints) {
    const int a = j.qpos_adr, d = j.qvel_adr;
    switch (j.type) {
      case JointType::Hinge:
      case JointType::Slide:
        out[a] += dt * qvel[d];
        break;
      case JointType::Ball: {
        const Quat q = get_quat(qpos, a);
        // Local rate: q(t) = q exp(t w_local / 2) = exp(t R w_local / 2) q.
        put_quat(out, a, integrate_quaternion(q, q * Vec3(qvel[d], qvel[d + 1], qvel[d + 2]), dt));
        break;
      }
      case JointType::Free: {
        for (int i = 0; i < 3; ++i) out[a + i] += dt * qvel[d + i];
        const Quat q = get_quat(qpos, a + 3);
        put_quat(out, a + 3, integrate_quaternion(q, q * Vec3(qvel[d + 3], qvel[d + 4], qvel[d + 5]), dt));
        break;
      }
      case JointType::Weld:
        break;
    }
  }
  return out;
}

Vec3 rotation_rate(const Quat& q_minus, const Quat& q_plus, Real two_h) {
  return quaternion_log(q_plus * q_minus.conjugate()) / two_h;
}

}  // namespace

TEST_CASE("kinematics: init puts every body at its reference pose, at rest, with the com as state") {
  const Model m = chain();
  Data d;
  d.init(m);
  REQUIRE(d.x_W.size() == m.bodies.size());
  CHECK(d.ctrl.size() == m.actuators.size());
  CHECK(d.time == 0);
  for (int b = 0; b < m.num_bodies(); ++b) {
    const Body& body = m.bodies[b];
    CHECK(d.q_WB[b].isApprox(body.quat0_WB));
    CHECK((d.x_W[b] - (body.pos0_W + body.quat0_WB * body.com_B)).norm() < 1e-14);
    CHECK((d.origin_position(m, b) - body.pos0_W).norm() < 1e-14);
    CHECK(d.v_W[b].isZero());
    CHECK(d.w_W[b].isZero());
  }
  // Empty qpos/qvel mean the reference configuration at rest.
  Data e;
  e.init(m);
  e.x_W[2] += Vec3(1, 1, 1);
  set_generalized_state(m, {}, {}, e);
  for (int b = 0; b < m.num_bodies(); ++b) {
    CHECK((e.x_W[b] - d.x_W[b]).norm() < 1e-12);
    CHECK(std::abs(std::abs(e.q_WB[b].dot(d.q_WB[b])) - 1) < 1e-12);
  }
  std::vector<Real> qpos, qvel;
  get_generalized_state(m, d, qpos, qvel);
  const std::vector<Real> ref = reference_qpos(m);
  for (int i = 0; i < m.nq; ++i) CHECK(qpos[i] == doctest::Approx(ref[i]).epsilon(1e-12));
}

TEST_CASE("kinematics: joint coordinates round-trip through the maximal state") {
  const Model m = chain();
  REQUIRE(m.nq == 1 + 1 + 1 + 7 + 4);
  REQUIRE(m.nv == 1 + 1 + 1 + 6 + 3);
  Random r;
  Data d;
  d.init(m);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Real> qpos, qvel;
    random_state(m, r, qpos, qvel);
    set_generalized_state(m, qpos, qvel, d);
    std::vector<Real> q2, v2;
    get_generalized_state(m, d, q2, v2);
    for (int i = 0; i < m.nq; ++i) CHECK(q2[i] == doctest::Approx(qpos[i]).epsilon(1e-10));
    for (int i = 0; i < m.nv; ++i) CHECK(v2[i] == doctest::Approx(qvel[i]).epsilon(1e-10));
    for (const char* name : {"h1", "s2", "h3"}) {
      const int j = m.find_joint(name);
      CHECK(joint_position(m, d, j) == doctest::Approx(qpos[m.joints[j].qpos_adr]).epsilon(1e-10));
      CHECK(joint_velocity(m, d, j) == doctest::Approx(qvel[m.joints[j].qvel_adr]).epsilon(1e-10));
    }
    // The welded tip keeps its pose relative to l3.
    const int l3 = m.find_body("l3"), tip = m.find_body("tip");
    const Vec3 rel = d.q_WB[l3].conjugate() * (d.origin_position(m, tip) - d.origin_position(m, l3));
    CHECK((rel - Vec3(0, 0, 0.2)).norm() < 1e-12);
    CHECK((d.w_W[tip] - d.w_W[l3]).norm() < 1e-12);
  }
}

TEST_CASE("kinematics: state velocities are the time derivative of the positions") {
  const Model m = chain();
  Random r;
  const Real h = 1e-6;
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<Real> qpos, qvel;
    random_state(m, r, qpos, qvel);
    Data d, dp, dm;
    d.init(m);
    dp.init(m);
    dm.init(m);
    set_generalized_state(m, qpos, qvel, d);
    set_generalized_state(m, advance(m, qpos, qvel, h), {}, dp);
    set_generalized_state(m, advance(m, qpos, qvel, -h), {}, dm);
    for (int b = 0; b < m.num_bodies(); ++b) {
      INFO("body " << m.bodies[b].name);
      const Vec3 v_com = (dp.x_W[b] - dm.x_W[b]) / (2 * h);
      const Vec3 v_origin = (dp.origin_position(m, b) - dm.origin_position(m, b)) / (2 * h);
      const Vec3 w = rotation_rate(dm.q_WB[b], dp.q_WB[b], 2 * h);
      CHECK((d.v_W[b] - v_com).norm() < 1e-6);
      CHECK((d.origin_velocity(m, b) - v_origin).norm() < 1e-6);
      CHECK((d.w_W[b] - w).norm() < 1e-6);
    }
    // The velocity is not trivially zero: the check has something to compare.
    CHECK(d.v_W[m.find_body("tip")].norm() > 1e-3);
  }
}

TEST_CASE("kinematics: joint_velocity differentiates joint_position of any rigid motion") {
  // A maximal state that violates the slide joint: joint_velocity must still be
  // the exact derivative of joint_position (the assembly relies on it).
  const Model m = chain();
  Random r;
  const Real h = 1e-6;
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<Real> qpos, qvel;
    random_state(m, r, qpos, qvel);
    Data d;
    d.init(m);
    set_generalized_state(m, qpos, qvel, d);
    const int s2 = m.find_joint("s2"), l2 = m.find_body("l2");
    d.x_W[l2] += r.vec(0.05);
    d.q_WB[l2] = (Quat(Eigen::AngleAxis<Real>(0.1, r.vec(1).normalized())) * d.q_WB[l2]).normalized();
    d.v_W[l2] += r.vec(1);
    d.w_W[l2] += r.vec(1);
    Data dp, dm;
    dp.init(m);
    dm.init(m);
    for (Data* e : {&dp, &dm}) {
      const Real dt = e == &dp ? h : -h;
      for (int b = 0; b < m.num_bodies(); ++b) {
        e->x_W[b] = d.x_W[b] + dt * d.v_W[b];
        e->q_WB[b] = integrate_quaternion(d.q_WB[b], d.w_W[b], dt);
        e->v_W[b] = d.v_W[b];
        e->w_W[b] = d.w_W[b];
      }
    }
    const Real fd = (joint_position(m, dp, s2) - joint_position(m, dm, s2)) / (2 * h);
    CHECK(joint_velocity(m, d, s2) == doctest::Approx(fd).epsilon(1e-6));
    CHECK(std::abs(fd) > 1e-3);
  }
}

TEST_CASE("kinematics: hinge sign, free-joint velocity frames, geom poses") {
  // Pendulum hinge about +y at (0, 0, 1), bob 1 m below: a positive angle swings it to -x.
  const Model p = load_mjcf_file(resolve_scene("pendulum"));
  Data d;
  d.init(p);
  const Real theta = 0.2;
  set_generalized_state(p, {theta}, {1.5}, d);
  CHECK((d.x_W[0] - Vec3(-std::sin(theta), 0, 1 - std::cos(theta))).norm() < 1e-12);
  CHECK((d.v_W[0] - 1.5 * Vec3(-std::cos(theta), 0, std::sin(theta))).norm() < 1e-12);
  CHECK(d.w_W[0].isApprox(Vec3(0, 1.5, 0)));
  CHECK(joint_position(p, d, 0) == doctest::Approx(theta));
  CHECK(joint_velocity(p, d, 0) == doctest::Approx(1.5));
  Vec3 pos;
  Mat3 R;
  geom_world_pose(p, d, p.find_geom("bob"), pos, R);
  CHECK((pos - d.x_W[0]).norm() < 1e-12);
  CHECK(R.isApprox(d.q_WB[0].toRotationMatrix()));

  // Free joint: linear velocity of the origin in world axes, angular in body axes.
  const Model m = load_mjcf_string(R"(<mujoco><worldbody>
      <geom name="floor" type="plane" pos="0 0 -1" euler="0 0 30" size="1 1 1"/>
      <body name="b" pos="0 0 1"><freejoint/>
        <geom name="g" type="box" size="0.1 0.1 0.1" pos="1 0 0" mass="1"/></body>
    </worldbody></mujoco>)",
                                   "free.xml");
  Data f;
  f.init(m);
  const Quat q(Eigen::AngleAxis<Real>(kPi / 2, Vec3::UnitZ()));
  set_generalized_state(m, {1, 2, 3, q.w(), q.x(), q.y(), q.z()}, {0.5, 0, 0, 1, 0, 0}, f);
  CHECK(f.w_W[0].isApprox(Vec3(0, 1, 0)));  // body x = world y
  CHECK(f.origin_position(m, 0).isApprox(Vec3(1, 2, 3)));
  CHECK(f.origin_velocity(m, 0).isApprox(Vec3(0.5, 0, 0)));
  CHECK(f.x_W[0].isApprox(Vec3(1, 3, 3)));  // com 1 m along body x
  CHECK(f.v_W[0].isApprox(Vec3(0.5, 0, 0) + Vec3(0, 1, 0).cross(Vec3(0, 1, 0))));
  geom_world_pose(m, f, m.find_geom("g"), pos, R);
  CHECK(pos.isApprox(Vec3(1, 3, 3)));
  geom_world_pose(m, f, m.find_geom("floor"), pos, R);
  CHECK(pos.isApprox(Vec3(0, 0, -1)));
  CHECK((R * Vec3::UnitX()).isApprox(Vec3(std::cos(kPi / 6), std::sin(kPi / 6), 0)));
}

TEST_CASE("kinematics: keyframes and misuse") {
  const Model c = load_mjcf_file(resolve_scene("cart_pole"));
  Data d;
  d.init(c);
  set_generalized_state(c, c.keyframes[0].qpos, c.keyframes[0].qvel, d);
  CHECK(joint_position(c, d, c.find_joint("hinge")) == doctest::Approx(0.1));
  CHECK(joint_position(c, d, c.find_joint("slider")) == doctest::Approx(0.0));
  // Pole tilted toward +x by 0.1 rad about +y: its com (0.5 m up) moves to +x.
  const int pole = c.find_body("pole");
  CHECK(d.x_W[pole].x() == doctest::Approx(0.5 * std::sin(0.1)));

  try {
    set_generalized_state(c, {0.1}, {}, d);
    FAIL("expected std::invalid_argument");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("qpos has 1 entries, the model has nq = 2") != std::string::npos);
  }
  CHECK_THROWS_AS(set_generalized_state(c, {}, {1, 2, 3}, d), std::invalid_argument);
  const Model m = chain();
  Data e;
  e.init(m);
  CHECK_THROWS_AS(joint_position(m, e, m.find_joint("free")), std::invalid_argument);
  CHECK_THROWS_AS(joint_velocity(m, e, m.find_joint("ball")), std::invalid_argument);
  std::vector<Real> zero_quat = reference_qpos(m);
  put_quat(zero_quat, m.joints[m.find_joint("ball")].qpos_adr, Quat(0, 0, 0, 0));
  CHECK_THROWS_AS(set_generalized_state(m, zero_quat, {}, e), std::invalid_argument);
}
