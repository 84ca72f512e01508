// Study ostrich_box (studies/ostrich_box.cpp) at its short scale, one trial
// of the Ostrich arm: the outcome the physics makes certain, and the files'
// consistency with each other.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "studies/study.hpp"

using namespace contactlab;
namespace fs = std::filesystem;

namespace {

// Rows of a CSV file as header name -> text.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& p) {
  std::ifstream in(p);
  REQUIRE_MESSAGE(in.good(), p.string());
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream hs(line);
  for (std::string f; std::getline(hs, f, ',');) header.push_back(f);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    std::map<std::string, std::string> row;
    size_t i = 0;
    for (std::string f; std::getline(ls, f, ',') && i < header.size(); ++i) row[header[i]] = f;
    rows.push_back(row);
  }
  return rows;
}

double num(const std::map<std::string, std::string>& row, const std::string& key) {
  REQUIRE_MESSAGE(row.count(key), key);
  return std::stod(row.at(key));
}

}  // namespace

TEST_CASE("study ostrich_box: the Ostrich arm's files agree with each other and with the physics") {
  const fs::path dir = fs::temp_directory_path() / "contactlab_study_ostrich_box";
  fs::remove_all(dir);
  StudyOptions o;
  o.trials = 1;
  o.seed = 1;
  o.arms = {"ostrich"};
  o.out_dir = dir.string();
  const StudySummary s = run_study(find_study("ostrich_box"), o);

  std::map<std::string, double> metric;
  for (const SummaryRow& r : s.rows()) {
    CHECK(r.task == "pallet");
    CHECK(r.arm == "ostrich");
    metric[r.metric] = r.value;
  }
  for (const char* m : {"success_rate", "final_error_median_m", "final_speed_median_mps", "time_per_iteration_s",
                        "rollouts_per_trial", "diverged_rollouts"})
    CHECK_MESSAGE(metric.count(m), m);
  CHECK(metric.at("rollouts_per_trial") == 11);  // the short scale's 10 Adam updates + the final iterate
  CHECK(metric.at("success_rate") >= 0);
  CHECK(metric.at("success_rate") <= 1);

  const auto trials = read_csv(dir / "trials.csv");
  REQUIRE(trials.size() == 1);
  // A diverged rollout (counted) is never the best iterate.
  CHECK(num(trials[0], "best_loss") < 1e6);
  const auto paths = read_csv(dir / "paths.csv");
  REQUIRE(paths.size() == 61);  // 60 steps of 0.1 s and the start
  // The start pose is the drawn perturbation of the scene's (0, 0).
  CHECK(num(paths.front(), "x") == doctest::Approx(num(trials[0], "start_dx_m")).epsilon(1e-12));
  CHECK(num(paths.front(), "y") == doctest::Approx(num(trials[0], "start_dy_m")).epsilon(1e-12));
  // The best iterate is no worse than the initial near-constant 1.5 rad/s
  // command, which rolls the robot over the step box (x from 1.0 to 2.2 m)
  // to about the 3 m target (0.525 m/s for 6 s, less the climb).
  const auto& last = paths.back();
  CHECK(num(last, "x") > 2.2);
  const double error = std::hypot(num(last, "x") - num(trials[0], "target_x_m"),
                                  num(last, "y") - num(trials[0], "target_y_m"));
  CHECK(error < 0.5);
  // The gate measured the path's last point.
  CHECK(error == doctest::Approx(num(trials[0], "final_error_m")).epsilon(1e-12));
  CHECK(num(trials[0], "success") == (error < 0.2 && num(trials[0], "final_speed_mps") < 0.3 ? 1 : 0));
  // The loss curve: one row per evaluated iterate, its running best non-increasing,
  // the best equal to the trial's.
  const auto curves = read_csv(dir / "loss_curves.csv");
  REQUIRE(curves.size() == 11);
  for (size_t i = 1; i < curves.size(); ++i) CHECK(num(curves[i], "best_loss") <= num(curves[i - 1], "best_loss"));
  CHECK(num(curves.back(), "best_loss") == doctest::Approx(num(trials[0], "best_loss")).epsilon(1e-12));
  fs::remove_all(dir);
}

TEST_CASE("study ostrich_box: an arm its parts cannot run is reported unavailable, not run as another") {
  // backward_euler's adjoint has no truncated pull-back: the arm gets
  // available = 0 and no numbers (running the full pull-back under its name
  // would report one gradient as the other).
  const fs::path dir = fs::temp_directory_path() / "contactlab_study_ostrich_box_unavailable";
  fs::remove_all(dir);
  StudyOptions o;
  o.trials = 1;
  o.arms = {"truncated"};
  o.out_dir = dir.string();
  const StudySummary s = run_study(find_study("ostrich_box"), o);
  REQUIRE(s.rows().size() == 1);
  CHECK(s.rows()[0].arm == "truncated");
  CHECK(s.rows()[0].metric == "available");
  CHECK(s.rows()[0].value == 0);
  CHECK(read_csv(dir / "trials.csv").empty());
  fs::remove_all(dir);
}

TEST_CASE("study ostrich_box: arms outside the study are refused") {
  StudyOptions o;
  o.arms = {"mjx"};
  o.out_dir = (fs::temp_directory_path() / "contactlab_study_ostrich_box_bad").string();
  CHECK_THROWS_WITH_AS(run_study(find_study("ostrich_box"), o), doctest::Contains("no arm 'mjx'"),
                       std::invalid_argument);
}
