// Gradient checks shared by test files: a rollout's analytic gradient against
// central differences of the same runs (sim/gradcheck.hpp).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/gradcheck.hpp"
#include "sim/rollout.hpp"

namespace contactlab {
namespace test {

// Every entry of d(loss)/d(wrt) within `tolerance` relative of its central
// difference at `eps`, and each larger than `at_least` in magnitude (a guard
// that every input matters).
inline void check_rollout_gradient(const RolloutSpec& spec, const std::string& loss, const std::string& wrt, Real eps,
                                   Real tolerance, Real at_least) {
  const GradientResult analytic = rollout_gradient(spec, loss, wrt, {});
  PreparedRollout r = prepare_rollout(spec);
  const auto inputs = parse_grad_inputs(wrt, r.sim.model());
  const std::vector<Real> fd = finite_difference_gradient(spec, loss, inputs, eps);
  for (size_t i = 0; i < inputs.size(); ++i) {
    CAPTURE(inputs[i].text);
    CAPTURE(analytic.gradient[i]);
    CAPTURE(fd[i]);
    CHECK(std::abs(fd[i]) > at_least);
    CHECK(std::abs(analytic.gradient[i] - fd[i]) <=
          tolerance * std::max(std::abs(analytic.gradient[i]), std::abs(fd[i])));
  }
}

}  // namespace test
}  // namespace contactlab
