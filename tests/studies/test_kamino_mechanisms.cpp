// Study kamino_mechanisms (studies/kamino_mechanisms.hpp): the short scale
// as a smoke test whose numbers the physics bounds (its quantiles:
// tests/studies/test_sample_quantile.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "sim/peer_engine.hpp"
#include "studies/comparison_plot.hpp"
#include "studies/kamino_mechanisms.hpp"

using namespace contactlab;
namespace fs = std::filesystem;

TEST_CASE("kamino_mechanisms: the short scale's loop residuals, cone projections and MuJoCo rows") {
  const fs::path dir = fs::temp_directory_path() / "contactlab_study_kamino_mechanisms";
  fs::remove_all(dir);
  StudyOptions options;
  options.out_dir = dir.string();
  const StudySummary summary = run_study(kamino_mechanisms_study(), options);
  std::map<std::string, double> row;  // "task/arm/metric"
  for (const SummaryRow& r : summary.rows()) row[r.task + "/" + r.arm + "/" + r.metric] = r.value;
  auto value = [&](const std::string& key) {
    INFO(key);
    REQUIRE(row.count(key) == 1);
    return row.at(key);
  };
  {
    std::ifstream in(dir / "summary.csv");
    std::string header;
    std::getline(in, header);
    CHECK(header == "study,task,arm,metric,value");
  }

  // Four-bar at h = 1 ms, Baumgarte alpha = 0.1, released from rest. Each
  // step integrates the bars' poses exactly to first order, so a hinge point
  // on a bar turning at w with lever r drifts by at most h^2 w^2 r / 2 off
  // its linearised row; Baumgarte removes a fraction alpha of the error per
  // step, so from a closed start r_J <= h^2 w^2 r / (2 alpha) plus the
  // solver's row residual times h / alpha (< 1e-9 m here). Energy bounds w:
  // the crank falls from 45 degrees to straight down, releasing
  // (2 m_crank 0.2 + m_coupler 0.4) g (1 - sin 45) = 1.521 J into I_eff =
  // 0.185289 kg m^2 (scenes/four_bar.xml), w <= 4.05 rad/s; r = 0.2 m (bar
  // centre to tip). Bound 1.7e-5 m for every arm of ours.
  const double h = 0.001, alpha = 0.1, w = 4.05, lever = 0.2;
  const double bound = h * h * w * w * lever / (2 * alpha) + 1e-9;
  for (const char* arm : {"padmm", "newton", "pgs"}) {
    CAPTURE(arm);
    CHECK(value(std::string("four_bar/") + arm + "/r_J_p90") <= bound);
    CHECK(value(std::string("four_bar/") + arm + "/r_J_median") <= bound);
    // J u+ = -bias + the solver's row residual, the bias being alpha / h times
    // the position error: r_kin <= (alpha / h) bound + 1e-6 m/s.
    CHECK(value(std::string("four_bar/") + arm + "/r_kin_p90") <= alpha / h * bound + 1e-6);
    // No contacts on the passive linkages: their contact rows are absent.
    CHECK(row.count(std::string("four_bar/") + arm + "/r_C_median") == 0);
    CHECK(row.count(std::string("scissor_linkage/") + arm + "/r_primal_p90") == 0);
    // Kamino's pass for loop mechanisms (STUDIES.md 4.8): violation below 1e-3 m.
    CHECK(value(std::string("scissor_linkage/") + arm + "/r_J_p90") <= 1e-3);
    CHECK(value(std::string("parallelogram_leg/") + arm + "/r_J_p90") <= 1e-3);
  }
  // PADMM's and PGS's impulses are cone projections: r_primal is zero up to
  // the rounding of the projection (1e-15 N s on impulses below 1 N s).
  for (const char* arm : {"padmm", "pgs"}) {
    CAPTURE(arm);
    CHECK(value(std::string("parallelogram_leg/") + arm + "/r_primal_p90") <= 1e-15);
  }
  // The short scale's rollouts all finish (a divergence would be a result
  // of the full scale, reported as diverged_trials).
  for (const char* task : {"four_bar", "parallelogram_leg", "scissor_linkage"})
    for (const char* arm : {"padmm", "newton", "pgs"}) {
      CAPTURE(task);
      CAPTURE(arm);
      CHECK(value(std::string(task) + "/" + arm + "/diverged_trials") == 0);
    }
  // Every contact metric of our arms is present and finite on the leg.
  for (const char* arm : {"padmm", "newton", "pgs"})
    for (const char* m : mechanism_metric_names()) {
      CAPTURE(arm);
      CHECK(std::isfinite(value(std::string("parallelogram_leg/") + arm + "/" + m + "_median")));
    }

  if (has_peer_engine("mujoco")) {
    // MuJoCo's loop is a soft equality constraint: its residual is its own
    // (bounded by Kamino's 4.8 target), and no impulse-based row is written.
    CHECK(value("four_bar/mujoco/r_J_p90") <= 1e-3);
    CHECK(value("parallelogram_leg/mujoco/r_C_p90") >= 0);
    CHECK(row.count("parallelogram_leg/mujoco/r_primal_median") == 0);
    CHECK(row.count("parallelogram_leg/mujoco/r_vi_p90") == 0);
  } else {
    MESSAGE("kamino_mechanisms: MuJoCo peer not built; its rows are not checked");
    CHECK(row.count("four_bar/mujoco/r_J_p90") == 0);
  }
  CHECK(fs::exists(dir / "kamino_mechanisms_table.md"));
  CHECK(fs::exists(dir / "series_parallelogram_leg_padmm.csv"));
  if (gnuplot_available()) CHECK(fs::exists(dir / "four_bar.png"));
  fs::remove_all(dir);
}
