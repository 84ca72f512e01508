// `contactlab compare`: every chosen combination (scheme + contact + solver)
// at several time steps on one or more scenes, as a table, CSV files and
// gnuplot PNGs (docs/compare.md). The library part is studies/comparison.hpp.
#pragma once

#include <string>
#include <vector>

#include "studies/comparison.hpp"
#include "studies/comparison_plot.hpp"

namespace contactlab {

// `contactlab compare SCENE... [options]`; returns the exit status: 0 when the
// comparison ran (failed runs are results), 1 when it could not (output not
// writable), 2 for a bad command line, 3 when --time-limit ran out (no files).
int compare_cli(const std::vector<std::string>& args);

// `contactlab` without arguments: the validation scenes and wheeled_pallet,
// every valid combination, at each scene's timestep and twice it.
int compare_default_job();

}  // namespace contactlab
