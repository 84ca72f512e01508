// MJCF <site>: named points read into Model::sites (pose in the body frame,
// fromto, frames, defaults, implicit names), their world state, and the
// trajectory CSV's "site.NAME" rows.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/data.hpp"
#include "io/mjcf.hpp"
#include "support/cli.hpp"

using namespace contactlab;

namespace {

const std::string kArm = std::string(CONTACTLAB_TEST_DATA) + "/site_arm.xml";

Model load_inline(const std::string& inner) {
  std::vector<std::string> warnings;
  return load_mjcf_string("<mujoco>\n" + inner + "\n</mujoco>", "inline.xml", &warnings);
}

}  // namespace

TEST_CASE("mjcf sites: read in their body's frame, with fromto, on the world, and named when unnamed") {
  const Model m = load_mjcf_file(kArm);
  REQUIRE(m.sites.size() == 4);
  const int tip = m.find_site("tip"), mark = m.find_site("elbow_mark"), target = m.find_site("target");
  REQUIRE(tip >= 0);
  REQUIRE(mark >= 0);
  REQUIRE(target >= 0);
  CHECK(m.sites[tip].body == m.find_body("lower"));
  CHECK((m.sites[tip].pos_B - Vec3(0.05, 0.03, -0.9)).norm() == 0);
  CHECK(m.sites[target].body == -1);
  CHECK((m.sites[target].pos_B - Vec3(0.4, 0, 1.2)).norm() == 0);
  // fromto: the midpoint, z along the segment (from `to` towards `from`, as MuJoCo's geoms).
  CHECK((m.sites[mark].pos_B - Vec3(0.1, 0.1, -1)).norm() < 1e-15);
  CHECK((m.sites[mark].quat_BS * Vec3::UnitZ() - Vec3(0, -1, 0)).norm() < 1e-12);
  // The unnamed site gets the implicit name of its index.
  CHECK(m.find_site("site_3") == 3);
  CHECK(m.sites[3].body == m.find_body("lower"));

  // World state at the keyframe-free rest pose: origin of "lower" is (0.1, 0, 1),
  // turned 30 degrees about y; the site's point is that origin plus R * pos.
  Data d;
  d.init(m);
  const SiteState s = site_state(m, d, tip);
  const Quat R(Eigen::AngleAxis<Real>(30 * kPi / 180, Vec3::UnitY()));
  CHECK((s.p - (Vec3(0.1, 0, 1) + R * Vec3(0.05, 0.03, -0.9))).norm() < 1e-12);
  CHECK(s.q.angularDistance(R) < 1e-12);
  CHECK(s.v.norm() == 0);
  // Moving: the point's velocity is v_com + w x (p - x_com).
  d.w_W[1] = Vec3(0.3, -1.1, 0.2);
  d.v_W[1] = Vec3(0.1, 0.0, -0.4);
  const SiteState moving = site_state(m, d, tip);
  CHECK((moving.v - (d.v_W[1] + d.w_W[1].cross(moving.p - d.x_W[1]))).norm() < 1e-12);
  CHECK((moving.w - d.w_W[1]).norm() == 0);
  const SiteState fixed = site_state(m, d, target);
  CHECK((fixed.p - Vec3(0.4, 0, 1.2)).norm() == 0);
  CHECK(fixed.v.norm() == 0);
}

TEST_CASE("mjcf sites: frames and default classes apply, bad sites are refused at their line") {
  const Model m = load_inline(R"(
<default><default class="mark"><site pos="0 0 0.5"/></default></default>
<worldbody>
  <body name="b" pos="0 0 1">
    <freejoint/>
    <geom size="0.1"/>
    <frame pos="1 0 0"><site name="framed" pos="0 2 0"/></frame>
    <site name="classed" class="mark"/>
  </body>
</worldbody>)");
  CHECK((m.sites[m.find_site("framed")].pos_B - Vec3(1, 2, 0)).norm() < 1e-15);
  CHECK((m.sites[m.find_site("classed")].pos_B - Vec3(0, 0, 0.5)).norm() < 1e-15);

  struct Bad {
    const char* xml;
    const char* message;
  };
  for (const Bad& b : {Bad{"<worldbody>\n<site name=\"s\"/>\n<site name=\"s\"/>\n</worldbody>", "duplicate site name 's'"},
                       Bad{"<worldbody>\n<site name=\"s\"/>\n<site pos=\"nan 0 0\"/>\n</worldbody>", "pos"},
                       Bad{"<worldbody>\n<site name=\"s\"/>\n<site fromto=\"0 0 0 0 0 0\"/>\n</worldbody>", "zero length"},
                       Bad{"<worldbody>\n<site name=\"s\"/>\n<site spin=\"1\"/>\n</worldbody>", "spin"}}) {
    CAPTURE(b.xml);
    try {
      (void)load_inline(b.xml);
      FAIL("expected MjcfError");
    } catch (const MjcfError& e) {
      CHECK(e.line() == 4);
      CHECK(std::string(e.what()).find(b.message) != std::string::npos);
    }
  }
}

TEST_CASE("mjcf sites: the trajectory CSV has a site.NAME row per site after the bodies of each step") {
  const std::string out = "test_sites_traj.csv";
  std::remove(out.c_str());
  const test_cli::CliResult r = test_cli::run_binary("run " + kArm + " --steps 3 --keyframe bent --out " + out);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  std::ifstream in(out);
  std::string line;
  std::vector<std::string> rows;
  while (std::getline(in, line)) rows.push_back(line);
  std::remove(out.c_str());
  // Header, then 4 steps (0..3) of 2 bodies + 4 sites.
  REQUIRE(rows.size() == 1 + 4 * 6);
  CHECK(rows[0] == "step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");
  const auto name_of = [](const std::string& row) {
    const size_t a = row.find(',', row.find(',') + 1) + 1;
    return row.substr(a, row.find(',', a) - a);
  };
  const std::vector<std::string> expected = {"upper", "lower", "site.target", "site.elbow_mark", "site.tip", "site.site_3"};
  for (int s = 0; s < 4; ++s)
    for (int k = 0; k < 6; ++k) CHECK(name_of(rows[1 + 6 * s + k]) == expected[k]);
  // The keyframe moves the arm: the tip's velocity on its row is not zero.
  std::istringstream tip(rows[1 + 6 * 3 + 4]);
  std::vector<double> v;
  std::string cell;
  for (int c = 0; std::getline(tip, cell, ','); ++c)
    if (c >= 10 && c <= 12) v.push_back(std::stod(cell));
  REQUIRE(v.size() == 3);
  CHECK(std::abs(v[0]) + std::abs(v[1]) + std::abs(v[2]) > 0.1);
}

TEST_CASE("mjcf sites: run --json reports each site's final point under final_sites") {
  const test_cli::CliResult r = test_cli::run_binary("run " + kArm + " --steps 2 --json");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("\"final_sites\": {\"target\": [") != std::string::npos);
  CHECK(r.output.find("\"tip\": [") != std::string::npos);
  CHECK(r.output.find("\"site_3\": [") != std::string::npos);
  const test_cli::CliResult none = test_cli::run_binary("run bouncing_ball --steps 2 --json");
  REQUIRE_MESSAGE(none.status == 0, none.output);
  CHECK(none.output.find("\"final_sites\": {}") != std::string::npos);
}
