// Joint, limit, loop-closure and actuator rows of the velocity scheme, each
// against a closed-form discrete answer or an invariant (docs/validation.md).
#include <doctest/doctest.h>

#include <cmath>

#include "core/kinematics.hpp"
#include "io/mjcf.hpp"
#include "sim/simulation.hpp"
#include "support/tight_solves.hpp"

using namespace contactlab;

namespace {

Simulation make(const std::string& body_xml, const std::string& extra = "", const std::string& gravity = "0 0 0") {
  const std::string xml = "<mujoco model=\"t\"><compiler angle=\"radian\"/><option timestep=\"0.001\" gravity=\"" +
                          gravity + "\"/><worldbody>" + body_xml + "</worldbody>" + extra + "</mujoco>";
  Simulation sim(load_mjcf_string(xml, "test"), PartChoice{});
  // Tight solves, so that closed-form discrete answers can be compared closely.
  test::tighten_solves(sim);
  return sim;
}

// Per-step solver error ~1e-11 accumulated over <= 2000 steps, relative to O(1) values.
constexpr double kSolveTol = 1e-7;

const char* kRotor =
    "<body name=\"rotor\" pos=\"0 0 0\"><joint name=\"j\" type=\"hinge\" axis=\"0 0 1\" DAMP ARM/>"
    "<geom type=\"box\" size=\"0.2 0.1 0.05\" mass=\"2\" contype=\"0\" conaffinity=\"0\"/></body>";

std::string rotor(const std::string& damping, const std::string& armature) {
  std::string s = kRotor;
  s.replace(s.find("DAMP"), 4, damping.empty() ? "" : "damping=\"" + damping + "\"");
  s.replace(s.find("ARM"), 3, armature.empty() ? "" : "armature=\"" + armature + "\"");
  return s;
}

double rotor_inertia() { return 2.0 * (0.4 * 0.4 + 0.2 * 0.2) / 12.0; }  // box about z

}  // namespace

TEST_CASE("joints: implicit joint damping decays as (1 + h b / I)^-n") {
  Simulation sim = make(rotor("0.5", ""));
  sim.data().w_W[0] = Vec3(0, 0, 3.0);
  const double h = 0.001, I = rotor_inertia(), b = 0.5;
  for (int i = 0; i < 500; ++i) sim.step(h);
  const double expected = 3.0 * std::pow(1 + h * b / I, -500);
  CHECK(sim.data().w_W[0].z() == doctest::Approx(expected).epsilon(kSolveTol));
  CHECK(expected < 0.5 * 3.0);  // guard: damping really acted
}

TEST_CASE("joints: armature adds inertia to a motor-driven hinge") {
  const std::string act = "<actuator><motor name=\"m\" joint=\"j\" gear=\"1\"/></actuator>";
  Simulation with = make(rotor("", "0.1"), act);
  Simulation without = make(rotor("", ""), act);
  const double h = 0.001, I = rotor_inertia(), tau = 0.2;
  for (int i = 0; i < 300; ++i) {
    with.data().ctrl[0] = tau;
    without.data().ctrl[0] = tau;
    with.step(h);
    without.step(h);
  }
  CHECK(with.data().w_W[0].z() == doctest::Approx(300 * h * tau / (I + 0.1)).epsilon(kSolveTol));
  CHECK(without.data().w_W[0].z() == doctest::Approx(300 * h * tau / I).epsilon(kSolveTol));
}

TEST_CASE("joints: position servo is stable for any gain and step, and reaches its target") {
  const std::string slider =
      "<body name=\"cart\"><joint name=\"s\" type=\"slide\" axis=\"1 0 0\"/>"
      "<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1\" contype=\"0\" conaffinity=\"0\"/></body>";
  for (double kp : {1.0, 1e3, 1e8}) {
    for (double h : {1e-3, 0.1}) {
      CAPTURE(kp);
      CAPTURE(h);
      const std::string act = "<actuator><position name=\"p\" joint=\"s\" kp=\"" + std::to_string(kp) + "\"/></actuator>";
      Simulation sim = make(slider, act);
      const double target = 0.5;
      double max_offset = 0;
      const int steps = static_cast<int>(std::lround(20.0 / h));
      for (int i = 0; i < steps; ++i) {
        sim.data().ctrl[0] = target;
        sim.step(h);
        max_offset = std::max(max_offset, std::abs(joint_position(sim.model(), sim.data(), 0) - target));
      }
      // Implicit PD cannot gain energy: the offset never exceeds the initial one.
      CHECK(max_offset <= target + 1e-9);
      if (kp * h * h >= 1.0) {
        // Stiff enough to settle within the run: m_j = h^2 kp dominates the mass.
        CHECK(std::abs(joint_position(sim.model(), sim.data(), 0) - target) < 1e-4);
      }
    }
  }
}

TEST_CASE("joints: velocity servo holds its target speed") {
  const std::string act = "<actuator><velocity name=\"v\" joint=\"j\" kv=\"10\"/></actuator>";
  Simulation sim = make(rotor("", ""), act);
  for (int i = 0; i < 2000; ++i) {
    sim.data().ctrl[0] = 2.0;
    sim.step(0.001);
  }
  // No load: the servo's fixed point is exactly the target.
  CHECK(sim.data().w_W[0].z() == doctest::Approx(2.0).epsilon(kSolveTol));
  CHECK(joint_velocity(sim.model(), sim.data(), 0) == doctest::Approx(2.0).epsilon(kSolveTol));
}

TEST_CASE("joints: hinge and slide limits stop the motion") {
  Simulation hinge = make(
      "<body name=\"arm\" pos=\"0 0 1\"><joint name=\"h\" type=\"hinge\" axis=\"0 1 0\" limited=\"true\" range=\"-0.3 0.3\"/>"
      "<geom type=\"capsule\" fromto=\"0 0 0 0.5 0 0\" size=\"0.02\" mass=\"1\" contype=\"0\" conaffinity=\"0\"/></body>");
  hinge.data().w_W[0] = Vec3(0, 5, 0);  // about +y: towards +q
  hinge.data().v_W[0] = hinge.data().w_W[0].cross(hinge.data().x_W[0] - Vec3(0, 0, 1));
  double q_max = 0;
  for (int i = 0; i < 1000; ++i) {
    hinge.step(0.001);
    q_max = std::max(q_max, joint_position(hinge.model(), hinge.data(), 0));
  }
  // Speculative limit rows close the gap exactly; the residual is the solver's.
  CHECK(q_max <= 0.3 + 1e-5);
  CHECK(q_max >= 0.3 - 1e-5);  // guard: it did reach the limit

  Simulation slide = make(
      "<body name=\"block\"><joint name=\"s\" type=\"slide\" axis=\"1 0 0\" limited=\"true\" range=\"-0.1 0.2\"/>"
      "<geom type=\"box\" size=\"0.05 0.05 0.05\" mass=\"1\" contype=\"0\" conaffinity=\"0\"/></body>");
  slide.data().v_W[0] = Vec3(-1, 0, 0);
  double q_min = 0;
  for (int i = 0; i < 500; ++i) {
    slide.step(0.001);
    q_min = std::min(q_min, joint_position(slide.model(), slide.data(), 0));
  }
  CHECK(q_min >= -0.1 - 1e-5);
  CHECK(slide.data().v_W[0].x() == doctest::Approx(0).epsilon(1e-5));
}

TEST_CASE("joints: ball joint keeps its anchor - pure velocity projection never adds energy") {
  for (const char* alpha : {"0", "0.1"}) {
  CAPTURE(alpha);
  Simulation sim = make(
      "<body name=\"bob\" pos=\"0 0 1\"><joint name=\"b\" type=\"ball\"/>"
      "<geom type=\"sphere\" pos=\"0.3 0.2 -0.5\" size=\"0.05\" mass=\"1\" contype=\"0\" conaffinity=\"0\"/></body>",
      "", "0 0 -9.81");
  sim.set_option(std::string("scheme.baumgarte=") + alpha);
  sim.data().w_W[0] = Vec3(1.0, -2.0, 3.0);
  const Model& m = sim.model();
  auto energy = [&]() {
    const Data& d = sim.data();
    const Mat3 R = d.q_WB[0].toRotationMatrix();
    return 0.5 * m.bodies[0].mass * d.v_W[0].squaredNorm() +
           0.5 * d.w_W[0].dot(R * m.bodies[0].inertia_B * R.transpose() * d.w_W[0]) +
           m.bodies[0].mass * 9.81 * d.x_W[0].z();
  };
  // Start consistent with the joint: the com moves with w x r about the pivot.
  sim.data().v_W[0] = sim.data().w_W[0].cross(sim.data().x_W[0] - Vec3(0, 0, 1));
  double e_prev = energy(), rise = -1, drift = 0;
  for (int i = 0; i < 1000; ++i) {
    sim.step(0.001);
    const double e = energy();
    rise = std::max(rise, e - e_prev);
    e_prev = e;
    drift = std::max(drift, (sim.data().origin_position(m, 0) - Vec3(0, 0, 1)).norm());
  }
  if (std::string(alpha) == "0") {
    CHECK(rise <= 1e-12);
    // Drift per step ~ h^2 v^2 / r (v ~ 2.2 m/s, r ~ 0.6 m): 8e-6 m, summed over 1000 steps.
    CHECK(drift < 1e-2);
  } else {
    // Baumgarte removes 10% per step: the residual settles near 8e-6 / 0.1.
    CHECK(drift < 2e-4);
  }
  }
}

TEST_CASE("joints: weld equality and an implicit weld keep relative poses") {
  const std::string bodies =
      "<body name=\"a\" pos=\"0 0 1\"><freejoint/><geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1\" contype=\"0\" conaffinity=\"0\"/>"
      "  <body name=\"a_child\" pos=\"0.3 0 0\"><geom type=\"sphere\" size=\"0.05\" mass=\"0.5\" contype=\"0\" conaffinity=\"0\"/></body></body>"
      "<body name=\"b\" pos=\"0.5 0.2 1\"><freejoint/><geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"3\" contype=\"0\" conaffinity=\"0\"/></body>";
  Simulation sim = make(bodies, "<equality><weld body1=\"a\" body2=\"b\"/></equality>", "0 0 -9.81");
  const Model& m = sim.model();
  sim.data().w_W[0] = Vec3(0.5, 1.0, -0.7);
  auto relative = [&](int p, int c) {
    const Quat q = sim.data().q_WB[p].conjugate() * sim.data().q_WB[c];
    const Vec3 d = sim.data().q_WB[p].conjugate() * (sim.data().origin_position(m, c) - sim.data().origin_position(m, p));
    return std::make_pair(q, d);
  };
  const auto ab0 = relative(0, 2), ac0 = relative(0, 1);
  double err = 0;
  for (int i = 0; i < 1000; ++i) {
    sim.step(0.001);
    const auto ab = relative(0, 2), ac = relative(0, 1);
    err = std::max({err, (ab.second - ab0.second).norm(), (ac.second - ac0.second).norm(),
                    ab.first.angularDistance(ab0.first), ac.first.angularDistance(ac0.first)});
  }
  CHECK(err < 1e-4);
  CHECK(sim.data().x_W[0].z() < 1.0 - 1.0);  // guard: the group fell under gravity (~4.9 m in 1 s)
}

TEST_CASE("joints: Baumgarte option reaches the rows") {
  auto residual = [](const char* alpha) {
    Simulation sim(load_mjcf_file(std::string(CONTACTLAB_SCENE_DIR) + "/four_bar.xml"), PartChoice{});
    sim.set_option(std::string("scheme.baumgarte=") + alpha);
    double r = 0;
    for (int i = 0; i < 400; ++i) {
      sim.step(0.0025);
      r = std::max(r, sim.data().metrics.joint_violation);
    }
    return r;
  };
  CHECK(residual("0") > 5 * residual("0.3"));
}

TEST_CASE("joints: a non-finite state stops the run with a message naming the body") {
  Simulation sim = make(rotor("", ""));
  sim.data().w_W[0] = Vec3(0, 0, std::nan(""));
  CHECK_THROWS_WITH_AS(sim.step(0.001), doctest::Contains("rotor"), std::runtime_error);
}

TEST_CASE("joints: a free body in zero gravity keeps its angular momentum") {
  // Asymmetric box spinning near its major axis: the explicit gyroscopic term
  // makes the world-frame angular momentum drift only at O(h) per unit time.
  Simulation sim = make("<body name=\"box\"><freejoint/><geom type=\"box\" size=\"0.3 0.2 0.1\" mass=\"2\"/></body>");
  const Model& m = sim.model();
  sim.data().w_W[0] = Vec3(0.2, 0.1, 5.0);
  auto momentum = [&]() {
    const Mat3 R = sim.data().q_WB[0].toRotationMatrix();
    return Vec3(R * m.bodies[0].inertia_B * R.transpose() * sim.data().w_W[0]);
  };
  const Vec3 L0 = momentum();
  double err = 0;
  for (int i = 0; i < 1000; ++i) {
    sim.step(0.001);
    err = std::max(err, (momentum() - L0).norm() / L0.norm());
  }
  // First-order scheme: relative drift per unit time of order h |w| = 5e-3.
  CHECK(err < 5e-3);
  // Guard: the body really precesses (its angular velocity changes direction).
  CHECK((sim.data().w_W[0] - Vec3(0.2, 0.1, 5.0)).norm() > 1e-3);
}
