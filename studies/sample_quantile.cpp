#include "studies/sample_quantile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contactlab {

double quantile(std::vector<double> samples, double q) {
  samples.erase(std::remove_if(samples.begin(), samples.end(), [](double x) { return std::isnan(x); }),
                samples.end());
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(samples.begin(), samples.end());
  const double pos = q * static_cast<double>(samples.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, samples.size() - 1);
  return samples[lo] + (pos - static_cast<double>(lo)) * (samples[hi] - samples[lo]);
}

}  // namespace contactlab
