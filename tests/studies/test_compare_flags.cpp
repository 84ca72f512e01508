// The comparison's run flags, its dt-sweep rule (studies/comparison.hpp) and
// the flags on its plots (studies/comparison_plot.hpp).
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "studies/comparison.hpp"
#include "studies/comparison_plot.hpp"
#include "support/temp_dir.hpp"

using namespace contactlab;

namespace {

ComparisonRun moved(double travel, double rotation) {
  ComparisonRun r;
  r.ok = true;
  r.steps = 100;
  r.travel = travel;
  r.rotation = rotation;
  return r;
}

}  // namespace

TEST_CASE("compare flags: not converged, did not move and deep penetration are flagged, nothing else") {
  ComparisonRun a = moved(0.25, 0.0), b = moved(0.24, 0.0), still = moved(0.0008, 0.0), stuck = moved(0.25, 0.0),
                deep = moved(0.25, 0.0), failed;
  stuck.not_converged = 7;
  deep.max_penetration = 2e-3;
  failed.ok = false;
  failed.message = "diverged";
  flag_runs({&a, &b, &still, &stuck, &deep, &failed}, FlagThresholds{});
  CHECK(a.flags.empty());
  CHECK(b.flags.empty());
  CHECK(still.flags.find("did not move") != std::string::npos);  // 0.0008 m < 1 % of the median 0.25 m
  CHECK(stuck.flags.find("not converged on 7 of 100") != std::string::npos);
  CHECK(deep.flags.find("penetration") != std::string::npos);
  CHECK(failed.flags.empty());  // a failed run keeps its message only
}

TEST_CASE("compare flags: a scene at rest flags no run as still") {
  ComparisonRun a = moved(1e-9, 1e-7), b = moved(0.0, 0.0);
  flag_runs({&a, &b}, FlagThresholds{});
  CHECK(a.flags.empty());
  CHECK(b.flags.empty());
}

TEST_CASE("compare usable dt: only over at least four steps a quarter decade apart or closer") {
  CHECK(is_dt_sweep({1e-3, 1.5e-3, 2e-3, 3e-3, 5e-3, 7e-3, 1e-2}));
  CHECK(is_dt_sweep({1e-3, 1.5e-3, 2e-3, 3e-3}));
  CHECK_FALSE(is_dt_sweep({1e-3, 1.5e-3, 2e-3}));           // three steps
  CHECK_FALSE(is_dt_sweep({1e-3, 2e-3, 5e-3, 1e-2, 2e-2}));  // 2.5 > 10^(1/4) = 1.78 apart
  CHECK_FALSE(is_dt_sweep({1e-3, 1e-3, 1e-3, 1e-3}));        // not distinct
}

TEST_CASE("compare plots: flagged runs are circled and named in their combination's legend entry") {
  SceneComparison sc;
  sc.label = "toy";
  sc.duration = 1;
  for (const double dt : {0.001, 0.01}) {
    for (const char* combo : {"velocity+desaxce+padmm", "velocity+desaxce+pgs"}) {
      ComparisonRun r = moved(0.25, 0.0);
      r.combo = combo;
      r.dt = dt;
      r.error = dt;  // any positive value draws a point
      r.wall_per_sim = 0.1;
      sc.runs.push_back(r);
    }
  }
  sc.runs[3].flags = "not converged on 7 of 100 steps";  // pgs at dt 0.01
  test::TempDir tmp;
  plot_scene(tmp.path, sc, "toy");  // false without gnuplot: the script is written either way
  std::ifstream in(tmp / "plot_toy.gp");
  REQUIRE(in.good());
  const std::string gp((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(gp.find("title \"velocity+desaxce+pgs (flagged at dt 0.01)\"") != std::string::npos);
  CHECK(gp.find("title \"velocity+desaxce+padmm\"") != std::string::npos);  // nothing flagged: the name alone
  // The circled points: one data block per plot (error and wall time), holding the flagged run only.
  const size_t block = gp.find("$errorflagged << EOD\n");
  REQUIRE(block != std::string::npos);
  CHECK(gp.substr(block, gp.find("EOD\n", block + 20) - block) == "$errorflagged << EOD\n0.01 0.01\n");
  CHECK(gp.find("$wallflagged << EOD\n0.01 0.1\n") != std::string::npos);
}
