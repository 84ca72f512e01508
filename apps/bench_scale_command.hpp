// `contactlab bench-scale`: the cost of a step against the number of contacts,
// on generated piles (studies/piles.hpp) of boxes, capsules and spheres, for
// each chosen combination and MuJoCo on the same files (docs/cli.md,
// docs/benchmarks.md "Cost against contacts: piles (bench-scale)").
#pragma once

#include <string>
#include <vector>

namespace contactlab {

// Returns 0 when the benchmark ran (runs stopped by the per-run time limit or
// diverged are results), 1 when a value is outside its rule or an output
// cannot be written, 2 for a command line that does not parse.
int bench_scale_cli(const std::vector<std::string>& args);

}  // namespace contactlab
