// The figures of study ostrich_box (studies/ostrich_box.cpp), with gnuplot:
// a script with its data inline, kept next to the PNGs so a user can restyle
// and rerun it (`cd DIR && gnuplot plot_ostrich_box.gp`).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "optimizers/iteration_log.hpp"

namespace contactlab {

// The chassis path of one rollout (the best iterate's), with its solver statistics.
struct PathRecord {
  std::vector<double> t, x, y, yaw;  // s, m, m, rad
  long unconverged = 0;              // steps whose solve ended unconverged
  double max_penetration = 0;        // m, over the steps
};

struct ArmCurves {
  std::string arm;
  std::vector<std::vector<IterationRecord>> histories;  // per trial
  std::vector<PathRecord> paths;                         // per trial
  std::vector<std::pair<double, double>> targets;        // per trial, (x, y)
  int successes = 0;
};

// Writes DIR/plot_ostrich_box.gp and, when gnuplot is on PATH, makes
// loss_curves.png (median and interquartile range of the running-best loss
// against the iteration, per arm), success.png (success rate per arm) and
// paths.png (the chassis paths of every trial of every arm over the box).
// Returns false when gnuplot is missing or fails (after a warning).
bool plot_ostrich_box(const std::string& dir, const std::vector<ArmCurves>& arms);

}  // namespace contactlab
