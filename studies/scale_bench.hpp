// The cost-against-contacts benchmark (contactlab bench-scale): one pile file
// stepped by one combination, or by a peer engine, with the steps alone timed,
// under a per-run wall-clock limit that ends the run (status time_limit, the
// steps it reached) without ending the benchmark. docs/benchmarks.md
// "Cost against contacts: piles (bench-scale)"; docs/cli.md for the files.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "studies/comparison.hpp"

namespace contactlab {

struct ScaleRun {
  std::string shape;
  int bodies = 0;
  std::string combo;       // scheme+contact+solver, or "mujoco"
  long steps = 0;          // steps taken (fewer than asked when stopped)
  long steps_asked = 0;
  // ok | time_limit (stopped by the per-run limit) | diverged (the state
  // turned non-finite; the steps before count) | error (could not start) |
  // contacts_full (the peer's preallocated contact list was full: set by the caller)
  std::string status;
  double mean_contacts = std::numeric_limits<double>::quiet_NaN();
  double wall_per_step_s = std::numeric_limits<double>::quiet_NaN();  // steps only, not setup
  double ratio_to_mujoco = std::numeric_limits<double>::quiet_NaN();  // wall_per_step / MuJoCo's, same file
  long steps_not_converged = 0;
  double max_r_vi = 0;          // NaN for a peer (its residuals do not apply)
  double max_penetration = 0;   // m
  int max_contacts = 0;         // in one step
  std::string message;          // why it diverged or could not start
};

// Steps `model` (read from `path`) with `combo` for `steps` steps of `dt`.
// time_limit > 0: stop after the step that crosses it (seconds of stepping).
// sets: `--set` KEY=VALUE options for every run (e.g. solver.islands=false).
ScaleRun run_scale_combo(const Model& model, const Combo& combo, double dt, long steps, double time_limit,
                         const std::vector<std::string>& sets = {});
// The same with the registered peer engine `peer` (sim/peer_engine.hpp) on the file at `path`.
ScaleRun run_scale_peer(const std::string& peer, const std::string& path, const Model& model, double dt, long steps,
                        double time_limit);

// exponents.csv's rows: per shape and combination, the slope of
// log(wall_per_step_s) against log(mean_contacts) over the runs with
// bodies >= min_bodies that finished (status ok).
struct ScaleExponent {
  std::string shape, combo;
  double exponent = std::numeric_limits<double>::quiet_NaN();
  int points = 0;
};
std::vector<ScaleExponent> scale_exponents(const std::vector<ScaleRun>& runs, int min_bodies = 16);

// DIR/scale.gp: log-log time per step against mean contacts, one panel per
// shape, one curve per combination plus the peer; data inline. Returns the
// script's file name ("scale.gp"); run it with run_gnuplot (studies/comparison_plot.hpp).
std::string write_scale_plot(const std::string& dir, const std::vector<ScaleRun>& runs,
                             const std::vector<std::string>& shapes, const std::vector<std::string>& combos);

}  // namespace contactlab
