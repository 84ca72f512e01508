// Plots of a comparison (`contactlab compare`) and of the problem benchmark,
// with gnuplot: a script per figure with its data inline, kept next to the
// PNGs so a user can restyle and rerun it.
#pragma once

#include <string>

#include "studies/comparison.hpp"

namespace contactlab {

// Writes DIR/plot_LABEL.gp and, when the `gnuplot` binary is on PATH, runs it
// to make DIR/error_vs_dt_LABEL.png and DIR/residual_vs_iteration_LABEL.png.
// Returns false (after a warning on stderr) when gnuplot is missing or fails.
bool plot_scene(const std::string& dir, const SceneComparison& scene, const std::string& file_label);
bool gnuplot_available();
// Runs `gnuplot SCRIPT` inside DIR. False when gnuplot is not on PATH, or
// (after a warning on stderr) when it fails.
bool run_gnuplot(const std::string& dir, const std::string& script);

}  // namespace contactlab
