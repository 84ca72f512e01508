// MJCF reader: built-in scenes, MuJoCo semantics of the supported subset,
// error messages with file and line, warnings, model overrides.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "core/data.hpp"
#include "core/model.hpp"
#include "io/mass_properties.hpp"
#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/settings.hpp"

#ifndef CONTACTLAB_TEST_DATA
#define CONTACTLAB_TEST_DATA "tests/data"
#endif

using namespace contactlab;

namespace {

Model load_builtin(const std::string& name) {
  std::vector<std::string> warnings;
  Model m = load_mjcf_file(resolve_scene(name), &warnings);
  INFO(name);
  CHECK(warnings.empty());
  for (const std::string& w : warnings) MESSAGE(w);
  return m;
}

Model load(const std::string& body_xml, std::vector<std::string>* warnings = nullptr) {
  return load_mjcf_string("<mujoco>\n" + body_xml + "\n</mujoco>", "inline.xml", warnings);
}

Real total_moving_mass(const Model& m) {
  Real total = 0;
  for (const Body& b : m.bodies)
    if (!b.fixed) total += b.mass;
  return total;
}

bool same_rotation(const Quat& a, const Quat& b, Real tol = 1e-9) { return std::abs(std::abs(a.dot(b)) - 1) < tol; }

Vec3 world_point(const Model& m, int body, const Vec3& p_B) {
  if (body < 0) return p_B;
  return m.bodies[body].pos0_W + m.bodies[body].quat0_WB * p_B;
}

// Loads a malformed file and returns the error (fails the test if none is thrown).
std::string load_error(const std::string& file) {
  const std::string path = std::string(CONTACTLAB_TEST_DATA) + "/" + file;
  REQUIRE(std::filesystem::exists(path));
  try {
    std::vector<std::string> warnings;
    load_mjcf_file(path, &warnings);
  } catch (const MjcfError& e) {
    return e.what();
  }
  FAIL("no MjcfError for " << file);
  return "";
}

std::string inline_error(const std::string& body_xml) {
  try {
    std::vector<std::string> warnings;
    load(body_xml, &warnings);
  } catch (const MjcfError& e) {
    return e.what();
  }
  FAIL("no MjcfError for " << body_xml);
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("mjcf: every built-in scene loads without warnings and validates") {
  const std::vector<std::string> names = builtin_scene_names();
  CHECK(names.size() == 11);
  for (const std::string& name : names) {
    const std::string path = resolve_scene(name);
    CHECK(std::filesystem::exists(path));
    const Model m = load_builtin(name);
    CHECK_NOTHROW(m.validate());
    CHECK(m.name == name);
    CHECK(m.default_duration > 0);
    for (const Body& b : m.bodies) CHECK(!b.name.empty());
    for (const Geom& g : m.geoms) CHECK(!g.name.empty());
  }
}

TEST_CASE("mjcf: scene library resolves names and paths") {
  const std::string path = resolve_scene("pendulum");
  CHECK(contains(path, "pendulum.xml"));
  CHECK(resolve_scene(path) == path);  // an existing file is itself
  try {
    resolve_scene("no_such_scene");
    FAIL("expected std::invalid_argument");
  } catch (const std::invalid_argument& e) {
    CHECK(contains(e.what(), "unknown scene 'no_such_scene'"));
    CHECK(contains(e.what(), "bouncing_ball"));
  }
}

TEST_CASE("mjcf: box_ramp") {
  const Model m = load_builtin("box_ramp");
  REQUIRE(m.num_bodies() == 1);
  const Body& box = m.bodies[m.find_body("box")];
  CHECK(box.mass == doctest::Approx(1.0));
  CHECK(box.inertia_B(0, 0) == doctest::Approx((0.2 * 0.2 + 0.2 * 0.2) / 12).epsilon(1e-12));
  CHECK(box.inertia_B.isDiagonal(1e-15));
  CHECK(box.pos0_W.isApprox(Vec3(0, 0, 0.1)));
  CHECK(m.options.timestep == 0.001);
  CHECK(m.options.gravity.isApprox(Vec3(0, 0, -9.81)));
  CHECK(m.geoms[m.find_geom("floor")].friction == 0.5);
  CHECK(m.geoms[m.find_geom("box")].friction == 0.5);
  REQUIRE(m.actuators.size() == 1);
  const Actuator& push = m.actuators[m.find_actuator("push")];
  CHECK(push.type == ActuatorType::Motor);
  CHECK(m.joints[push.joint].type == JointType::Free);
  CHECK(push.gear == (Vec6() << 1, 0, 0, 0, 0, 0).finished());
  REQUIRE(m.control_schedules.size() == 1);
  const ControlSchedule& s = m.control_schedules[0];
  CHECK(s.actuator == 0);
  CHECK(s.value_at(-1) == 0);
  CHECK(s.value_at(1) == doctest::Approx(7.3575 / 2));
  CHECK(s.value_at(2) == doctest::Approx(7.3575));
  CHECK(s.value_at(2.5) == 0);
  CHECK(m.nq == 7);
  CHECK(m.nv == 6);
}

TEST_CASE("mjcf: bouncing_ball and stacked_boxes") {
  const Model ball = load_builtin("bouncing_ball");
  CHECK(ball.restitution_default == 0.8);
  CHECK(ball.restitution(0, 1) == 0.8);
  const Body& b = ball.bodies[ball.find_body("ball")];
  CHECK(b.mass == 1.0);
  CHECK(b.pos0_W.z() == doctest::Approx(1.1));
  CHECK(b.inertia_B(2, 2) == doctest::Approx(0.4 * 0.01));

  const Model st = load_builtin("stacked_boxes");
  CHECK(st.num_bodies() == 2);
  CHECK(st.find_geom("floor") >= 0);
  const int top = st.find_body("top"), bottom = st.find_body("bottom");
  CHECK(st.bodies[top].pos0_W.z() == doctest::Approx(0.4));
  CHECK(st.bodies[bottom].pos0_W.z() == doctest::Approx(0.1));
  CHECK(st.geoms[st.find_geom("top_box")].body == top);
  CHECK(st.geoms[st.find_geom("bottom_box")].body == bottom);
  for (const Geom& g : st.geoms) CHECK(g.friction == 0.5);
}

TEST_CASE("mjcf: pendulum and cart_pole") {
  const Model p = load_builtin("pendulum");
  const Body& pole = p.bodies[0];
  CHECK(pole.mass == 1.0);
  CHECK(pole.com_B.isApprox(Vec3(0, 0, -1)));
  CHECK(pole.inertia_B.isApprox(1e-4 * Mat3::Identity()));
  REQUIRE(p.joints.size() == 1);
  CHECK(p.joints[0].type == JointType::Hinge);
  CHECK(p.joints[0].axis_B.isApprox(Vec3::UnitY()));
  CHECK(p.joints[0].anchor_parent.isApprox(Vec3(0, 0, 1)));
  REQUIRE(p.keyframes.size() == 1);
  CHECK(p.keyframes[0].name == "init");
  CHECK(p.keyframes[0].qpos == std::vector<Real>{0.2});

  const Model c = load_builtin("cart_pole");
  CHECK(c.nq == 2);
  const Joint& slider = c.joints[c.find_joint("slider")];
  CHECK(slider.type == JointType::Slide);
  CHECK(slider.limited);
  CHECK(slider.range_lo == -2.0);
  CHECK(slider.range_hi == 2.0);
  CHECK(c.joints[c.find_joint("hinge")].parent == c.find_body("cart"));
  const Actuator& motor = c.actuators[c.find_actuator("slide_motor")];
  CHECK(motor.joint == c.find_joint("slider"));
  CHECK(motor.ctrl_limited);
  CHECK(motor.ctrl_lo == -20.0);
  CHECK(motor.ctrl_hi == 20.0);
  CHECK(c.keyframes[0].qpos == std::vector<Real>{0, 0.1});
  const Real r = 0.02, L = 1.0;
  CHECK(c.bodies[c.find_body("pole")].mass == doctest::Approx(1000 * kPi * r * r * (L + 4.0 / 3.0 * r)));
  for (const Geom& g : c.geoms) CHECK((g.contype == 0 && g.conaffinity == 0));
}

TEST_CASE("mjcf: four_bar closes its loop at qpos0") {
  const Model m = load_builtin("four_bar");
  REQUIRE(m.num_bodies() == 3);
  const int crank = m.find_body("crank"), coupler = m.find_body("coupler"), rocker = m.find_body("rocker");
  CHECK(m.bodies[coupler].parent == crank);
  CHECK(m.bodies[rocker].parent == -1);
  const Vec3 d(std::cos(kPi / 4), 0, -std::sin(kPi / 4));
  CHECK(m.bodies[coupler].pos0_W.isApprox(Vec3(0, 0, 1) + 0.4 * d));
  CHECK(same_rotation(m.bodies[coupler].quat0_WB, Quat::Identity()));  // coupler horizontal
  REQUIRE(m.equalities.size() == 1);
  const Equality& e = m.equalities[0];
  CHECK(e.type == EqualityType::Connect);
  CHECK(e.body1 == coupler);
  CHECK(e.body2 == rocker);
  CHECK(e.anchor2.isApprox(Vec3(0.4, 0, 0)));  // the rocker tip, in the rocker frame
  CHECK((world_point(m, e.body1, e.anchor1) - world_point(m, e.body2, e.anchor2)).norm() < 1e-12);
  CHECK((world_point(m, rocker, Vec3(0.4, 0, 0)) - (Vec3(0.6, 0, 1) + 0.4 * d)).norm() < 1e-12);
  for (const Joint& j : m.joints) CHECK(j.axis_parent.cwiseAbs().isApprox(Vec3::UnitY()));
  for (const Geom& g : m.geoms) CHECK((g.contype == 0 && g.conaffinity == 0));
  CHECK(m.options.timestep == 0.0025);
}

TEST_CASE("mjcf: wheeled_pallet") {
  const Model m = load_builtin("wheeled_pallet");
  CHECK(total_moving_mass(m) == doctest::Approx(106.0).epsilon(1e-12));
  CHECK(std::abs(total_moving_mass(m) - 106.0) < 1e-9);
  CHECK(m.bodies[m.find_body("chassis")].mass == doctest::Approx(89.5));
  REQUIRE(m.actuators.size() == 3);
  for (const char* w : {"wheel_left", "wheel_right", "wheel_rear"}) {
    const int b = m.find_body(w);
    REQUIRE(b >= 0);
    CHECK(m.bodies[b].mass == doctest::Approx(5.5));
    CHECK(m.bodies[b].parent == m.find_body("chassis"));
    const Geom& g = m.geoms[m.find_geom(w)];
    CHECK(g.type == GeomType::Cylinder);
    CHECK(g.size.head<2>().isApprox(Vec3(0.35, 0.05, 0).head<2>()));
    // Cylinder axis (geom z) along the chassis y axis.
    CHECK((g.quat_BG * Vec3::UnitZ()).cwiseAbs().isApprox(Vec3::UnitY()));
    CHECK(m.bodies[b].pos0_W.z() - 0.35 == doctest::Approx(0.01));
  }
  for (const Actuator& a : m.actuators) {
    CHECK(a.type == ActuatorType::Velocity);
    CHECK(a.kp == 100.0);  // velocity gain
    CHECK(a.ctrl_lo == -10.0);
    CHECK(a.ctrl_hi == 10.0);
    CHECK(m.joints[a.joint].type == JointType::Hinge);
  }
  CHECK(m.control_schedules.size() == 3);
  for (const ControlSchedule& s : m.control_schedules) CHECK(s.value_at(5) == 3.0);
  const Geom& step = m.geoms[m.find_geom("step")];
  CHECK(step.body == -1);
  CHECK(step.pos_B.isApprox(Vec3(1.6, 0, 0.072)));
  CHECK(0.36 - 0.08 > 2 * step.size.z());  // the chassis clears the step
  CHECK(m.geoms[m.find_geom("floor")].friction == 0.8);
}

TEST_CASE("mjcf: geom mass properties follow MuJoCo") {
  const Model m = load(R"(<worldbody>
    <body name="s"><freejoint/><geom type="sphere" size="0.1"/></body>
    <body name="c" pos="1 0 0"><freejoint/><geom type="capsule" size="0.05 0.2" density="700"/></body>
    <body name="y" pos="2 0 0"><freejoint/><geom type="cylinder" size="0.05 0.2" mass="2"/></body>
    <body name="b" pos="3 0 0"><freejoint/><geom type="box" size="0.1 0.2 0.3" density="10"/></body>
  </worldbody>)");
  const Real r = 0.1;
  const Body& s = m.bodies[m.find_body("s")];
  const Real ms = 1000 * 4.0 / 3.0 * kPi * r * r * r;
  CHECK(s.mass == doctest::Approx(ms).epsilon(1e-12));
  CHECK(s.inertia_B.isApprox(0.4 * ms * r * r * Mat3::Identity()));

  // Capsule: cylinder of length 2 hh plus two hemispheres (com 3r/8 from the flat face).
  const Body& c = m.bodies[m.find_body("c")];
  const Real rc = 0.05, hh = 0.2, rho = 700;
  const Real m_cyl = rho * kPi * rc * rc * 2 * hh, m_hemi = rho * 2.0 / 3.0 * kPi * rc * rc * rc;
  CHECK(c.mass == doctest::Approx(m_cyl + 2 * m_hemi).epsilon(1e-12));
  const Real d = hh + 3.0 * rc / 8.0;  // hemisphere com from the capsule centre
  const Real i_hemi_com = 0.4 * m_hemi * rc * rc - m_hemi * (3.0 * rc / 8.0) * (3.0 * rc / 8.0);
  const Real ixx = m_cyl * (3 * rc * rc + 4 * hh * hh) / 12 + 2 * (i_hemi_com + m_hemi * d * d);
  const Real izz = 0.5 * m_cyl * rc * rc + 2 * 0.4 * m_hemi * rc * rc;
  CHECK(c.inertia_B(0, 0) == doctest::Approx(ixx).epsilon(1e-12));
  CHECK(c.inertia_B(1, 1) == doctest::Approx(ixx).epsilon(1e-12));
  CHECK(c.inertia_B(2, 2) == doctest::Approx(izz).epsilon(1e-12));

  const Body& y = m.bodies[m.find_body("y")];
  CHECK(y.mass == 2.0);
  CHECK(y.inertia_B(0, 0) == doctest::Approx(2.0 * (3 * 0.0025 + 0.16) / 12));
  CHECK(y.inertia_B(2, 2) == doctest::Approx(0.5 * 2.0 * 0.0025));

  const Body& b = m.bodies[m.find_body("b")];
  const Real mb = 10 * 0.2 * 0.4 * 0.6;
  CHECK(b.mass == doctest::Approx(mb));
  CHECK(
      b.inertia_B.diagonal().isApprox(Vec3(mb / 12 * (0.16 + 0.36), mb / 12 * (0.04 + 0.36), mb / 12 * (0.04 + 0.16))));
}

TEST_CASE("mjcf: several geoms combine with the parallel-axis theorem") {
  const Model m = load(R"(<worldbody><body name="d"><freejoint/>
      <geom type="sphere" size="0.1" pos="-0.5 0 0" mass="1"/>
      <geom type="sphere" size="0.1" pos="0.5 0 0" mass="3"/>
      <geom type="plane" size="1 1 1" mass="5"/>
    </body></worldbody>)");
  const Body& b = m.bodies[0];
  CHECK(b.mass == 4.0);  // the plane has no mass
  CHECK(b.com_B.isApprox(Vec3(0.25, 0, 0)));
  const Real i_s = 0.4 * 0.01;
  const Real i_perp = 4 * i_s + 1 * 0.75 * 0.75 + 3 * 0.25 * 0.25;
  CHECK(b.inertia_B.diagonal().isApprox(Vec3(4 * i_s, i_perp, i_perp)));

  // <inertial> wins over geoms; diaginertia is rotated by its quat.
  const Model n = load(R"(<worldbody><body><freejoint/><geom type="sphere" size="1"/>
      <inertial pos="0.1 0.2 0.3" euler="0 0 90" mass="2" diaginertia="1 2 3"/></body></worldbody>)");
  CHECK(n.bodies[0].mass == 2.0);
  CHECK(n.bodies[0].com_B.isApprox(Vec3(0.1, 0.2, 0.3)));
  CHECK(n.bodies[0].inertia_B.diagonal().isApprox(Vec3(2, 1, 3)));
  const Model f = load(R"(<worldbody><body><freejoint/>
      <inertial pos="0 0 0" mass="2" fullinertia="2 2.5 3 0.1 0.2 0.3"/></body></worldbody>)");
  Mat3 full;  // principal moments satisfying the triangle inequality (1 2 3 + these products did not)
  full << 2, 0.1, 0.2, 0.1, 2.5, 0.3, 0.2, 0.3, 3;
  CHECK(f.bodies[0].inertia_B.isApprox(full));
}

TEST_CASE("mjcf: orientation specifiers agree") {
  // Intrinsic x-y-z euler (MuJoCo's default) = Rx * Ry * Rz.
  const Real a = 30 * kPi / 180, b = 45 * kPi / 180, c = 60 * kPi / 180;
  const Quat intrinsic = Quat(Eigen::AngleAxis<Real>(a, Vec3::UnitX())) *
                         Quat(Eigen::AngleAxis<Real>(b, Vec3::UnitY())) *
                         Quat(Eigen::AngleAxis<Real>(c, Vec3::UnitZ()));
  const Model m = load(R"(<worldbody>
    <body name="e" euler="30 45 60"/>
    <body name="q" quat=")" +
                       std::to_string(intrinsic.w()) + " " + std::to_string(intrinsic.x()) + " " +
                       std::to_string(intrinsic.y()) + " " + std::to_string(intrinsic.z()) + R"("/>
    <body name="aa" axisangle="0 0 2 90"/>
    <body name="ez" euler="0 0 90"/>
    <body name="xy" xyaxes="0 1 0 -1 0 0"/>
    <body name="za" zaxis="1 0 0"/>
    <body name="ay" axisangle="0 1 0 90"/>
  </worldbody>)");
  const auto q = [&](const char* n) { return m.bodies[m.find_body(n)].quat0_WB; };
  CHECK(same_rotation(q("e"), intrinsic, 1e-6));
  CHECK(same_rotation(q("q"), intrinsic, 1e-6));
  CHECK(same_rotation(q("aa"), q("ez")));
  CHECK(same_rotation(q("xy"), q("ez")));
  CHECK(same_rotation(q("za"), q("ay")));

  // Uppercase = extrinsic (fixed axes): Rz * Ry * Rx.
  const Model x = load(R"(<compiler eulerseq="XYZ"/><worldbody><body euler="30 45 60"/></worldbody>)");
  const Quat extrinsic = Quat(Eigen::AngleAxis<Real>(c, Vec3::UnitZ())) *
                         Quat(Eigen::AngleAxis<Real>(b, Vec3::UnitY())) *
                         Quat(Eigen::AngleAxis<Real>(a, Vec3::UnitX()));
  CHECK(same_rotation(x.bodies[0].quat0_WB, extrinsic));

  CHECK(contains(inline_error("<worldbody><body euler=\"0 0 1\" quat=\"1 0 0 0\"/></worldbody>"), "inline.xml:2:"));
}

TEST_CASE("mjcf: compiler angle radian vs degree") {
  const Model deg = load(R"(<worldbody><body euler="0 0 90"><joint type="hinge" range="-90 45"/>
      <geom type="sphere" size="0.1"/></body></worldbody>)");
  const Model rad = load(R"(<compiler angle="radian"/><worldbody><body euler="0 0 1.5707963267948966">
      <joint type="hinge" range="-1.5707963267948966 0.7853981633974483"/><geom type="sphere" size="0.1"/></body></worldbody>)");
  CHECK(same_rotation(deg.bodies[0].quat0_WB, rad.bodies[0].quat0_WB));
  CHECK(deg.joints[0].range_lo == doctest::Approx(-kPi / 2));
  CHECK(deg.joints[0].range_hi == doctest::Approx(kPi / 4));
  CHECK(rad.joints[0].range_lo == doctest::Approx(-kPi / 2));
  CHECK(deg.joints[0].limited);  // range without `limited` means limited
  // Slide ranges are lengths, never converted.
  const Model s = load(R"(<worldbody><body><joint type="slide" range="-90 45" limited="false"/>
      <geom type="sphere" size="0.1"/></body></worldbody>)");
  CHECK(s.joints[0].range_lo == -90.0);
  CHECK(!s.joints[0].limited);
}

TEST_CASE("mjcf: fromto sets the pose and half-length") {
  const Model m = load(R"(<worldbody>
    <geom name="c" type="capsule" fromto="0 0 0 0 0 1" size="0.05"/>
    <geom name="y" type="cylinder" fromto="1 1 1 1 4 5" size="0.1"/>
    <geom name="b" type="box" fromto="0 0 0 2 0 0" size="0.1"/>
  </worldbody>)");
  const Geom& c = m.geoms[m.find_geom("c")];
  CHECK(c.pos_B.isApprox(Vec3(0, 0, 0.5)));
  CHECK(c.size.isApprox(Vec3(0.05, 0.5, 0)));
  CHECK((c.quat_BG * Vec3::UnitZ()).cwiseAbs().isApprox(Vec3::UnitZ()));
  const Geom& y = m.geoms[m.find_geom("y")];
  CHECK(y.pos_B.isApprox(Vec3(1, 2.5, 3)));
  CHECK(y.size[1] == doctest::Approx(2.5));
  // MuJoCo 2.2 points the geom z axis from `to` towards `from`.
  CHECK((y.quat_BG * Vec3::UnitZ()).isApprox(Vec3(0, -3, -4) / 5));
  const Geom& b = m.geoms[m.find_geom("b")];
  CHECK(b.size.isApprox(Vec3(0.1, 0.1, 1)));
  CHECK((b.quat_BG * Vec3::UnitZ()).isApprox(-Vec3::UnitX()));
  CHECK(contains(inline_error("<worldbody>\n<geom type=\"sphere\" fromto=\"0 0 0 1 0 0\" size=\"1\"/></worldbody>"),
                 "inline.xml:3:"));
}

TEST_CASE("mjcf: nested bodies compose their poses") {
  const Model m = load(R"(<worldbody>
    <body name="a" pos="1 0 0" euler="0 0 90">
      <joint type="hinge" axis="0 0 1" pos="0 0.5 0"/>
      <geom type="sphere" size="0.1"/>
      <body name="b" pos="1 0 0" euler="90 0 0">
        <joint type="slide" axis="0 1 0"/>
        <geom type="sphere" size="0.1"/>
        <body name="c" pos="0 0 2">
          <geom type="sphere" size="0.1"/>
        </body>
      </body>
    </body>
    <body name="fixed" pos="0 0 5"><body name="fixed_child" pos="0 0 1"/></body>
  </worldbody>)");
  const Body& a = m.bodies[m.find_body("a")];
  const Body& b = m.bodies[m.find_body("b")];
  const Body& c = m.bodies[m.find_body("c")];
  CHECK(a.pos0_W.isApprox(Vec3(1, 0, 0)));
  CHECK(b.pos0_W.isApprox(Vec3(1, 1, 0)));
  // b = a turned 90 deg about its x: b's z is -(a's y) = world +x.
  CHECK((b.quat0_WB * Vec3::UnitZ()).isApprox(Vec3(1, 0, 0)));
  CHECK(c.pos0_W.isApprox(Vec3(3, 1, 0)));
  CHECK(!a.fixed);
  CHECK(!c.fixed);
  CHECK(m.bodies[m.find_body("fixed")].fixed);
  CHECK(m.bodies[m.find_body("fixed_child")].fixed);
  CHECK(m.bodies[m.find_body("fixed_child")].pos0_W.isApprox(Vec3(0, 0, 6)));

  // Joint reference data.
  REQUIRE(m.joints.size() == 3);
  const Joint& ja = m.joints[0];
  CHECK(ja.parent == -1);
  CHECK(ja.anchor_parent.isApprox(Vec3(0.5, 0, 0)));  // (0, 0.5, 0) in a = world (-0.5, 0, 0) + (1, 0, 0)
  const Joint& jb = m.joints[1];
  CHECK(jb.parent == m.find_body("a"));
  CHECK(jb.anchor_parent.isApprox(Vec3(1, 0, 0)));
  CHECK(jb.axis_parent.isApprox(Vec3(0, 0, 1)));  // b's y is a's z
  CHECK(same_rotation(jb.rel_quat0, Quat(Eigen::AngleAxis<Real>(kPi / 2, Vec3::UnitX()))));
  CHECK(m.nq == 2);
  // c has no joint under a moving parent: an internal weld, after the MJCF joints.
  const Joint& weld = m.joints[2];
  CHECK(weld.type == JointType::Weld);
  CHECK(weld.body == m.find_body("c"));
  CHECK(weld.parent == m.find_body("b"));
  CHECK(weld.name.empty());
  CHECK(weld.qpos_adr == -1);
  CHECK(weld.anchor_parent.isApprox(Vec3(0, 0, 2)));
}

TEST_CASE("mjcf: defaults, exclusions, equalities, actuators, custom numerics") {
  const Model m = load(R"(
  <default>
    <geom friction="0.3" density="2000"/>
    <joint damping="0.5" axis="1 0 0"/>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 1"/>
    <body name="a" pos="0 0 1">
      <joint name="ja" type="hinge"/>
      <geom name="ga" type="sphere" size="0.1" friction="0.9"/>
      <body name="b" pos="0 0 -1" euler="0 0 90">
        <joint name="jb" type="slide" damping="0" axis="0 0 1"/>
        <geom name="g.b" type="sphere" size="0.1"/>
      </body>
    </body>
  </worldbody>
  <contact><exclude body1="b" body2="a"/></contact>
  <equality>
    <connect name="c" body1="b" anchor="0.1 0 0"/>
    <weld name="w" body1="a" body2="b"/>
  </equality>
  <actuator>
    <position name="servo" joint="ja" kp="20" kv="2" ctrlrange="-1 1"/>
    <velocity name="vel" joint="jb" kv="7" gear="3"/>
  </actuator>
  <custom>
    <numeric name="contactlab.restitution" data="0.25"/>
    <numeric name="contactlab.restitution.floor.g.b" data="0.5"/>
    <numeric name="contactlab.ctrl.servo" data="0 0 1 1"/>
    <numeric name="something.else" data="1 2 3"/>
  </custom>)");
  const int a = m.find_body("a"), b = m.find_body("b");
  CHECK(m.geoms[m.find_geom("floor")].friction == 0.3);
  CHECK(m.geoms[m.find_geom("ga")].friction == 0.9);
  CHECK(m.bodies[b].mass == doctest::Approx(2000 * 4.0 / 3.0 * kPi * 0.001));
  CHECK(m.joints[m.find_joint("ja")].damping == 0.5);
  CHECK(m.joints[m.find_joint("ja")].axis_B.isApprox(Vec3::UnitX()));
  CHECK(m.joints[m.find_joint("jb")].damping == 0.0);
  CHECK(m.joints[m.find_joint("jb")].axis_B.isApprox(Vec3::UnitZ()));

  CHECK(m.excluded_body_pairs == std::vector<std::pair<int, int>>{{a, b}});
  CHECK(m.bodies_excluded(b, a));
  CHECK(!m.bodies_excluded(-1, a));

  const Equality& c = m.equalities[0];
  CHECK(c.body2 == -1);
  CHECK(c.anchor1.isApprox(Vec3(0.1, 0, 0)));
  CHECK(c.anchor2.isApprox(Vec3(0, 0.1, 0)));  // b is turned 90 deg about z, at the origin
  const Equality& w = m.equalities[1];
  CHECK(w.type == EqualityType::Weld);
  CHECK(w.anchor1.isApprox(Vec3(0, 0, -1)));
  CHECK(w.anchor2.isZero());
  CHECK(same_rotation(w.rel_quat, Quat(Eigen::AngleAxis<Real>(kPi / 2, Vec3::UnitZ()))));

  const Actuator& servo = m.actuators[m.find_actuator("servo")];
  CHECK(servo.type == ActuatorType::Position);
  CHECK(servo.kp == 20.0);
  CHECK(servo.kv == 2.0);
  CHECK(servo.ctrl_limited);
  const Actuator& vel = m.actuators[m.find_actuator("vel")];
  CHECK(vel.kp == 7.0);
  CHECK(vel.gear[0] == 3.0);
  CHECK(!vel.ctrl_limited);

  const int floor = m.find_geom("floor"), gb = m.find_geom("g.b"), ga = m.find_geom("ga");
  CHECK(m.restitution(gb, floor) == 0.5);
  CHECK(m.restitution(floor, ga) == 0.25);
  REQUIRE(m.control_schedules.size() == 1);
  CHECK(m.control_schedules[0].value_at(0.25) == doctest::Approx(0.25));
}

TEST_CASE("mjcf: control schedule interpolation") {
  ControlSchedule s;
  CHECK(s.value_at(1) == 0);
  s.times = {1, 2, 4};
  s.values = {10, 20, 0};
  CHECK(s.value_at(0) == 10);
  CHECK(s.value_at(1) == 10);
  CHECK(s.value_at(1.5) == doctest::Approx(15));
  CHECK(s.value_at(2) == doctest::Approx(20));
  CHECK(s.value_at(3) == doctest::Approx(10));
  CHECK(s.value_at(9) == 0);
}

TEST_CASE("mjcf: malformed files name the file and the line") {
  struct Case {
    const char* file;
    int line;
    const char* words;
  };
  const Case cases[] = {
      {"bad_xml.xml", 4, "XML parse error"},
      {"bad_geom_type.xml", 5, "tetrahedron"},
      {"pos_two_numbers.xml", 4, "needs 3 numbers, got 2"},
      {"missing_body_equality.xml", 9, "unknown body 'ghost'"},
      {"duplicate_name.xml", 6, "duplicate geom name 'thing'"},
      {"negative_mass.xml", 6, "must be >= 0"},
      {"non_finite.xml", 6, "non-finite"},
      {"two_joints.xml", 6, "two parallel hinge axes"},
      {"keyframe_size.xml", 9, "nq = 1"},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    const std::string what = load_error(c.file);
    CHECK(contains(what, std::string(c.file) + ":" + std::to_string(c.line) + ": "));
    CHECK(contains(what, c.words));
  }
  try {
    load_mjcf_file(std::string(CONTACTLAB_TEST_DATA) + "/does_not_exist.xml");
    FAIL("expected MjcfError");
  } catch (const MjcfError& e) {
    CHECK(contains(e.what(), "does_not_exist.xml"));
  }
}

TEST_CASE("mjcf: structural errors in inline models") {
  struct Case {
    const char* xml;
    int line;  // of the inline model: line 1 is <mujoco>
    const char* words;
  };
  const Case cases[] = {
      {"<worldbody>\n<body><joint/></body></worldbody>", 3, "mass is 0"},
      {"<worldbody><body><joint/><geom size=\"1\"/>\n<body name=\"frame\"/></body></worldbody>", 3,
       "welded to a moving parent"},
      {"<worldbody><body>\n<body><freejoint/><geom size=\"1\"/></body><geom size=\"1\"/><joint/></body></worldbody>", 3,
       "top-level body"},
      {"<worldbody><body name=\"a\"><joint name=\"b\" type=\"ball\"/><geom size=\"1\"/></body></worldbody>\n"
       "<actuator><motor joint=\"b\"/></actuator>",
       3, "ball"},
      {"<worldbody><body><freejoint name=\"f\"/><geom size=\"1\"/></body></worldbody>\n"
       "<actuator><position joint=\"f\"/></actuator>",
       3, "free joint"},
      {"<worldbody>\n<geom type=\"capsule\" size=\"0.1\"/></worldbody>", 3, "needs 2 size"},
      {"<worldbody>\n<geom type=\"box\" size=\"0.1 -1 1\"/></worldbody>", 3, "size[1] must be > 0"},
      {"<worldbody>\n<geom type=\"sphere\"/></worldbody>", 3, "needs 1 size"},
      {"<worldbody>\n<geom type=\"sphere\" size=\"1\" contype=\"x\"/></worldbody>", 3, "not an integer"},
      {"<worldbody>\n<geom type=\"sphere\" size=\"1\" pos=\"0 0 abc\"/></worldbody>", 3, "'abc' is not a number"},
      {"<worldbody>\n<geom type=\"sphere\" size=\"1e999\"/></worldbody>", 3, "out of range"},
      {"<worldbody>\n<geom type=\"ellipsoid\" size=\"1 1 1\"/></worldbody>", 3, "not simulated yet"},
      {"<worldbody><body><joint type=\"hinge\"\naxis=\"0 0 0\"/><geom size=\"1\"/></body></worldbody>", 3, "zero"},
      {"<worldbody><body><joint type=\"hinge\"\nrange=\"1 -1\"/><geom size=\"1\"/></body></worldbody>", 3,
       "invalid range"},
      {"<worldbody>\n<body name=\"world\"/></worldbody>", 3, "reserved"},
      {"<worldbody><body name=\"a\"/></worldbody>\n<contact><exclude body1=\"a\" body2=\"nope\"/></contact>", 3,
       "unknown body 'nope'"},
      {"<worldbody><body><joint name=\"h\"/><geom size=\"1\"/></body></worldbody>\n<actuator><motor "
       "joint=\"x\"/></actuator>",
       3, "unknown joint 'x'"},
      {"<worldbody><body><joint name=\"h\"/><geom size=\"1\"/></body></worldbody>\n<actuator><motor "
       "name=\"m\" joint=\"h\"/></actuator><custom>\n<numeric name=\"contactlab.ctrl.m\" data=\"0 1 0 2\"/></custom>",
       4, "strictly increase"},
      {"<worldbody/><custom>\n<numeric name=\"contactlab.ctrl.none\" data=\"0 1\"/></custom>", 3,
       "unknown actuator 'none'"},
      {"<worldbody/><custom>\n<numeric name=\"contactlab.restitution\" data=\"1.5\"/></custom>", 3, "[0, 1]"},
      {"<option\ntimestep=\"0\"/>", 3, "must be > 0"},
      {"<worldbody>\n<joint/></worldbody>", 3, "not allowed in <worldbody>"},
      {"<worldbody><body>\n<inertial mass=\"1\" diaginertia=\"1 1 1\"/></body></worldbody>", 3,
       "needs attribute 'pos'"},
  };
  for (const Case& c : cases) {
    INFO(c.xml);
    const std::string what = inline_error(c.xml);
    CHECK(contains(what, "inline.xml:" + std::to_string(c.line) + ": "));
    CHECK(contains(what, c.words));
  }
  try {
    load_mjcf_string("<mujoc/>", "", nullptr);
    FAIL("expected MjcfError");
  } catch (const MjcfError& e) {
    CHECK(contains(e.what(), "<string>:1: "));
    CHECK(contains(e.what(), "expected <mujoco>"));
  }
}

// Classification of unsupported features: tests/io/test_mjcf_semantics.cpp.

TEST_CASE("mjcf: model overrides") {
  Model m = load_builtin("stacked_boxes");
  const int top = m.find_body("top");
  const Mat3 inertia = m.bodies[top].inertia_B;
  apply_model_override(m, "body.top.mass", "10");
  CHECK(m.bodies[top].mass == 10.0);
  CHECK(m.bodies[top].inertia_B.isApprox(10 * inertia));
  CHECK(m.bodies[top].com_B.isZero());
  apply_model_override(m, "geom.top_box.friction", "0.25");
  CHECK(m.geoms[m.find_geom("top_box")].friction == 0.25);
  CHECK_NOTHROW(m.validate());

  const auto rejects = [&](const std::string& key, const std::string& value, const std::string& words) {
    try {
      apply_model_override(m, key, value);
      FAIL("accepted " << key << "=" << value);
    } catch (const std::invalid_argument& e) {
      CHECK(contains(e.what(), words));
    }
  };
  rejects("body.nobody.mass", "1", "unknown body 'nobody'");
  rejects("geom.nogeom.friction", "1", "unknown geom 'nogeom'");
  rejects("body.top.mass", "0", "mass must be > 0");
  rejects("body.top.mass", "-2", "body.top.mass");
  rejects("body.top.mass", "heavy", "'heavy' is not a finite number");
  rejects("body.top.mass", "nan", "not a finite number");
  rejects("geom.top_box.friction", "-0.1", "friction must be >= 0");
  rejects("body.top.colour", "1", "unknown model override 'body.top.colour'");
  CHECK(m.bodies[top].mass == 10.0);  // unchanged by the rejected ones
}

TEST_CASE("mjcf: validate rejects non-physical models") {
  Model base = load_builtin("bouncing_ball");
  const auto rejects = [](const Model& m, const std::string& words) {
    try {
      m.validate();
      FAIL("validate accepted a bad model");
    } catch (const std::invalid_argument& e) {
      CHECK(contains(e.what(), words));
    }
  };
  Model m = base;
  m.options.timestep = 0;
  rejects(m, "timestep");
  m = base;
  m.bodies[0].mass = 0;
  rejects(m, "body 0 'ball'");
  m = base;
  m.bodies[0].inertia_B(0, 0) = -1;
  rejects(m, "positive definite");
  m = base;
  m.geoms[1].size[0] = 0;
  rejects(m, "geom 1 'ball'");
  m = base;
  m.geoms[1].quat_BG = Quat(2, 0, 0, 0);
  rejects(m, "unit quaternion");
  m = base;
  m.bodies[0].pos0_W.x() = std::nan("");
  rejects(m, "non-finite");
  Model p = load_builtin("pendulum");
  p.joints[0].axis_B.setZero();
  rejects(p, "axis");
}
