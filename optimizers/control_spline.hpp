// Control parameterisation: one uniform Catmull-Rom spline per actuator with
// K knots over the horizon, sampled at every step and clamped to the
// actuator's ctrlrange.
//
// Knot k of K >= 2 sits at step s_k = k (T - 1) / (K - 1), so the first knot
// is the control of step 0 and the last that of step T - 1. Between knots i
// and i + 1, with tau in [0, 1],
//   c(tau) = 1/2 [2 P_i + (P_{i+1} - P_{i-1}) tau
//                 + (2 P_{i-1} - 5 P_i + 4 P_{i+1} - P_{i+2}) tau^2
//                 + (3 P_i - P_{i-1} - 3 P_{i+1} + P_{i+2}) tau^3],
// with ghost knots P_{-1} = 2 P_0 - P_1 and P_K = 2 P_{K-1} - P_{K-2}
// (linear extrapolation: the spline reproduces a linear ramp exactly and
// interpolates every knot). K = 1 is a constant control.
//
// The map knots -> unclamped controls is linear, u_raw = W P, with W a
// (T x K) matrix of basis weights (four non-zeros per row). The clamp
// u = min(max(u_raw, lo), hi) has derivative 1 inside [lo, hi] and 0
// outside it (a control pinned at its bound does not move with the knots;
// at a bound exactly the derivative is taken as 1, the one-sided value
// from inside). So dL/dP = W^T (m .* dL/du) with m the 0/1 mask.
#pragma once

#include <string>
#include <vector>

#include "core/math.hpp"
#include "core/model.hpp"

namespace contactlab {

class ControlSpline {
 public:
  // `actuators`: names (empty: every actuator of the model, in model order);
  // `knots` >= 1 per actuator; `steps` >= 1 controls per actuator. Throws
  // std::invalid_argument naming the bad argument.
  ControlSpline(const Model& model, const std::vector<std::string>& actuators, int knots, long steps);

  int num_actuators() const { return static_cast<int>(actuators_.size()); }
  int num_knots() const { return knots_; }
  long steps() const { return steps_; }
  // Parameters, actuator-major: [actuator 0 knots 0..K-1, actuator 1 ...].
  int num_parameters() const { return num_actuators() * knots_; }
  const std::vector<int>& actuators() const { return actuators_; }  // model indices
  const MatX& basis() const { return weights_; }                   // W, (steps x knots)

  // Per-step controls u (steps x actuators), clamped.
  void controls(const VecX& knots, MatX& u) const;
  // dL/dknots from dL/du (steps x actuators): the chain rule through the
  // spline and the clamp (zero where the raw control is outside ctrlrange).
  void pull_back(const VecX& knots, const MatX& u_bar, VecX& knots_bar) const;
  // The dense Jacobian d vec(u) / d knots, ((steps * actuators) x parameters),
  // vec(u) row-major (step-major), for checks and small problems.
  MatX jacobian(const VecX& knots) const;
  // Knot values whose spline is the constant `value` (clamped to the range).
  VecX constant(Real value) const;

 private:
  void check_size(const VecX& knots, const char* what) const;
  std::vector<int> actuators_;
  std::vector<Real> lo_, hi_;  // ctrlrange, or -/+ infinity when not limited
  int knots_ = 1;
  long steps_ = 1;
  MatX weights_;  // (steps x knots)
};

}  // namespace contactlab
