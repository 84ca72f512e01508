// The quantile the studies report (medians, quartiles, 90th percentiles of
// per-trial or per-step samples), one definition so that every table and
// plot reads its samples the same way.
#pragma once

#include <vector>

namespace contactlab {

// Linear interpolation between order statistics: position q (n - 1) in the
// sorted samples, q in [0, 1]. NaN samples (a trial with nothing to report)
// are left out; NaN when none remains.
double quantile(std::vector<double> samples, double q);

}  // namespace contactlab
