// contactlab solve PROBLEM: one standalone frictional-contact problem (Siconos
// .dat or FCLib .hdf5) with one of our solvers; and contactlab bench-problems:
// every solver on every problem of some directories, with Siconos as a peer.
#pragma once

#include <string>
#include <vector>

namespace contactlab {

int solve_cli(const std::vector<std::string>& args);
int bench_problems_cli(const std::vector<std::string>& args);

}  // namespace contactlab
