// `contactlab compare --peer mujoco` and the usable-time-step summary.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "peers/mujoco_peer.hpp"
#include "studies/comparison.hpp"
#include "support/cli.hpp"

using namespace contactlab;
using test_cli::run_binary;

TEST_CASE("compare: usable time step is the largest dt within 2x of the combination's floor") {
  auto run = [](const char* combo, double dt, double error, double wall) {
    ComparisonRun r;
    r.combo = combo;
    r.dt = dt;
    r.ok = true;
    r.error = error;
    r.wall_per_sim = wall;
    return r;
  };
  std::vector<ComparisonRun> runs = {run("a", 0.001, 1e-3, 1.0), run("a", 0.002, 1.9e-3, 0.5), run("a", 0.005, 2.1e-3, 0.2),
                                     run("b", 0.001, 4e-3, 0.3), run("b", 0.002, 1e-3, 0.2)};
  runs.push_back(run("c", 0.001, 1, 1));
  runs.back().ok = false;  // a failed run has no error
  const auto u = usable_steps(runs);
  REQUIRE(u.size() == 3);
  CHECK(u[0].floor == 1e-3);
  CHECK(u[0].dt == 0.002);  // 2.1e-3 > 2 x 1e-3
  CHECK(u[0].wall_per_sim == 0.5);
  CHECK(u[1].floor == 1e-3);
  CHECK(u[1].dt == 0.002);
  CHECK(std::isnan(u[2].floor));
  CHECK(std::isnan(u[2].dt));
}

TEST_CASE("cli: compare --peer mujoco adds MuJoCo rows and writes usable_dt.csv") {
  if (!MujocoPeer::built()) {
    const auto r = run_binary("compare box_ramp --combos velocity+desaxce+padmm --peer mujoco");
    CHECK(r.status == 2);
    CHECK(r.output.find("built without MuJoCo") != std::string::npos);
    MESSAGE("contactlab was built without MuJoCo: the peer's compare rows are not checked");
    return;
  }
  const std::string dir = "/tmp/contactlab_test_compare_peer";
  std::filesystem::remove_all(dir);
  const auto r = run_binary("compare box_ramp --combos velocity+desaxce+padmm --dt 0.001,0.0015,0.002,0.003 --peer mujoco --out " + dir);  // a sweep: is_dt_sweep
  CHECK(r.status == 0);
  CHECK(r.output.find("mujoco(Euler)") != std::string::npos);
  CHECK(r.output.find("usable time step") != std::string::npos);
  std::ifstream csv(dir + "/usable_dt.csv");
  std::stringstream text;
  text << csv.rdbuf();
  CHECK(text.str().rfind("scene,combo,error_floor,usable_dt,wall_per_sim_s\n", 0) == 0);
  CHECK(text.str().find("box_ramp,mujoco(Euler),") != std::string::npos);
  std::ifstream runs(dir + "/runs.csv");
  std::stringstream rtext;
  rtext << runs.rdbuf();
  CHECK(rtext.str().find("box_ramp,mujoco(Euler),0.003,") != std::string::npos);
  CHECK(run_binary("compare box_ramp --peer bullet").status == 2);
  std::filesystem::remove_all(dir);
}
