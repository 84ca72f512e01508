// MJCF height fields (io/mjcf.cpp hfield_of_geom, io/hfield_io.cpp): the grid
// from elevation= or MuJoCo's binary file, normalised as MuJoCo 2.2.2's
// compiler does (the expected values below are what MuJoCo 2.2.2 put in
// hfield_data for the same files, read with mj_loadXML), the refusals, and
// whole simulations: a ball and a wheel rolling down a height field that
// samples an inclined plane exactly, against the same bodies on that plane.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "io/mjcf.hpp"
#include "sim/simulation.hpp"

using namespace contactlab;

namespace {

std::string hfield_dir() {
  const auto d = std::filesystem::temp_directory_path() / "contactlab_test_hfield";
  std::filesystem::create_directories(d);
  return d.string();
}

// MuJoCo's binary height field: int32 nrow, int32 ncol, float32 data.
void write_hfield(const std::string& path, int nrow, int ncol, const std::vector<float>& data) {
  std::ofstream out(path, std::ios::binary);
  const int32_t head[2] = {nrow, ncol};
  out.write(reinterpret_cast<const char*>(head), sizeof head);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size() * sizeof(float)));
}

Model load_hfield_xml(const std::string& xml) {
  return load_mjcf_string("<mujoco>\n" + xml + "\n</mujoco>", hfield_dir() + "/scene.xml");
}

std::string hfield_load_error(const std::string& xml) {
  try {
    load_hfield_xml(xml);
  } catch (const MjcfError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string exact(Real x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// The field z = 0.1 (y + 1) on 11 x 11 points over [-1, 1]^2 (elevation
// j / 10 of top 0.2) is exactly the plane through (0, 0, 0.1) tilted by
// atan(0.1) about x. `body` starts resting on it at (x, y) with its lowest
// point `reach` below its origin along the normal; both scenes run 1 s
// (default parts); returns the largest position difference and the travel.
std::pair<double, double> roll_down_both(const std::string& body_geom, const std::string& body_euler, Real x, Real y,
                                         Real reach) {
  std::string elevation;
  for (int j = 0; j < 11; ++j)
    for (int i = 0; i < 11; ++i) elevation += std::to_string(j) + " ";
  const Real tilt = std::atan(0.1);
  const Vec3 up(0, -std::sin(tilt), std::cos(tilt));
  // 1 um into the surface, so that every contact of the start is one.
  const Vec3 start = Vec3(x, y, 0.1 + 0.1 * y) + (reach - 1e-6) * up;
  const std::string body = "<body name='roller' pos='" + exact(start.x()) + " " + exact(start.y()) + " " +
                           exact(start.z()) + "' euler='" + body_euler + "'><freejoint/>" + body_geom + "</body>";
  const Model on_field = load_hfield_xml("<option timestep='0.001'/><asset><hfield name='t' nrow='11' ncol='11' "
                                         "size='1 1 0.2 0.1' elevation='" + elevation +
                                         "'/></asset><worldbody><geom type='hfield' hfield='t' friction='0.8'/>" +
                                         body + "</worldbody>");
  const Model on_plane = load_hfield_xml("<option timestep='0.001'/><worldbody><geom type='plane' size='5 5 0.1' "
                                         "pos='0 0 0.1' euler='" + exact(tilt * 180 / kPi) +
                                         " 0 0' friction='0.8'/>" + body + "</worldbody>");
  Simulation a(on_field, PartChoice{}), b(on_plane, PartChoice{});
  double worst = 0;
  for (int k = 0; k < 1000; ++k) {
    a.step(0.001);
    b.step(0.001);
    worst = std::max(worst, (a.data().x_W[0] - b.data().x_W[0]).norm());
  }
  return {worst, (a.data().x_W[0] - start).norm()};
}

}  // namespace

TEST_CASE("mjcf hfield: a binary file is read and normalised as MuJoCo 2.2.2 does") {
  write_hfield(hfield_dir() + "/a.bin", 2, 3, {1, 2, 3, 4, 5, 9});
  write_hfield(hfield_dir() + "/c.bin", 2, 2, {2, 2, 2, 2});
  const Model m = load_hfield_xml(
      "<asset><hfield name='a' file='a.bin' size='1 2 0.5 0.1'/><hfield name='c' file='c.bin' size='1 1 1 0'/></asset>"
      "<worldbody><geom type='hfield' hfield='a'/><geom type='hfield' hfield='c' pos='5 0 0'/>"
      "<body pos='0 0 1'><freejoint/><geom type='sphere' size='0.1'/></body></worldbody>");
  REQUIRE(m.geoms[0].hfield);
  const HeightField& a = *m.geoms[0].hfield;
  CHECK(a.nrow == 2);
  CHECK(a.ncol == 3);
  CHECK(a.elevation == std::vector<Real>{0, 0.125, 0.25, 0.375, 0.5, 1});  // MuJoCo: 0 0.125 0.25 0.375 0.5 1
  CHECK(a.sx == 1);
  CHECK(a.sy == 2);
  CHECK(a.top == 0.5);
  CHECK(a.base == 0.1);
  CHECK(m.geoms[1].hfield->elevation == std::vector<Real>{0, 0, 0, 0});  // MuJoCo: a constant field is 0
}

TEST_CASE("mjcf hfield: bad height fields and placements are refused naming the cause") {
  write_hfield(hfield_dir() + "/short.bin", 3, 3, {1, 2, 3});
  std::ofstream(hfield_dir() + "/terrain.png") << "not really a png";
  const std::string sphere = "<body pos='0 0 1'><freejoint/><geom type='sphere' size='0.1'/></body>";
  CHECK(has(hfield_load_error("<asset><hfield name='s' file='short.bin' size='1 1 1 0'/></asset><worldbody>"
                              "<geom type='hfield' hfield='s'/>" + sphere + "</worldbody>"),
            "needs 44 bytes"));
  CHECK(has(hfield_load_error("<asset><hfield name='p' file='terrain.png' size='1 1 1 0'/></asset><worldbody>"
                              "<geom type='hfield' hfield='p'/>" + sphere + "</worldbody>"),
            "PNG height fields are not read"));
  const std::string asset = "<asset><hfield name='h' nrow='2' ncol='2' elevation='0 1 2 3' size='1 1 1 0.1'/></asset>";
  CHECK(has(hfield_load_error(asset + "<worldbody><body><freejoint/><geom type='hfield' hfield='h'/>"
                                      "<geom type='sphere' size='0.1'/></body></worldbody>"),
            "a height field geom must be static"));
  CHECK(has(hfield_load_error(asset + "<worldbody><geom type='hfield' hfield='nope'/></worldbody>"),
            "unknown hfield 'nope'"));
  // A hostile grid size is refused before anything is allocated for it.
  CHECK(has(hfield_load_error("<asset><hfield name='big' nrow='100000' ncol='100000' size='1 1 1 0'/></asset>"),
            "is more than the 16777216 points"));
  CHECK(has(hfield_load_error("<asset><hfield name='h' nrow='2' ncol='2' size='1 1 1 -0.1'/></asset>"),
            "attribute 'size' of <hfield> [3] must be finite and in [0"));
}

TEST_CASE("mjcf hfield: a ball and a wheel roll down a height field as down the plane it samples") {
  // Ball (r = 0.05 m, mu 0.8). Bound 1e-9 m: the sphere-triangle and
  // sphere-plane contacts agree to rounding (same point, normal and depth:
  // tests/geometry/test_hfield_pairs.cpp), and the rolling is smooth in them.
  const auto [ball_diff, ball_travel] =
      roll_down_both("<geom type='sphere' size='0.05' mass='1' friction='0.8'/>", "0 0 0", 0.13, 0.35, 0.05);
  MESSAGE("ball: largest position difference " << ball_diff << " m over a travel of " << ball_travel << " m");
  CHECK(ball_travel > 0.2);  // it rolled across cells (spacing 0.2 m)
  CHECK(ball_diff < 1e-9);
  // Wheel (r = 0.08 m, half-width 0.03 m, axis along x) on its rim. The
  // field and the plane give it the same two contacts (the ends of its lowest
  // line, same points, normals and depths at the poses of
  // tests/geometry/test_hfield_pairs.cpp) but listed in the other order, and
  // the runs part by 2.7e-6 m in the first step, 2.1e-4 m after 0.33 m
  // (measured; the ball's single contact has no order). Required: the same
  // rolling within 1 mm over the 0.3 m, 0.3 % of the travel.
  const auto [wheel_diff, wheel_travel] =
      roll_down_both("<geom type='cylinder' size='0.08 0.03' mass='1' friction='0.8'/>", "0 90 0", 0.13, 0.35, 0.08);
  MESSAGE("wheel: largest position difference " << wheel_diff << " m over a travel of " << wheel_travel << " m");
  CHECK(wheel_travel > 0.2);
  CHECK(wheel_diff < 1e-3);
}
