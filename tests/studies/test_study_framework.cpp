// The study framework (studies/study.hpp): summary.csv's exact header and
// rows, files moved into DIR only when the study returns, arm validation,
// per-trial random streams.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "studies/study.hpp"

using namespace contactlab;
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path fresh_dir(const char* name) {
  const fs::path dir = fs::temp_directory_path() / (std::string("contactlab_study_") + name);
  fs::remove_all(dir);
  return dir;
}

StudyDefinition toy_study() {
  StudyDefinition s;
  s.name = "toy";
  s.summary = "a test study";
  s.tasks = {"count"};
  s.arms = {"a", "b"};
  s.accepts_extra_arm = [](const std::string& arm) {
    return arm.rfind("a_rho", 0) == 0 ? std::string() : std::string("expected a_rhoX");
  };
  s.default_trials = 2;
  s.full_trials = 5;
  s.run = [](StudyContext& ctx) {
    for (const std::string& arm : ctx.arms()) ctx.summary().add("count", arm, "trials", ctx.trials());
    std::ofstream(ctx.path("own.csv")) << "x\n1\n";
  };
  return s;
}

}  // namespace

TEST_CASE("study: summary.csv has the exact header, one row per number, and the study's own files beside it") {
  const fs::path dir = fresh_dir("ok");
  StudyOptions options;
  options.out_dir = dir.string();
  run_study(toy_study(), options);
  CHECK(read_all(dir / "summary.csv") == "study,task,arm,metric,value\ntoy,count,a,trials,2\ntoy,count,b,trials,2\n");
  CHECK(read_all(dir / "own.csv") == "x\n1\n");
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) entries += e.is_regular_file() || e.is_directory();
  CHECK(entries == 2);  // no staging folder left behind
  options.full = true;
  options.arms = {"b", "a_rho1e-3"};
  run_study(toy_study(), options);
  CHECK(read_all(dir / "summary.csv") ==
        "study,task,arm,metric,value\ntoy,count,b,trials,5\ntoy,count,a_rho1e-3,trials,5\n");
  options.trials = 3;
  CHECK(run_study(toy_study(), options).rows().at(0).value == 3);
  fs::remove_all(dir);
}

TEST_CASE("study: a study that throws leaves no file and removes the folder it created") {
  const fs::path dir = fresh_dir("fails");
  StudyDefinition s = toy_study();
  s.run = [](StudyContext& ctx) {
    std::ofstream(ctx.path("half.csv")) << "partial\n";
    throw std::runtime_error("diverged");
  };
  StudyOptions options;
  options.out_dir = dir.string();
  CHECK_THROWS_WITH_AS(run_study(s, options), "diverged", std::runtime_error);
  CHECK_FALSE(fs::exists(dir));
  // A folder that existed keeps what was in it and gains nothing.
  fs::create_directories(dir);
  std::ofstream(dir / "before.txt") << "kept\n";
  CHECK_THROWS(run_study(s, options));
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    ++entries;
    CHECK(e.path().filename() == "before.txt");
  }
  CHECK(entries == 1);
  fs::remove_all(dir);
}

TEST_CASE("study: unknown or repeated arms, negative trials and a missing folder are refused by name") {
  StudyOptions options;
  options.out_dir = fresh_dir("refused").string();
  options.arms = {"c"};
  CHECK_THROWS_WITH_AS(run_study(toy_study(), options),
                       "--arms: study toy has no arm 'c' (expected a_rhoX); its arms: a, b", std::invalid_argument);
  options.arms = {"a", "a"};
  CHECK_THROWS_WITH_AS(run_study(toy_study(), options), "--arms: 'a' is given twice", std::invalid_argument);
  options.arms = {};
  options.trials = -1;
  CHECK_THROWS_AS(run_study(toy_study(), options), std::invalid_argument);
  options.trials = 0;
  options.out_dir = "";
  CHECK_THROWS_WITH_AS(run_study(toy_study(), options), "study toy: no output folder (--out)", std::invalid_argument);
  CHECK_THROWS_AS(find_study("no_such_study"), std::invalid_argument);
  CHECK_FALSE(fs::exists(fresh_dir("refused")));
}

TEST_CASE("study: names that would break the CSV and paths outside the folder are refused") {
  StudySummary summary("s");
  CHECK_THROWS_AS(summary.add("a,b", "arm", "m", 1), std::invalid_argument);
  CHECK_THROWS_AS(summary.add("t", "", "m", 1), std::invalid_argument);
  CHECK_THROWS_AS(summary.add("t", "arm", "m\n", 1), std::invalid_argument);
  StudyOptions options;
  StudyContext ctx(options, {"a"}, 1, "/tmp", summary);
  CHECK_THROWS_AS(ctx.path("../x.csv"), std::invalid_argument);
  CHECK_THROWS_AS(ctx.path("summary.csv"), std::invalid_argument);
  CHECK(ctx.path("x.csv") == "/tmp/x.csv");
}

TEST_CASE("study: a trial's random stream depends on the seed, the stream and the trial only") {
  StudySummary summary("s");
  StudyOptions one, two;
  two.seed = 2;
  StudyContext a(one, {}, 3, "/tmp", summary), b(one, {}, 50, "/tmp", summary), c(two, {}, 3, "/tmp", summary);
  CHECK(a.rng(1)() == b.rng(1)());   // the trial count does not shift the draws
  CHECK(a.rng(1)() != a.rng(2)());
  CHECK(a.rng(1)() != a.rng(1, 1)());
  CHECK(a.rng(1)() != c.rng(1)());
}
