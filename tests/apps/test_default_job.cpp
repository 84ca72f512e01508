// `contactlab` with no arguments (apps/default_job.cpp): a short PASS/FAIL
// table on stdout, the full comparison in contactlab_default/.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli.hpp"
#include "support/temp_dir.hpp"

using namespace contactlab;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

// The table row of `scene`, split on blanks.
std::vector<std::string> row_of(const std::vector<std::string>& lines, const std::string& scene) {
  for (const std::string& l : lines)
    if (l.rfind(scene + " ", 0) == 0) {
      std::vector<std::string> words;
      std::stringstream ss(l);
      for (std::string w; ss >> w;) words.push_back(w);
      return words;
    }
  return {};
}

}  // namespace

TEST_CASE("default job: at most 40 lines, one row per scene, verdicts the physics makes certain") {
  test::TempDir dir;
  const auto r = test_cli::run_shell("cd '" + dir.path + "' && " + std::string(CONTACTLAB_BINARY) + " 2>/dev/null");
  REQUIRE(WEXITSTATUS(r.raw_status) == 0);
  const auto lines = lines_of(r.output);
  CHECK(lines.size() <= 40);
  CHECK(r.output.find("kamino") != std::string::npos);
  for (const char* scene :
       {"box_ramp", "bouncing_ball", "stacked_boxes", "pendulum", "four_bar", "incline_sphere", "sliding_box"}) {
    const auto row = row_of(lines, scene);
    REQUIRE_MESSAGE(!row.empty(), scene);
    // The Kamino path (velocity + desaxce + padmm) is the validated default:
    // its first cell (after the quantity) passes on every scene.
    std::string first_verdict;
    for (const std::string& w : row)
      if (w.rfind("PASS", 0) == 0 || w.rfind("FAIL", 0) == 0) {
        first_verdict = w.substr(0, 4);
        break;
      }
    CHECK_MESSAGE(first_verdict == "PASS", scene << ": " << r.output);
  }
  // Backward Euler is dissipative (no Newton restitution): the ball does not
  // bounce, the apex error is the whole 0.64 m, and the table says FAIL.
  CHECK(r.output.find("100% FAIL") != std::string::npos);
  CHECK(std::filesystem::exists(dir / "contactlab_default/tables.txt"));
  CHECK(std::filesystem::exists(dir / "contactlab_default/runs.csv"));
}
