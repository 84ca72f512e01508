#include "studies/performance_profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace contactlab {

PerformanceProfile performance_profile(const std::vector<std::vector<double>>& times) {
  const double inf = std::numeric_limits<double>::infinity();
  const size_t np = times.size(), ns = np ? times[0].size() : 0;
  std::vector<std::vector<double>> ratio(np, std::vector<double>(ns, inf));
  std::vector<double> taus{1.0};
  for (size_t p = 0; p < np; ++p) {
    if (times[p].size() != ns) throw std::invalid_argument("performance_profile: ragged time table");
    double best = inf;
    for (double t : times[p])
      if (std::isfinite(t) && t > 0) best = std::min(best, t);
    if (!std::isfinite(best)) continue;  // nobody solved it
    for (size_t s = 0; s < ns; ++s) {
      const double t = times[p][s];
      if (std::isfinite(t) && t > 0) {
        ratio[p][s] = t / best;
        taus.push_back(ratio[p][s]);
      }
    }
  }
  std::sort(taus.begin(), taus.end());
  taus.erase(std::unique(taus.begin(), taus.end()), taus.end());
  PerformanceProfile prof;
  prof.tau = taus;
  prof.fraction.assign(ns, std::vector<double>(taus.size(), 0.0));
  for (size_t s = 0; s < ns; ++s)
    for (size_t i = 0; i < taus.size(); ++i) {
      int count = 0;
      for (size_t p = 0; p < np; ++p) count += ratio[p][s] <= taus[i];
      prof.fraction[s][i] = np ? double(count) / double(np) : 0.0;
    }
  return prof;
}

}  // namespace contactlab
