// `contactlab compare`: every chosen combination (scheme + contact + solver)
// at several time steps on one or more scenes, as a table, CSV files and
// gnuplot PNGs (docs/compare.md). The library part is studies/comparison.hpp.
#pragma once

#include <string>
#include <vector>

#include "studies/comparison.hpp"
#include "studies/comparison_plot.hpp"

namespace contactlab {

struct CompareJob {
  std::vector<std::string> scenes;
  CompareSettings settings;
  std::string out_dir;
  double time_limit = 0;  // --time-limit, s; 0: none
  // The default job: the tables go to out_dir/tables.txt (with the other
  // files), not stdout, and no "wrote" line is printed.
  bool tables_to_file = false;
};

// run_compare_job's status when the files are written but gnuplot made no plot.
constexpr int kNoPlots = -1;

// Runs every scene, printing each one's table as it completes, then writes
// the files into out_dir (when given): all CSV files are committed together
// (none is left when one fails). --time-limit is checked after each run: when
// it has run out the job stops there, writes nothing and returns
// kTimeLimitExit. Returns the exit status (or kNoPlots) and, if asked, every
// scene's results; throws for errors.
int run_compare_job(const CompareJob& job, std::vector<SceneComparison>* results = nullptr);

// `contactlab compare SCENE... [options]`; returns the exit status: 0 when the
// comparison ran (failed runs are results), 1 when it could not (output not
// writable), 2 for a bad command line, 3 when --time-limit ran out (no files).
int compare_cli(const std::vector<std::string>& args);

// `contactlab` without arguments (apps/default_job.cpp): the analytic
// validation scenes, every valid combination (and MuJoCo when built) at each
// scene's timestep; a short PASS/FAIL table of representative combinations on
// stdout, the full tables, CSV and plots in a directory.
int default_job();

}  // namespace contactlab
