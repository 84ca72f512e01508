// MJCF joint ref: coordinates are MuJoCo's (ref plus the motion from the
// model's pose) everywhere they are read or reported: qpos and keyframes,
// limits, tendon lengths, and joint equalities measured from qpos0.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/kinematics.hpp"
#include "io/mjcf.hpp"
#include "sim/simulation.hpp"
#include "support/tight_solves.hpp"

using namespace contactlab;

namespace {

const std::string kFile = std::string(CONTACTLAB_TEST_DATA) + "/ref_joints.xml";
const double kDeg = kPi / 180;

Simulation make(const Model& model) {
  Simulation sim(model, PartChoice{"desaxce", "padmm", "velocity"});
  test::tighten_solves(sim);
  sim.reset();
  return sim;
}

}  // namespace

TEST_CASE("joint ref: qpos0 is ref, and qpos moves the bodies from the model's pose") {
  const Model m = load_mjcf_file(kFile);
  const int swing = m.find_joint("swing"), lift = m.find_joint("lift"), follow = m.find_joint("follow");
  CHECK(m.joints[swing].ref == doctest::Approx(30 * kDeg).epsilon(1e-15));
  CHECK(m.joints[lift].ref == 0.2);
  const std::vector<Real> q0 = reference_qpos(m);
  CHECK(q0[m.joints[swing].qpos_adr] == m.joints[swing].ref);
  CHECK(q0[m.joints[follow].qpos_adr] == m.joints[follow].ref);
  // At rest in the model's pose the coordinates read back are the refs.
  Data d;
  d.init(m);
  std::vector<Real> qpos, qvel;
  get_generalized_state(m, d, qpos, qvel);
  for (size_t i = 0; i < qpos.size(); ++i) CHECK(qpos[i] == doctest::Approx(q0[i]).epsilon(1e-14));
  // qpos = ref + 0.3 turns the arm 0.3 rad from its pose, and reads back.
  std::vector<Real> moved = q0;
  moved[m.joints[swing].qpos_adr] += 0.3;
  moved[m.joints[lift].qpos_adr] += 0.05;
  set_generalized_state(m, moved, {}, d);
  const int arm = m.find_body("arm"), slider = m.find_body("slider");
  CHECK(d.q_WB[arm].angularDistance(m.bodies[arm].quat0_WB) == doctest::Approx(0.3).epsilon(1e-12));
  CHECK(d.origin_position(m, slider).z() == doctest::Approx(1.05).epsilon(1e-14));
  get_generalized_state(m, d, qpos, qvel);
  CHECK(qpos[m.joints[swing].qpos_adr] == doctest::Approx(30 * kDeg + 0.3).epsilon(1e-12));
  CHECK(qpos[m.joints[lift].qpos_adr] == doctest::Approx(0.25).epsilon(1e-12));
}

TEST_CASE("joint ref: a hinge's coordinate with ref is wrapped to the half-open interval from -pi to pi") {
  const std::string xml =
      "<mujoco><worldbody><body><joint name=\"h\" type=\"hinge\" axis=\"0 0 1\" ref=\"170\"/>"
      "<geom size=\"0.1\"/></body></worldbody></mujoco>";
  const Model m = load_mjcf_string(xml, "wrap.xml");
  Data d;
  set_generalized_state(m, {175 * kDeg}, {}, d);
  CHECK(joint_position(m, d, 0) == doctest::Approx(175 * kDeg).epsilon(1e-12));
  set_generalized_state(m, {-175 * kDeg}, {}, d);  // 15 degrees past ref: the same pose as 185
  CHECK(joint_position(m, d, 0) == doctest::Approx(-175 * kDeg).epsilon(1e-12));
}

TEST_CASE("joint ref: at qpos0 the equality and the tendon limit hold, so nothing moves without gravity") {
  // follow = swing measured from qpos0 (refs -20 and 30 deg): satisfied at the
  // model's pose. The tendon over lift (ref 0.2) has length 0.2 inside its
  // range [0.1, 0.3]. A reader measuring from 0 would see an equality violated
  // by 50 deg and a tendon at 0, below its limit: the bodies would jump.
  // No gravity, springs off: keep only the rows under test.
  Model m = load_mjcf_file(kFile);
  m.options.gravity = Vec3::Zero();
  for (Joint& j : m.joints) j.stiffness = 0;
  Simulation quiet = make(m);
  for (int i = 0; i < 50; ++i) quiet.step(1e-3);
  for (int b = 0; b < quiet.model().num_bodies(); ++b) {
    CHECK(quiet.data().v_W[b].norm() < 1e-9);
    CHECK(quiet.data().w_W[b].norm() < 1e-9);
  }
}

TEST_CASE("joint ref: limits and the equality act on MuJoCo's coordinates") {
  // The slide starts at its ref 0.2 moving up at 1 m/s without gravity or
  // spring: the tendon limit (L = lift <= 0.3) stops it 0.1 above its pose
  // (a reader ignoring ref would stop it 0.3 above). The arm turned 0.2 rad from its pose drags the
  // follower 0.2 rad from its own (the equality on changes from qpos0).
  Model m = load_mjcf_file(kFile);
  m.options.gravity = Vec3::Zero();
  for (Joint& j : m.joints) j.stiffness = 0;
  Simulation sim = make(m);
  const int swing = m.find_joint("swing"), lift = m.find_joint("lift"), follow = m.find_joint("follow");
  std::vector<Real> qpos = reference_qpos(m), qvel(m.nv, 0.0);
  qvel[m.joints[lift].qvel_adr] = 1.0;
  qvel[m.joints[swing].qvel_adr] = 0.5;
  qvel[m.joints[follow].qvel_adr] = 0.5;
  set_generalized_state(m, qpos, qvel, sim.data());
  Real highest = 0;
  for (int i = 0; i < 400; ++i) {
    sim.step(1e-3);
    highest = std::max(highest, joint_position(m, sim.data(), lift));
  }
  CHECK(highest == doctest::Approx(0.3).epsilon(2e-3));  // the limit's one-step overshoot at 1 m/s: <= h v = 1e-3
  CHECK(joint_position(m, sim.data(), lift) <= 0.3 + 1e-6);
  const Real d_swing = joint_position(m, sim.data(), swing) - m.joints[swing].ref;
  const Real d_follow = joint_position(m, sim.data(), follow) - m.joints[follow].ref;
  CHECK(d_swing > 0.1);  // guard: it turned
  CHECK(d_follow == doctest::Approx(d_swing).epsilon(1e-6));
}
