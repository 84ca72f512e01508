// contactlab bench-scale as a user runs it: the exact CSV headers, one row
// per combination (and MuJoCo when built), and bad flags refused by name
// with no file left.
#include <doctest/doctest.h>

#include "support/cli.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using Result = contactlab::test_cli::CliResult;
Result run(const std::string& args) { return contactlab::test_cli::run_binary(args); }

std::vector<std::string> lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

#ifdef CONTACTLAB_HAVE_MUJOCO
constexpr bool kMujoco = true;
#else
constexpr bool kMujoco = false;
#endif

}  // namespace

TEST_CASE("cli: bench-scale writes scale.csv and exponents.csv with the exact headers, one row per combination") {
  const std::string dir = "/tmp/contactlab_cli_test_bench_scale";
  std::filesystem::remove_all(dir);
  const Result r = run("bench-scale --shapes box --sizes 4 --duration 0.02 --out " + dir);
  CAPTURE(r.output);
  REQUIRE(r.status == 0);
  const std::vector<std::string> scale = lines(dir + "/scale.csv");
  REQUIRE(!scale.empty());
  CHECK(scale[0] ==
        "shape,bodies,combo,steps,status,mean_contacts,wall_per_step_s,ratio_to_mujoco,steps_not_converged,"
        "max_r_vi,max_penetration");
  CHECK(scale.size() == 1 + 3 + (kMujoco ? 1 : 0));
  CHECK(scale[1].rfind("box,4,velocity+desaxce+padmm,10,ok,", 0) == 0);
  CHECK(scale[2].rfind("box,4,velocity+desaxce+pgs,10,ok,", 0) == 0);
  CHECK(scale[3].rfind("box,4,velocity+fischer_burmeister+newton,10,ok,", 0) == 0);
  if (kMujoco) CHECK(scale[4].rfind("box,4,mujoco,10,ok,", 0) == 0);
  const std::vector<std::string> exps = lines(dir + "/exponents.csv");
  REQUIRE(!exps.empty());
  CHECK(exps[0] == "shape,combo,exponent,points");
  CHECK(exps.size() == scale.size());  // one per combination (no point with >= 16 bodies: empty exponent)
  CHECK(std::filesystem::exists(dir + "/scale.gp"));
  CHECK(std::filesystem::exists(dir + "/pile_box_4.xml"));
  // The pile file runs as any scene.
  CHECK(run("run " + dir + "/pile_box_4.xml --steps 3").status == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: bench-scale records a run stopped by its time limit and goes on") {
  const std::string dir = "/tmp/contactlab_cli_test_bench_scale_limit";
  std::filesystem::remove_all(dir);
  const Result r = run("bench-scale --shapes sphere,box --sizes 4 --duration 1 --time-limit 1e-9 --peer none --out " + dir);
  CAPTURE(r.output);
  REQUIRE(r.status == 0);
  const std::vector<std::string> scale = lines(dir + "/scale.csv");
  REQUIRE(scale.size() == 1 + 2 * 3);
  for (size_t i = 1; i < scale.size(); ++i) {
    CAPTURE(scale[i]);
    CHECK(scale[i].find(",1,time_limit,") != std::string::npos);  // one step, then the limit
    CHECK(scale[i].find(",mujoco,") == std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: bench-scale --set reaches every run") {
  const std::string dir = "/tmp/contactlab_cli_test_bench_scale_set";
  std::filesystem::remove_all(dir);
  // A padmm budget of one iteration: once the boxes land (about 0.1 s) every
  // step with contacts stops unconverged (the default budget leaves 2-4 of
  // 1000 steps unconverged on this pile).
  const Result r = run("bench-scale --shapes box --sizes 4 --duration 0.3 --peer none "
                       "--combos velocity+desaxce+padmm --set solver.max_iterations=1 --set solver.islands=false --out " +
                       dir);
  CAPTURE(r.output);
  REQUIRE(r.status == 0);
  const std::vector<std::string> scale = lines(dir + "/scale.csv");
  REQUIRE(scale.size() == 2);
  CHECK(scale[1].find("box,4,velocity+desaxce+padmm,150,ok,") == 0);
  // steps_not_converged is the ninth column: most of the 150 steps.
  std::vector<std::string> cells;
  std::string cell;
  for (char ch : scale[1] + ",") {
    if (ch == ',') {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += ch;
    }
  }
  REQUIRE(cells.size() >= 9);
  CHECK(std::stoi(cells[8]) >= 50);
  std::filesystem::remove_all(dir);
}

TEST_CASE("cli: bench-scale refuses bad flags by name and leaves no file") {
  const std::string dir = "/tmp/contactlab_cli_test_bench_scale_bad";
  struct Case {
    std::string args, expected;
  };
  const Case cases[] = {
      {"--shapes cone", "--shapes"},
      {"--shapes box,", "--shapes"},
      {"--sizes 0", "--sizes"},
      {"--sizes=-4", "--sizes"},
      {"--sizes 4,abc", "--sizes"},
      {"--combos velocity+desaxce+nope", "--combos"},
      {"--combos velocity+desaxce+newton", "--combos"},  // a refused triple
      {"--duration=-1", "--duration"},
      {"--duration 0", "--duration"},
      {"--dt 0", "--dt"},
      {"--time-limit 0", "--time-limit"},
      {"--peer bullet", "--peer"},
      {"--set solver.nope=1", "--set"},
      {"--set solver.islands=maybe", "--set"},
      {"--combos velocity+desaxce+pgs --set solver.delassus=sparse", "--set"},  // a padmm key, pgs has none
      {"--nonsense", "nonsense"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    std::filesystem::remove_all(dir);
    const Result r = run("bench-scale --sizes 4 --duration 0.02 " + c.args + " --out " + dir);
    CAPTURE(r.output);
    CHECK(r.status != 0);
    CHECK(r.output.find(c.expected) != std::string::npos);
    CHECK(!std::filesystem::exists(dir));
  }
}
