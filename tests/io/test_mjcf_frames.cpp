// MJCF <frame>: poses compose into the children, nested frames compose,
// childclass reaches the children, misplaced elements are refused.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "io/mjcf.hpp"

using namespace contactlab;

namespace {

Model load(const std::string& inner) {
  std::vector<std::string> warnings;
  return load_mjcf_string("<mujoco>\n" + inner + "\n</mujoco>", "inline.xml", &warnings);
}

bool same_rotation(const Quat& a, const Quat& b) { return std::abs(std::abs(a.dot(b)) - 1) < 1e-12; }

}  // namespace

TEST_CASE("mjcf frames: poses compose into bodies and geoms") {
  const Model m = load(R"(
<worldbody>
  <frame pos="1 0 0" euler="0 0 90">
    <body name="b" pos="1 0 0">
      <freejoint/>
      <frame pos="0 0 1" zaxis="1 0 0">
        <geom name="g" type="sphere" size="0.1" pos="0 0 0.5"/>
        <frame pos="0 0 1"><geom name="h" type="sphere" size="0.1"/></frame>
      </frame>
    </body>
  </frame>
</worldbody>)");
  // Independent reference: the rotations written out by hand. Rz(90 deg)
  // maps x to y, so the body at frame x = 1 sits at world (1, 1, 0).
  const Quat rz90(Eigen::AngleAxis<Real>(M_PI / 2, Vec3::UnitZ()));
  const Body& b = m.bodies[m.find_body("b")];
  CHECK((b.pos0_W - Vec3(1, 1, 0)).norm() < 1e-12);  // tolerance: a few roundings of unit-size numbers
  CHECK(same_rotation(b.quat0_WB, rz90));
  // zaxis="1 0 0": z onto x, so the frame's local z offsets go along body x.
  const Quat ry90(Eigen::AngleAxis<Real>(M_PI / 2, Vec3::UnitY()));
  const Geom& g = m.geoms[m.find_geom("g")];
  CHECK((g.pos_B - Vec3(0.5, 0, 1)).norm() < 1e-12);
  CHECK(same_rotation(g.quat_BG, ry90));
  const Geom& h = m.geoms[m.find_geom("h")];  // nested frame: (0 0 1) + Ry90 (0 0 1) = (1 0 1)
  CHECK((h.pos_B - Vec3(1, 0, 1)).norm() < 1e-12);
  CHECK(same_rotation(h.quat_BG, ry90));
}

TEST_CASE("mjcf frames: fromto is mapped and childclass reaches the children") {
  const Model m = load(R"(
<default>
  <geom type="sphere" size="0.1"/>
  <default class="big"><geom size="0.3"/></default>
</default>
<worldbody>
  <frame pos="0 0 2" childclass="big">
    <geom name="a"/>
    <geom name="c" type="capsule" size="0.05" fromto="0 0 0 1 0 0"/>
    <geom name="d" class="main"/>
  </frame>
</worldbody>)");
  CHECK(m.geoms[m.find_geom("a")].size[0] == 0.3);
  CHECK((m.geoms[m.find_geom("a")].pos_B - Vec3(0, 0, 2)).norm() < 1e-15);
  CHECK(m.geoms[m.find_geom("d")].size[0] == 0.1);  // its own class wins over the frame's
  const Geom& c = m.geoms[m.find_geom("c")];
  CHECK((c.pos_B - Vec3(0.5, 0, 2)).norm() < 1e-15);  // midpoint of the mapped ends
  CHECK(c.size[1] == doctest::Approx(0.5).epsilon(1e-15));  // half-length unchanged by a translation
}

TEST_CASE("mjcf frames: joints and unknown attributes in a frame are refused at their line") {
  const auto error = [](const std::string& inner) {
    try {
      load(inner);
    } catch (const MjcfError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string joint = error("<worldbody><body><frame>\n<joint/></frame></body></worldbody>");
  CHECK(joint.find("inline.xml:3: <joint> is not allowed in <frame>") != std::string::npos);
  const std::string attr = error("<worldbody>\n<frame size=\"1\"/></worldbody>");
  CHECK(attr.find("inline.xml:3: <frame> has unknown attribute 'size'") != std::string::npos);
  const std::string place = error("<worldbody/><actuator>\n<frame/></actuator>");
  CHECK(place.find("inline.xml:3: <frame> is only allowed") != std::string::npos);
}
