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

TEST_CASE("mjcf frames: replicate reproduces MuJoCo's documented example") {
  // The XML reference's example (replicate, "Usage example"): MuJoCo saves
  // Alice-00 at 0; Alice-10 at (1 0 0) quat (1 0 1 0); Alice-01 at (0 1 0)
  // quat (1 1 0 0); Alice-11 at (1 1 0) quat (.5 .5 .5 .5) (quats unnormalised there).
  const Model m = load(R"(
<worldbody>
  <replicate count="2" offset="0 1 0" euler="90 0 0">
    <replicate count="2" sep="-" offset="1 0 0" euler="0 90 0">
      <geom name="Alice" type="sphere" size=".1"/>
    </replicate>
  </replicate>
</worldbody>)");
  REQUIRE(m.geoms.size() == 4);
  struct Expect {
    const char* name;
    Vec3 pos;
    Quat quat;
  };
  const Expect expected[] = {{"Alice-00", Vec3(0, 0, 0), Quat(1, 0, 0, 0)},
                             {"Alice-10", Vec3(1, 0, 0), Quat(1, 0, 1, 0).normalized()},
                             {"Alice-01", Vec3(0, 1, 0), Quat(1, 1, 0, 0).normalized()},
                             {"Alice-11", Vec3(1, 1, 0), Quat(0.5, 0.5, 0.5, 0.5)}};
  for (const Expect& e : expected) {
    INFO(e.name);
    const int g = m.find_geom(e.name);
    REQUIRE(g >= 0);
    CHECK((m.geoms[g].pos_B - e.pos).norm() < 1e-12);  // tolerance: roundings of unit-size numbers
    CHECK(same_rotation(m.geoms[g].quat_BG, e.quat));
  }
  // MuJoCo's order too: inner copies first.
  CHECK(m.find_geom("Alice-10") == 1);
}

TEST_CASE("mjcf frames: an error inside a replica names the original line") {
  try {
    load("<worldbody>\n<replicate count=\"3\" offset=\"1 0 0\">\n<geom type=\"sphere\" size=\"-1\"/>\n</replicate>"
         "</worldbody>");
    FAIL("expected MjcfError");
  } catch (const MjcfError& e) {
    CHECK(e.line() == 4);
    CHECK(std::string(e.what()).find("size[0] must be > 0") != std::string::npos);
  }
  try {
    load("<worldbody>\n<replicate count=\"0\"><geom/></replicate></worldbody>");
    FAIL("expected MjcfError");
  } catch (const MjcfError& e) {
    CHECK(e.line() == 3);
    CHECK(std::string(e.what()).find("positive integer 'count'") != std::string::npos);
  }
}

TEST_CASE("mjcf frames: replicate tags in comments, unpaired, or past the expansion bound end the load") {
  // "<replicate" in a comment is no element: the model loads as written (this
  // once looped for ever, as did the fuzz input in tests/data/fuzz_regressions/mjcf/).
  const Model commented = load("<worldbody>\n<!-- <replicate count=\"2\"> -->\n"
                               "<body name=\"b\"><freejoint/><geom size=\"0.1\"/></body>\n</worldbody>");
  CHECK(commented.bodies.size() == 1);
  // A stray end tag is refused, by the expansion or by the XML reader.
  CHECK_THROWS_AS(load("<worldbody>\n<body><geom size=\"0.1\"/></replicate></body>\n</worldbody>"), MjcfError);
  // The bound of MjcfLoadOptions::max_expanded_bytes, named in the message.
  MjcfLoadOptions options;
  options.max_expanded_bytes = 4000;
  const std::string xml =
      "<mujoco>\n<worldbody>\n<replicate count=\"100\" offset=\"1 0 0\">\n"
      "<body><freejoint/><geom size=\"0.1\"/></body>\n</replicate>\n</worldbody>\n</mujoco>";
  try {
    std::vector<std::string> warnings;
    (void)load_mjcf_string(xml, "big.xml", options, &warnings);
    FAIL("expected MjcfError");
  } catch (const MjcfError& e) {
    CHECK(e.line() == 3);
    CHECK(std::string(e.what()).find("max_expanded_bytes") != std::string::npos);
  }
  std::vector<std::string> warnings;
  CHECK(load_mjcf_string(xml, "big.xml", &warnings).bodies.size() == 100);  // under the default bound
}
