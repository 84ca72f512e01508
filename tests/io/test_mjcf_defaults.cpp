// MJCF default classes: nested classes, class=, childclass=, "main", element
// attributes winning, unknown classes, defaults of every supported element kind.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "io/mjcf.hpp"

using namespace contactlab;

namespace {

Model load(const std::string& inner, std::vector<std::string>* warnings = nullptr) {
  return load_mjcf_string("<mujoco>\n" + inner + "\n</mujoco>", "inline.xml", warnings);
}

std::string error_of(const std::string& inner) {
  try {
    std::vector<std::string> warnings;
    load(inner, &warnings);
  } catch (const MjcfError& e) {
    return e.what();
  }
  FAIL("no MjcfError for " << inner);
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Mass of a solid sphere of radius r and density rho.
Real sphere_mass(Real r, Real rho) { return 4.0 / 3.0 * M_PI * r * r * r * rho; }

}  // namespace

TEST_CASE("mjcf defaults: nested classes inherit and childclass propagates down the tree") {
  const Model m = load(R"(
<default>
  <geom type="sphere" size="0.1" density="1000"/>
  <default class="heavy">
    <geom density="2000"/>
    <default class="big">
      <geom size="0.2"/>
    </default>
  </default>
</default>
<worldbody>
  <body name="a"><freejoint/><geom/></body>
  <body name="b" childclass="heavy"><freejoint/><geom/>
    <body name="c"><geom class="big"/></body>
    <body name="d"><geom density="300"/></body>
    <body name="e" childclass="big"><geom/></body>
    <body name="f"><geom class="main"/></body>
  </body>
</worldbody>)");
  // Each mass is rho * 4/3 pi r^3 exactly, up to rounding (1e-12 relative).
  const auto mass = [&](const char* body) { return m.bodies[m.find_body(body)].mass; };
  CHECK(mass("a") == doctest::Approx(sphere_mass(0.1, 1000)).epsilon(1e-12));  // main
  CHECK(mass("b") == doctest::Approx(sphere_mass(0.1, 2000)).epsilon(1e-12));  // heavy via childclass
  CHECK(mass("c") == doctest::Approx(sphere_mass(0.2, 2000)).epsilon(1e-12));  // big inherits heavy's density
  CHECK(mass("d") == doctest::Approx(sphere_mass(0.1, 300)).epsilon(1e-12));   // own attribute wins
  CHECK(mass("e") == doctest::Approx(sphere_mass(0.2, 2000)).epsilon(1e-12));  // nearest childclass wins
  CHECK(mass("f") == doctest::Approx(sphere_mass(0.1, 1000)).epsilon(1e-12));  // explicit class="main"
}

TEST_CASE("mjcf defaults: joint and actuator classes") {
  const Model m = load(R"(
<compiler angle="radian"/>
<default>
  <joint damping="0.5" axis="0 1 0"/>
  <motor gear="3" ctrlrange="-1 1"/>
  <default class="servo">
    <joint range="-1 1" armature="0.1"/>
    <position kp="50" gear="2"/>
  </default>
</default>
<worldbody>
  <body name="a"><joint name="ja"/><geom type="sphere" size="0.1"/></body>
  <body name="b"><joint name="jb" class="servo" damping="2"/><geom type="sphere" size="0.1"/></body>
</worldbody>
<actuator>
  <motor name="ma" joint="ja"/>
  <position name="pb" joint="jb" class="servo"/>
</actuator>)");
  const Joint& ja = m.joints[m.find_joint("ja")];
  const Joint& jb = m.joints[m.find_joint("jb")];
  CHECK(ja.damping == 0.5);
  CHECK(ja.axis_B.isApprox(Vec3(0, 1, 0)));
  CHECK(!ja.limited);
  CHECK(jb.damping == 2);                       // element attribute wins over main's 0.5
  CHECK(jb.axis_B.isApprox(Vec3(0, 1, 0)));     // inherited from main through servo
  CHECK(jb.limited);                            // autolimits: servo's range
  CHECK(jb.range_lo == -1);
  CHECK(jb.range_hi == 1);
  CHECK(jb.armature == doctest::Approx(0.1));
  const Actuator& ma = m.actuators[m.find_actuator("ma")];
  const Actuator& pb = m.actuators[m.find_actuator("pb")];
  CHECK(ma.gear[0] == 3);
  CHECK(ma.ctrl_limited);
  CHECK(ma.ctrl_lo == -1);
  CHECK(pb.kp == 50);
  CHECK(pb.gear[0] == 2);     // servo's position default, written after main's motor
  CHECK(pb.ctrl_limited);     // ctrlrange inherited from main
}

TEST_CASE("mjcf defaults: unknown and duplicate classes are errors naming them") {
  CHECK(contains(error_of("<worldbody>\n<geom class=\"nope\" type=\"sphere\" size=\"1\"/></worldbody>"),
                 "inline.xml:3: <geom> class=\"nope\": unknown default class 'nope'"));
  CHECK(contains(error_of("<worldbody>\n<body childclass=\"x\"/></worldbody>"), "inline.xml:3: "));
  CHECK(contains(error_of("<worldbody>\n<body childclass=\"x\"/></worldbody>"), "unknown default class 'x'"));
  CHECK(contains(error_of("<default><default class=\"a\"/>\n<default class=\"a\"/></default>"),
                 "inline.xml:3: duplicate default class 'a'"));
  CHECK(contains(error_of("<default>\n<default/></default>"), "inline.xml:3: a nested <default> needs attribute 'class'"));
  // Even an element the reader ignores is checked.
  CHECK(contains(error_of("<worldbody>\n<light class=\"nope\"/></worldbody>"), "unknown default class 'nope'"));
}

TEST_CASE("mjcf defaults: a bad value from a class names the default's line") {
  const std::string what = error_of("<default>\n<default class=\"bad\">\n<geom size=\"-1\"/></default></default>\n"
                                    "<worldbody><geom class=\"bad\" type=\"sphere\"/></worldbody>");
  CHECK(contains(what, "inline.xml:4: "));
  CHECK(contains(what, "size[0] must be > 0"));
}

TEST_CASE("mjcf defaults: unsupported attributes from a class warn at the default") {
  std::vector<std::string> warnings;
  load("<default>\n<geom solref=\"0.01 1\"/></default>\n<worldbody><geom type=\"sphere\" size=\"1\"/></worldbody>",
       &warnings);
  bool found = false;
  for (const std::string& w : warnings) found = found || (contains(w, "inline.xml:3: ") && contains(w, "'solref'"));
  CHECK(found);
  // class and childclass themselves are understood, not warned about.
  warnings.clear();
  load("<default><default class=\"c\"/></default>\n<worldbody><body childclass=\"c\"><geom class=\"c\" "
       "type=\"sphere\" size=\"1\"/></body></worldbody>",
       &warnings);
  for (const std::string& w : warnings) CHECK_MESSAGE(!contains(w, "class"), w);
}

TEST_CASE("mjcf defaults: a tendon's joint references take no joint defaults") {
  // dm_control's point_mass: a default <joint type= range= damping=> and fixed
  // tendons whose <joint joint= coef=> children name joints. MuJoCo applies
  // joint defaults to joints only; applied to the references they would bring
  // attributes a reference does not have (type, range, damping).
  const Model m = load(R"(
<default>
  <joint type="hinge" axis="0 0 1" limited="true" range="-.29 .29" damping="1"/>
</default>
<worldbody>
  <body name="a">
    <joint name="ja"/>
    <geom type="sphere" size="0.1"/>
  </body>
  <body name="b" pos="1 0 0">
    <joint name="jb"/>
    <geom type="sphere" size="0.1"/>
  </body>
</worldbody>
<tendon>
  <fixed name="t">
    <joint joint="ja" coef="1"/>
    <joint joint="jb" coef="-0.5"/>
  </fixed>
</tendon>)");
  REQUIRE(m.tendons.size() == 1);
  REQUIRE(m.tendons[0].terms.size() == 2);
  CHECK(m.tendons[0].terms[1].coef == doctest::Approx(-0.5));
  // The bodies' joints did take the default.
  CHECK(m.joints[0].limited);
  CHECK(m.joints[0].damping == doctest::Approx(1.0));
}
