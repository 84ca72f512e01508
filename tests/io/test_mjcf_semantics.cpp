// MJCF reader semantics: what it reads, what it refuses (io/mjcf_support.cpp),
// compiler/option settings and flags that take effect, implicit names,
// condim/priority/gap (io/mjcf_contact_params.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "core/data.hpp"
#include "core/model.hpp"
#include "io/mjcf.hpp"
#include "sim/simulation.hpp"

#ifndef CONTACTLAB_TEST_DATA
#define CONTACTLAB_TEST_DATA "tests/data"
#endif

using namespace contactlab;

namespace {

const std::string kData = std::string(CONTACTLAB_TEST_DATA) + "/mjcf/";

Model load(const std::string& body, std::vector<std::string>* warnings = nullptr, bool allow = false) {
  MjcfLoadOptions options;
  options.allow_unsupported = allow;
  return load_mjcf_string("<mujoco>\n" + body + "\n</mujoco>", "inline.xml", options, warnings);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The MjcfError text of a load that must fail ("" if it loads).
std::string load_error(const std::string& body) {
  try {
    load(body);
  } catch (const MjcfError& e) {
    return e.what();
  }
  return "";
}

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const std::string& l : lines)
    if (contains(l, part)) return true;
  return false;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* const kBall =
    "<worldbody><body name='b'><freejoint/><geom type='sphere' size='0.1'/></body></worldbody>";

}  // namespace

TEST_CASE("mjcf semantics: an unsupported attribute stops the load naming file and line") {
  try {
    load_mjcf_file(kData + "unsupported_springdamper.xml");
    FAIL("expected MjcfError");
  } catch (const MjcfError& e) {
    CHECK(e.line() == 4);
    CHECK(contains(e.what(), "unsupported_springdamper.xml:4: attribute 'springdamper' of <joint> is not supported"));
    CHECK(contains(e.what(), "--allow-unsupported"));
  }
}

TEST_CASE("mjcf semantics: allow_unsupported loads and lists what it ignored") {
  std::vector<std::string> warnings;
  MjcfLoadOptions options;
  options.allow_unsupported = true;
  const Model m = load_mjcf_file(kData + "unsupported_springdamper.xml", options, &warnings);
  REQUIRE(m.ignored_features.size() == 1);
  CHECK(contains(m.ignored_features[0], "unsupported_springdamper.xml:4: attribute 'springdamper' of <joint>"));
  CHECK(any_contains(warnings, "ignoring attribute 'springdamper' of <joint>"));
  // Without the option nothing is listed because nothing loads; with it, a clean file lists nothing.
  CHECK(load(kBall, nullptr, true).ignored_features.empty());
}

TEST_CASE("mjcf semantics: a neutral value of an unsupported attribute is accepted") {
  std::vector<std::string> warnings;
  const Model m = load(
      "<worldbody><body><joint type='hinge' stiffness='0' frictionloss='0.0' springdamper='0 0'/>"
      "<geom type='sphere' size='0.1'/></body></worldbody>",
      &warnings);
  CHECK(m.joints.size() == 1);
  CHECK(warnings.empty());
  const std::string friction = load_error("<worldbody><body><joint type='hinge' frictionloss='0.1'/>"
                                         "<geom type='sphere' size='0.1'/></body></worldbody>");
  CHECK(contains(friction, "inline.xml:2: "));
  CHECK(contains(friction, "frictionloss is not supported"));
}

TEST_CASE("mjcf semantics: unsupported elements are refused") {
  CHECK(contains(load_error(std::string(kBall) + "<deformable/>"),
                 "inline.xml:2: element <deformable> in <mujoco> is not supported"));
  CHECK(contains(load_error("<worldbody><body><joint name='j'/><geom type='sphere' size='0.1'/></body></worldbody>"
                            "<actuator><cylinder joint='j'/></actuator>"),
                 "<cylinder>"));
  CHECK(contains(load_error(std::string(kBall) + "<equality><distance geom1='a' geom2='b'/></equality>"),
                 "element <distance> in <equality> is not supported"));
  CHECK(contains(load_error(std::string(kBall) + "<contact><pair geom1='a' geom2='b'/></contact>"),
                 "element <pair> in <contact> is not supported"));
  CHECK(contains(load_error(std::string(kBall) + "<option><flag frictionloss='disable'/></option>"),
                 "attribute 'frictionloss' of <flag> is not supported"));
  CHECK(contains(load_error(std::string(kBall) + "<keyframe><key ctrl='1'/></keyframe>"),
                 "attribute 'ctrl' of <key> is not supported"));
  CHECK(contains(load_error("<worldbody><body mocap='true'><geom type='sphere' size='0.1'/></body></worldbody>"),
                 "attribute 'mocap' of <body> is not supported"));
  // An element nobody classified is refused, not dropped.
  CHECK(contains(load_error(std::string(kBall) + "<no_such_section/>"), "element <no_such_section>"));
}

TEST_CASE("mjcf semantics: visual and sensor features load silently") {
  std::vector<std::string> warnings;
  const Model m = load_mjcf_file(std::string(CONTACTLAB_TEST_DATA) + "/unsupported.xml", &warnings);
  CHECK(m.num_bodies() == 1);
  CHECK(m.geoms.size() == 2);
  CHECK(warnings.empty());
  for (const std::string& w : warnings) MESSAGE(w);
}

TEST_CASE("mjcf semantics: solref and solimp are read and noticed") {
  std::vector<std::string> warnings;
  load("<worldbody><geom type='plane' size='1 1 1' solref='0.02 1' solimp='0.9 0.95 0.001'/></worldbody>",
       &warnings);
  CHECK(warnings.size() == 2);
  CHECK(any_contains(warnings, "inline.xml:2: attribute 'solref' of <geom> is read but has no effect"));
  CHECK(any_contains(warnings, "ignored by hard-contact laws"));
  CHECK(load(std::string("<option cone='elliptic' impratio='10'/>") + kBall).geoms.size() == 1);
  CHECK(contains(load_error("<worldbody><geom type='plane' size='1 1 1' solref='0.02 x'/></worldbody>"),
                 "'x' is not a number"));
}

TEST_CASE("mjcf semantics: option flags take effect at load") {
  const std::string tree =
      "<worldbody><geom name='floor' type='plane' size='1 1 1'/>"
      "<body name='a' pos='0 0 1'><joint name='h' type='hinge' range='-10 10'/><geom type='sphere' size='0.1'/>"
      "<body name='c' pos='0 0 1'><joint type='slide' range='-1 1'/><geom type='sphere' size='0.1'/></body></body>"
      "</worldbody><equality><connect body1='a' anchor='0 0 0'/></equality>";
  const auto with_flag = [&](const std::string& flag) {
    return load("<option gravity='0 0 -5'><flag " + flag + "/></option>" + tree);
  };
  const Model plain = load(tree);
  CHECK(plain.joints[0].limited);
  CHECK(plain.equalities.size() == 1);
  CHECK(plain.geoms[0].contype == 1);

  CHECK(with_flag("gravity='disable'").options.gravity.isZero());
  CHECK(with_flag("gravity='enable'").options.gravity == Vec3(0, 0, -5));
  const Model no_contact = with_flag("contact='disable'");
  for (const Geom& g : no_contact.geoms) CHECK((g.contype | g.conaffinity) == 0);
  CHECK(no_contact.joints[0].limited);
  const Model no_limit = with_flag("limit='disable'");
  CHECK_FALSE(no_limit.joints[0].limited);
  CHECK_FALSE(no_limit.joints[1].limited);
  CHECK(no_limit.equalities.size() == 1);
  CHECK(with_flag("equality='disable'").equalities.empty());
  const Model none = with_flag("constraint='disable'");
  CHECK(none.equalities.empty());
  CHECK_FALSE(none.joints[0].limited);
  CHECK(none.geoms[0].contype == 0);
  CHECK(none.joints.size() == plain.joints.size());  // the joints of maximal coordinates stay
  CHECK(none.options.gravity == Vec3(0, 0, -5));
  CHECK(contains(load_error("<option><flag contact='off'/></option>"), "unknown value 'off'"));
}

TEST_CASE("mjcf semantics: constraint disabled pendulum swings through its limit and floor") {
  // tests/data/mjcf/flags_pendulum.xml: from 0.5 rad the bob must reach the
  // mirror angle, x = +sin(0.5), about half a period (~1.0 s) later, which it
  // cannot if the 0.2 rad limit or the floor acted. Tolerance 5e-3 m (1 % of
  // the swing): the velocity scheme is symplectic Euler, whose energy error
  // stays O(h omega) = 0.3 % at h = 1e-3 s, omega = 3.13 rad/s.
  const Model m = load_mjcf_file(kData + "flags_pendulum.xml");
  Simulation sim(m, PartChoice{});
  sim.reset("start");
  const Real x0 = sim.data().x_W[0].x();
  CHECK(x0 == doctest::Approx(-std::sin(0.5)).epsilon(1e-9));
  Real x_max = x0;
  for (int k = 0; k < 1500; ++k) {
    sim.step(m.options.timestep);
    x_max = std::max(x_max, sim.data().x_W[0].x());
  }
  CHECK(std::abs(x_max - std::sin(0.5)) < 5e-3);
}

TEST_CASE("mjcf semantics: unnamed elements get unique implicit names") {
  const std::string tree =
      "<worldbody><geom type='plane' size='1 1 1'/>"
      "<body><joint type='hinge'/><geom type='sphere' size='0.1'/>"
      "<body name='body_1'><joint name='slide' type='slide'/><geom name='geom_2' type='sphere' size='0.1'/></body>"
      "<body><geom type='sphere' size='0.1'/></body></body></worldbody>";
  const Model m = load(tree + "<actuator><motor joint='slide' name='named'/><motor joint='slide'/></actuator>" +
                       "<equality><connect body1='body_1' anchor='0 0 0'/></equality>");
  REQUIRE(m.bodies.size() == 3);
  CHECK(m.bodies[0].name == "body_0");
  CHECK(m.bodies[1].name == "body_1");   // explicit
  CHECK(m.bodies[2].name == "body_2");
  CHECK(m.geoms[0].name == "geom_0");
  CHECK(m.geoms[1].name == "geom_1");
  CHECK(m.geoms[2].name == "geom_2");    // explicit
  CHECK(m.geoms[3].name == "geom_3");
  CHECK(m.joints[0].name == "joint_0");
  CHECK(m.joints[1].name == "slide");    // explicit
  REQUIRE(m.joints.size() == 3);
  CHECK(m.joints[2].type == JointType::Weld);
  CHECK(m.joints[2].name.empty());       // internal weld: not an MJCF joint
  CHECK(m.actuators[1].name == "actuator_1");
  CHECK(m.equalities[0].name == "equality_0");
  // A clash with an explicit name of the same kind appends '_'.
  const Model clash = load("<worldbody><body><geom type='sphere' size='0.1'/></body>"
                           "<body name='body_0'><geom type='sphere' size='0.1'/></body></worldbody>");
  CHECK(clash.bodies[0].name == "body_0_");
  CHECK(clash.bodies[1].name == "body_0");
}

TEST_CASE("mjcf semantics: implicit names cannot be referenced in the file") {
  CHECK(contains(load_error("<worldbody><body><joint/><geom type='sphere' size='0.1'/></body></worldbody>"
                            "<actuator><motor joint='joint_0'/></actuator>"),
                 "unknown joint 'joint_0'"));
}

TEST_CASE("mjcf semantics: compiler boundmass and boundinertia") {
  // MuJoCo: mass >= boundmass and each principal moment >= boundinertia.
  const Model m = load(
      "<compiler boundmass='0.5' boundinertia='0.01'/>"
      "<worldbody><body><freejoint/><inertial pos='0 0 0' mass='0.001' diaginertia='0.001 2 2' "
      "euler='0 0 30'/></body></worldbody>");
  CHECK(m.bodies[0].mass == 0.5);
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(m.bodies[0].inertia_B).eigenvalues();
  // Exact up to the eigen-decomposition's rounding (1e-12 relative to the largest moment, 2).
  CHECK(moments[0] == doctest::Approx(0.01).epsilon(1e-12));
  CHECK(moments[1] == doctest::Approx(2).epsilon(1e-12));
  CHECK(moments[2] == doctest::Approx(2).epsilon(1e-12));
  // The principal axes are kept: the 0.01 axis is the rotated x axis.
  const Vec3 x(std::cos(M_PI / 6), std::sin(M_PI / 6), 0);
  CHECK(x.dot(m.bodies[0].inertia_B * x) == doctest::Approx(0.01).epsilon(1e-12));
  // Without the bounds the file's values stay.
  const Model raw = load("<worldbody><body><freejoint/><inertial pos='0 0 0' mass='0.001' "
                         "diaginertia='0.001 2 2'/></body></worldbody>");
  CHECK(raw.bodies[0].mass == 0.001);
  CHECK(contains(load_error("<compiler boundmass='-1'/>"), "must be >= 0"));
}

TEST_CASE("mjcf semantics: compiler asset folders and no-effect settings are accepted") {
  std::vector<std::string> warnings;
  load(std::string("<compiler meshdir='meshes' texturedir='tex' assetdir='assets' fitaabb='true' "
                   "usethread='false'/>") + kBall,
       &warnings);
  CHECK(warnings.empty());
  CHECK(contains(load_error("<compiler balanceinertia='true'/>"), "attribute 'balanceinertia' of <compiler>"));
}

TEST_CASE("mjcf semantics: compiler settotalmass scales every mass and inertia by one factor") {
  // Two bodies of 1 kg and 3 kg (spheres with given masses); settotalmass = 10
  // scales both by 2.5, inertias too; <= 0 (MuJoCo's default -1) is off.
  const std::string bodies = "<worldbody><body name='a'><freejoint/><geom size='.1' mass='1'/></body>"
                             "<body name='b' pos='1 0 0'><freejoint/><geom size='.2' mass='3'/></body></worldbody>";
  const Model plain = load(bodies);
  const Model scaled = load("<compiler settotalmass='10'/>" + bodies);
  for (int b = 0; b < 2; ++b) {
    CHECK(scaled.bodies[b].mass == doctest::Approx(2.5 * plain.bodies[b].mass).epsilon(1e-15));
    CHECK((scaled.bodies[b].inertia_B - 2.5 * plain.bodies[b].inertia_B).norm() <=
          1e-15 * plain.bodies[b].inertia_B.norm());
  }
  CHECK(scaled.bodies[0].mass + scaled.bodies[1].mass == doctest::Approx(10).epsilon(1e-15));
  CHECK(load("<compiler settotalmass='-1'/>" + bodies).bodies[1].mass == plain.bodies[1].mass);
  CHECK(contains(load_error("<compiler settotalmass='x'/>"), "settotalmass"));
  CHECK(contains(load_error("<compiler settotalmass='1e12'/>"), "settotalmass"));
}

TEST_CASE("mjcf semantics: condim 1 is frictionless and 4 and 6 are refused") {
  const std::string both = "<worldbody><geom type='plane' size='1 1 1' condim='1' friction='0.7'/>"
                           "<body><freejoint/><geom type='box' size='.1 .1 .1' condim='1'/></body></worldbody>";
  const Model m = load(both);
  CHECK(m.geoms[0].friction == 0);
  CHECK(m.geoms[1].friction == 0);
  // One condim-1 geom against condim-3 geoms of larger friction: MuJoCo's pair
  // is condim 3 with max friction, which friction 0 on the condim-1 geom gives too.
  const Model mixed = load("<worldbody><geom type='plane' size='1 1 1' friction='0.7'/>"
                           "<body><freejoint/><geom type='box' size='.1 .1 .1' condim='1' friction='0.5'/></body>"
                           "</worldbody>");
  CHECK(mixed.geoms[0].friction == 0.7);
  CHECK(mixed.geoms[1].friction == 0);
  CHECK(contains(load_error("<worldbody><geom type='plane' size='1 1 1' friction='0.3'/>"
                            "<body><freejoint/><geom type='box' size='.1 .1 .1' condim='1'/></body></worldbody>"),
                 "condim 1 with a friction larger"));
  CHECK(contains(load_error("<worldbody><geom type='plane' size='1 1 1' condim='4'/></worldbody>"),
                 "inline.xml:2: condim 4 of <geom> is not supported (torsional and rolling friction"));
  CHECK(contains(load_error("<worldbody><geom type='plane' size='1 1 1' condim='6'/></worldbody>"), "condim 6"));
  CHECK(contains(load_error("<worldbody><geom type='plane' size='1 1 1' condim='2'/></worldbody>"),
                 "must be 1, 3, 4 or 6, got 2"));
  MjcfLoadOptions allow;
  allow.allow_unsupported = true;
  std::vector<std::string> warnings;
  const Model as3 = load_mjcf_string("<mujoco><worldbody><geom type='plane' size='1 1 1' condim='6'/></worldbody></mujoco>",
                                     "x.xml", allow, &warnings);
  CHECK(as3.geoms[0].friction == 1.0);
  CHECK(as3.ignored_features.size() == 1);
  CHECK(any_contains(warnings, "x.xml:1: ignoring condim 6 of <geom>"));
}

TEST_CASE("mjcf semantics: condim 1 box slides without friction") {
  // A box given 2 m/s on a plane, both condim 1 (MuJoCo: frictionless pair):
  // it keeps its speed. With the default condim 3 and friction 1 it would stop
  // after v0 / (mu g) = 0.20 s. Tolerance 1e-6 m/s: a frictionless contact
  // does no tangential work; the bound leaves room for solver residuals.
  const Model m = load("<option timestep='0.002'/>"
                       "<worldbody><geom type='plane' size='5 5 1' condim='1'/>"
                       "<body pos='0 0 0.1'><freejoint/><geom type='box' size='.1 .1 .1' mass='1' condim='1'/></body>"
                       "</worldbody><keyframe><key qpos='0 0 0.1 1 0 0 0' qvel='2 0 0 0 0 0'/></keyframe>");
  Simulation sim(m, PartChoice{});
  sim.reset();
  for (int k = 0; k < 250; ++k) sim.step(m.options.timestep);
  CHECK(std::abs(sim.data().v_W[0].x() - 2.0) < 1e-6);
}

TEST_CASE("mjcf semantics: geom priority and gap") {
  // Equal priorities, or a higher priority on the larger friction: MuJoCo's
  // choice equals contactlab's max rule, so the model loads as read.
  const Model ok = load("<worldbody><geom type='plane' size='1 1 1' friction='0.9' priority='1'/>"
                        "<body><freejoint/><geom type='sphere' size='.1' friction='0.4'/></body></worldbody>");
  CHECK(ok.geoms[0].friction == 0.9);
  CHECK(contains(load_error("<worldbody><geom type='plane' size='1 1 1' friction='0.2' priority='1'/>"
                            "<body><freejoint/><geom type='sphere' size='.1' friction='0.4'/></body></worldbody>"),
                 "priority that selects a smaller friction"));
  std::vector<std::string> warnings;
  const Model gap = load("<worldbody><geom type='plane' size='1 1 1' margin='0.01' gap='0.01'/></worldbody>",
                         &warnings);
  CHECK(gap.geoms[0].margin == 0.01);
  CHECK(warnings.empty());  // margin - gap = 0: MuJoCo's constraint acts at distance 0 as contactlab's
  load("<worldbody><geom type='plane' size='1 1 1' margin='0.01'/></worldbody>", &warnings);
  CHECK(any_contains(warnings, "margin - gap = 0.01 m"));
  CHECK(contains(load_error("<worldbody><geom type='plane' size='1 1 1' gap='-1'/></worldbody>"), "must be >= 0"));
}

TEST_CASE("mjcf semantics: mesh and hfield assets are read, hfield and mesh geoms loaded") {
  // tests/data/mjcf/mesh_geom.xml: meshdir="assets" resolves tetra.obj; the
  // hfield's elevation (already in [0, 1], so unchanged by the normalisation)
  // gives a static terrain geom (tests/io/test_mjcf_hfield.cpp has the rest).
  const Model m = load_mjcf_file(kData + "mesh_geom.xml");
  REQUIRE(m.geoms.size() == 2);
  CHECK(m.geoms[0].type == GeomType::HField);
  REQUIRE(m.geoms[0].hfield);
  CHECK(m.geoms[0].hfield->nrow == 2);
  CHECK(m.geoms[0].hfield->ncol == 3);
  CHECK(m.geoms[0].hfield->elevation == std::vector<Real>{0, 0.5, 1, 1, 0.5, 0});
  CHECK(m.geoms[1].type == GeomType::Mesh);
  REQUIRE(m.geoms[1].hull);
  CHECK(m.geoms[1].hull->vertices.size() == 4);
  CHECK(m.geoms[1].hull->num_faces() == 4);
}

TEST_CASE("mjcf semantics: bad assets and ellipsoid sizes are errors") {
  CHECK(contains(load_error("<asset><mesh file='no_such.stl'/></asset>"), "inline.xml:2: attribute 'file' of <mesh>"));
  CHECK(contains(load_error("<asset><mesh file='no_such.stl'/></asset>"), "not found"));
  CHECK(contains(load_error("<asset><hfield name='h' nrow='2' ncol='2' size='1 1 1 0' elevation='1 2 3'/></asset>"),
                 "needs nrow * ncol = 4 numbers, got 3"));
  CHECK(contains(load_error("<asset><hfield name='h' nrow='2' ncol='2' size='1 1 1'/></asset>"),
                 "needs 4 numbers, got 3"));
  CHECK(contains(load_error("<worldbody><geom type='mesh' mesh='nothing'/></worldbody>"), "unknown mesh 'nothing'"));
  CHECK(contains(load_error("<worldbody><geom type='ellipsoid' size='1 2'/></worldbody>"), "needs 3 numbers, got 2"));
  CHECK(contains(load_error("<worldbody><geom type='ellipsoid' size='1 2 3'/></worldbody>"),
                 "geom type 'ellipsoid' (semi-axes 1 2 3) is not simulated yet"));
}

TEST_CASE("mjcf semantics: an ellipsoid that cannot collide adds its mass and inertia, one that can is refused") {
  // Semi-axes 0.1, 0.2, 0.3 at density 500: m = 500 * 4/3 pi * 0.006, principal
  // moments m/5 (b^2 + c^2, a^2 + c^2, a^2 + b^2) along the geom axes.
  const std::string body = "<worldbody><body name='e'><freejoint/><geom type='ellipsoid' size='.1 .2 .3' density='500' "
                           "contype='0' conaffinity='0'/></body></worldbody>";
  const Model m = load(body);
  const double mass = 500 * 4.0 / 3.0 * kPi * 0.1 * 0.2 * 0.3;
  CHECK(m.geoms.empty());  // no collision geom kept
  CHECK(m.bodies[0].mass == doctest::Approx(mass).epsilon(1e-14));
  CHECK(m.bodies[0].inertia_B(0, 0) == doctest::Approx(mass / 5 * (0.04 + 0.09)).epsilon(1e-14));
  CHECK(m.bodies[0].inertia_B(1, 1) == doctest::Approx(mass / 5 * (0.01 + 0.09)).epsilon(1e-14));
  CHECK(m.bodies[0].inertia_B(2, 2) == doctest::Approx(mass / 5 * (0.01 + 0.04)).epsilon(1e-14));
  // Contacts disabled by the option flag: the same, whatever contype says.
  CHECK(load("<option><flag contact='disable'/></option><worldbody><body><freejoint/>"
             "<geom type='ellipsoid' size='.1 .2 .3' mass='2'/></body></worldbody>")
            .bodies[0]
            .mass == 2.0);
  // One that may collide waits for its collision (issue 15).
  CHECK(contains(load_error("<worldbody><body><freejoint/><geom type='ellipsoid' size='.1 .2 .3'/></body></worldbody>"),
                 "geom type 'ellipsoid'"));
  CHECK(contains(load_error("<option><flag contact='disable'/></option><worldbody><body><freejoint/>"
                            "<geom name='g' type='ellipsoid' size='.1 .2 .3'/><geom name='g' size='.1'/></body></worldbody>"),
                 "duplicate geom name 'g'"));
  CHECK(contains(load_error("<option><flag contact='disable'/></option><worldbody><body><freejoint/>"
                            "<geom type='ellipsoid' size='.1 0 .3'/></body></worldbody>"),
                 "size[1] must be > 0"));
}
