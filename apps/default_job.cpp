// `contactlab` with no arguments: the validation scenes with a closed-form
// reference, every valid combination (and MuJoCo when built) at each scene's
// own time step. On stdout a short table: one row per scene, one column per
// representative combination, each cell the error relative to the closed form
// and PASS/FAIL against the stated tolerance, then the flagged runs and where
// the full tables, CSV and plots went (docs/compare.md, "The default job").
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "apps/compare_command.hpp"
#include "peers/mujoco_peer.hpp"

namespace contactlab {

namespace {

const char* const kOutDir = "contactlab_default";
constexpr double kRelativeTolerance = 0.01;  // of the closed form (docs/compare.md justifies it)
constexpr double kAbsoluteTolerance = 1e-3;  // m, where the closed form is a rest height or 0
constexpr size_t kMaxFlagLines = 8;

struct Column {
  const char* label;  // in the table
  const char* combo;  // scheme+contact+solver, or "mujoco" for the peer
};

// One combination per method the project implements, and the peer.
const Column kColumns[] = {
    {"kamino", "velocity+desaxce+padmm"},          {"pgs", "velocity+desaxce+pgs"},
    {"ostrich", "backward_euler+fischer_burmeister+newton"}, {"moreau", "moreau+desaxce+padmm"},
    {"cqdc", "velocity+ccp+convex_newton"},        {"mujoco", "mujoco"},
};

// Scenes whose closed form is a rest height or zero get an absolute bound.
double tolerance_of(const SceneComparison& sc) {
  const double ref = std::abs(sc.reference.analytic.value);
  return sc.label == "stacked_boxes" || sc.label == "incline_box" ? kAbsoluteTolerance : kRelativeTolerance * ref;
}

const ComparisonRun* find_run(const SceneComparison& sc, const Column& col) {
  for (const ComparisonRun& r : sc.runs) {
    const bool peer = r.combo.rfind("mujoco", 0) == 0;
    if (std::string(col.combo) == "mujoco" ? peer : r.combo == col.combo) return &r;
  }
  return nullptr;
}

struct Counts {
  int pass = 0, fail = 0, failed_runs = 0;
};

// "0.25% PASS", "4.7% FAIL", "failed", "-" (combination not run); '*' marks a flagged run.
std::string cell(const SceneComparison& sc, const ComparisonRun* r, Counts& n) {
  if (!r) return "-";
  if (!r->ok) return ++n.failed_runs, "failed";
  const double tol = tolerance_of(sc);
  const bool pass = std::isfinite(r->error) && r->error <= tol;
  (pass ? n.pass : n.fail)++;
  char buf[48];
  const double ref = std::abs(sc.reference.analytic.value);
  if (tol == kAbsoluteTolerance || ref == 0)
    std::snprintf(buf, sizeof buf, "%.1e m %s%s", r->error, pass ? "PASS" : "FAIL", r->flags.empty() ? "" : "*");
  else  // two significant digits; whole percent from 100 % on (no 1e+02)
    std::snprintf(buf, sizeof buf, r->error >= ref ? "%.0f%% %s%s" : "%.2g%% %s%s", 100 * r->error / ref,
                  pass ? "PASS" : "FAIL", r->flags.empty() ? "" : "*");
  return buf;
}

void print_table(const std::vector<SceneComparison>& results, size_t combos, bool peer, double seconds) {
  std::printf("contactlab: %zu validation scenes x %zu valid combinations%s, each at the scene's own time step "
              "(%.0f s)\n",
              results.size(), combos, peer ? " + MuJoCo" : "", seconds);
  std::printf("cell: |measured - closed form| / closed form; PASS within 1%% (stacked_boxes: 1 mm); "
              "* flagged run (below)\n\n");
  std::printf("%-15s %-40s", "scene", "quantity = closed form");
  for (const Column& c : kColumns)
    if (peer || std::string(c.combo) != "mujoco") std::printf(" %-14s", c.label);
  std::printf("\n");
  Counts n;
  std::vector<std::string> flagged;
  for (const SceneComparison& sc : results) {
    if (sc.reference.kind != ErrorKind::Analytic) continue;
    char value[40];
    std::snprintf(value, sizeof value, " = %.4g %s", sc.reference.analytic.value, sc.reference.analytic.unit.c_str());
    std::string name = sc.reference.analytic.quantity;
    const size_t room = 40 - std::string(value).size();
    if (name.size() > room) name = name.substr(0, room - 2) + "..";  // the value stays whole
    std::printf("%-15s %-40s", sc.label.c_str(), (name + value).c_str());
    for (const Column& c : kColumns) {
      if (!peer && std::string(c.combo) == "mujoco") continue;
      const ComparisonRun* r = find_run(sc, c);
      std::printf(" %-14s", cell(sc, r, n).c_str());
      if (r && r->ok && !r->flags.empty()) flagged.push_back(sc.label + " / " + c.label + ": " + r->flags);
      if (r && !r->ok) flagged.push_back(sc.label + " / " + c.label + ": failed: " + r->message);
    }
    std::printf("\n");
  }
  std::printf("\n");
  int shown = 0;
  for (const Column& c : kColumns)
    if (std::string(c.combo) != "mujoco") std::printf("%s = %s;%s", c.label, c.combo, ++shown % 3 ? " " : "\n");
  std::printf("%s\n", peer ? "mujoco = MuJoCo on the same MJCF file" : "(MuJoCo not built)");
  if (!flagged.empty()) std::printf("\nflagged (%zu):\n", flagged.size());
  for (size_t i = 0; i < flagged.size() && i < kMaxFlagLines; ++i) {
    std::string line = flagged[i];
    if (line.size() > 150) line = line.substr(0, 147) + "...";
    std::printf("  %s\n", line.c_str());
  }
  if (flagged.size() > kMaxFlagLines) std::printf("  ... %zu more in %s/runs.csv\n", flagged.size() - kMaxFlagLines, kOutDir);
  std::printf("\n%d PASS, %d FAIL, %d failed runs in this table; every valid combination's table: %s/tables.txt,\n"
              "runs.csv and plots in %s/; per-dt sweeps: contactlab compare SCENE (docs/compare.md)\n",
              n.pass, n.fail, n.failed_runs, kOutDir, kOutDir);
}

}  // namespace

int default_job() {
  try {
    CompareJob job;
    job.scenes = {"box_ramp", "bouncing_ball", "stacked_boxes", "pendulum", "four_bar", "incline_sphere", "sliding_box"};
    job.settings.combos = valid_combos();
    job.settings.dt_factors = {1};
    job.settings.peer_mujoco = MujocoPeer::built();
    job.out_dir = kOutDir;
    job.tables_to_file = true;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<SceneComparison> results;
    const int status = run_compare_job(job, &results);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    print_table(results, job.settings.combos.size(), job.settings.peer_mujoco, seconds);
    if (status == kNoPlots) std::printf("(no plots: gnuplot is not installed)\n");
    return status == kNoPlots ? 0 : status;
  } catch (const std::exception& e) {
    std::cerr << "contactlab: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace contactlab
