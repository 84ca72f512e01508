// Dolan & More (2002) performance profiles: for solver s, rho_s(tau) is the
// fraction of problems it solves within a factor tau of the fastest solver on
// that problem. Problems no solver solves stay in the denominator.
#pragma once

#include <string>
#include <vector>

namespace contactlab {

struct PerformanceProfile {
  std::vector<double> tau;                    // breakpoints, ascending, tau[0] = 1
  std::vector<std::vector<double>> fraction;  // [solver][i] = rho_s(tau[i])
};

// times[p][s]: cost of solver s on problem p (> 0), +inf (or NaN) where it
// failed. Every row must have the same number of solvers.
PerformanceProfile performance_profile(const std::vector<std::vector<double>>& times);

}  // namespace contactlab
