// The studies' shared quantile (studies/sample_quantile.hpp): linear
// interpolation between order statistics, NaN samples left out.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "studies/sample_quantile.hpp"

using namespace contactlab;

TEST_CASE("study quantiles interpolate linearly between sorted samples") {
  const std::vector<double> v = {4, 1, 3, 2};
  CHECK(quantile(v, 0.5) == doctest::Approx(2.5));
  CHECK(quantile(v, 0.9) == doctest::Approx(3.7));  // position 0.9 * 3 = 2.7: 3 + 0.7 (4 - 3)
  CHECK(quantile(v, 0) == 1);
  CHECK(quantile(v, 1) == 4);
  CHECK(quantile({7}, 0.25) == 7);
  CHECK(std::isnan(quantile({}, 0.5)));
}

TEST_CASE("study quantiles leave NaN samples out") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(quantile({nan, 4, 1, nan, 3, 2}, 0.5) == doctest::Approx(2.5));
  CHECK(std::isnan(quantile({nan, nan}, 0.5)));
}
