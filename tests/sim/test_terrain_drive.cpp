// The built-in scene terrain_drive (scenes/terrain_drive.xml and .hfield,
// written by scripts/make_terrain_drive.py): the committed files are what the
// script writes, the grid is Ostrich's size, and the robot drives on it.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/scene_library.hpp"
#include "sim/simulation.hpp"
#include "support/cli.hpp"

using namespace contactlab;

namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("terrain_drive: the committed scene is what scripts/make_terrain_drive.py writes") {
  const std::filesystem::path out = std::filesystem::temp_directory_path() / "contactlab_terrain_drive";
  std::filesystem::create_directories(out);
  const std::string script = std::string(CONTACTLAB_SCENE_DIR) + "/../scripts/make_terrain_drive.py";
  REQUIRE(std::system(("python3 " + script + " --out-dir " + out.string()).c_str()) == 0);
  for (const char* name : {"terrain_drive.xml", "terrain_drive.hfield"})
    CHECK_MESSAGE(file_bytes((out / name).string()) == file_bytes(std::string(CONTACTLAB_SCENE_DIR) + "/" + name),
                  name);
  std::filesystem::remove_all(out);
}

TEST_CASE("terrain_drive: an 80 x 80 grid over 24 x 24 m (12482 triangles), and the robot drives over it") {
  const Model model = load_scene("terrain_drive");
  const int field = model.find_geom("terrain");
  REQUIRE(field >= 0);
  const HeightField& h = *model.geoms[field].hfield;
  CHECK(h.nrow == 80);
  CHECK(h.ncol == 80);
  CHECK(2 * (h.nrow - 1) * (h.ncol - 1) == 12482);
  CHECK(h.sx == 12);
  CHECK(h.sy == 12);
  // 2 s of the default parts at the scene's 10 ms: the wheels at 3 rad/s
  // (1.05 m/s without slip) carry the chassis more than 1.5 m (1.9 m by the
  // measured 10.1 m in 10 s), no contact deeper than 5 mm (measured at most
  // 0.64 mm over 10 s), every state finite (step() throws otherwise).
  Simulation sim(model, PartChoice{});
  const int chassis = model.find_body("chassis");
  REQUIRE(chassis >= 0);
  const Vec3 start = sim.data().x_W[chassis];
  double deepest = 0;
  for (int k = 0; k < 200; ++k) {
    sim.apply_scheduled_controls();
    sim.step(model.options.timestep);
    deepest = std::max(deepest, sim.data().metrics.max_penetration);
  }
  const Vec3 moved = sim.data().x_W[chassis] - start;
  MESSAGE("chassis moved " << moved.transpose() << " m in 2 s, deepest contact " << deepest << " m");
  CHECK(moved.x() > 1.5);
  CHECK(deepest < 5e-3);
}

TEST_CASE("terrain_drive: control and initial-velocity gradients through the height field pass gradcheck") {
  // 20 steps (0.2 s: the landing and the first metres, every wheel on the
  // terrain), default parts, the exact pull-back through the hfield contacts
  // (all over dual numbers: docs/geometry.md "Height fields"). Tolerance:
  // gradcheck's default 1e-2 (docs/gradients.md: PADMM's unconverged steps
  // make the finite differences noisy); measured 5.4e-4 (ctrl:drive_left)
  // and 2.2e-5 (init:chassis.vx).
  const test_cli::CliResult r = test_cli::run_binary("gradcheck terrain_drive --steps 20 --loss \"final:chassis.px + final:chassis.py\" "
                                 "--wrt ctrl:drive_left,init:chassis.vx");
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(r.output.find("all within tolerance") != std::string::npos);
}
