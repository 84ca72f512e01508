// `contactlab compare`: every chosen combination (scheme + contact + solver)
// at several time steps on one or more scenes, as a table, CSV files and
// gnuplot PNGs (docs/compare.md). The library part is scenes/comparison.hpp.
#pragma once

#include <string>
#include <vector>

#include "scenes/comparison.hpp"

namespace contactlab {

// `contactlab compare SCENE... [options]`; returns the exit status: 0 when the
// comparison ran (failed runs are results), 1 when it could not (output not
// writable), 2 for a bad command line.
int compare_cli(const std::vector<std::string>& args);

// `contactlab` without arguments: the validation scenes and wheeled_pallet,
// every valid combination, at each scene's timestep and twice it.
int compare_default_job();

// Writes DIR/plot_LABEL.gp and, when the `gnuplot` binary is on PATH, runs it
// to make DIR/error_vs_dt_LABEL.png and DIR/residual_vs_iteration_LABEL.png.
// Returns false (after a warning on stderr) when gnuplot is missing or fails.
bool plot_scene(const std::string& dir, const SceneComparison& scene, const std::string& file_label);
bool gnuplot_available();
// Runs `gnuplot SCRIPT` inside DIR. False when gnuplot is not on PATH, or
// (after a warning on stderr) when it fails.
bool run_gnuplot(const std::string& dir, const std::string& script);

}  // namespace contactlab
