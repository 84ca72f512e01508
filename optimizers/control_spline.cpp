#include "optimizers/control_spline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace contactlab {

namespace {

int actuator_index(const Model& model, const std::string& name) {
  for (size_t a = 0; a < model.actuators.size(); ++a)
    if (model.actuators[a].name == name) return static_cast<int>(a);
  return -1;
}

}  // namespace

ControlSpline::ControlSpline(const Model& model, const std::vector<std::string>& actuators, int knots, long steps)
    : knots_(knots), steps_(steps) {
  if (knots < 1) throw std::invalid_argument("ControlSpline: knots must be >= 1 (got " + std::to_string(knots) + ")");
  if (steps < 1) throw std::invalid_argument("ControlSpline: steps must be >= 1 (got " + std::to_string(steps) + ")");
  if (knots > steps)
    throw std::invalid_argument("ControlSpline: " + std::to_string(knots) + " knots over " + std::to_string(steps) +
                                " steps (at most one knot per step)");
  if (actuators.empty()) {
    for (size_t a = 0; a < model.actuators.size(); ++a) actuators_.push_back(static_cast<int>(a));
  } else {
    for (const std::string& name : actuators) {
      const int a = actuator_index(model, name);
      if (a < 0) throw std::invalid_argument("ControlSpline: unknown actuator '" + name + "'");
      if (std::find(actuators_.begin(), actuators_.end(), a) != actuators_.end())
        throw std::invalid_argument("ControlSpline: actuator '" + name + "' given twice");
      actuators_.push_back(a);
    }
  }
  if (actuators_.empty()) throw std::invalid_argument("ControlSpline: the model has no actuator");
  const Real inf = std::numeric_limits<Real>::infinity();
  for (int a : actuators_) {
    const Actuator& act = model.actuators[a];
    lo_.push_back(act.ctrl_limited ? act.ctrl_lo : -inf);
    hi_.push_back(act.ctrl_limited ? act.ctrl_hi : inf);
  }

  // Basis weights: Catmull-Rom on the four knots around each step, the
  // ghost knots folded into their real neighbours.
  weights_ = MatX::Zero(steps_, knots_);
  if (knots_ == 1) {
    weights_.setOnes();
    return;
  }
  for (long t = 0; t < steps_; ++t) {
    const Real s = steps_ == 1 ? 0 : Real(t) * Real(knots_ - 1) / Real(steps_ - 1);
    const int i = std::min(static_cast<int>(std::floor(s)), knots_ - 2);
    const Real tau = s - i, t2 = tau * tau, t3 = t2 * tau;
    const Real w[4] = {0.5 * (-tau + 2 * t2 - t3), 0.5 * (2 - 5 * t2 + 3 * t3), 0.5 * (tau + 4 * t2 - 3 * t3),
                       0.5 * (-t2 + t3)};
    for (int j = 0; j < 4; ++j) {
      const int k = i - 1 + j;
      if (k < 0) {  // P_{-1} = 2 P_0 - P_1
        weights_(t, 0) += 2 * w[j];
        weights_(t, 1) -= w[j];
      } else if (k >= knots_) {  // P_K = 2 P_{K-1} - P_{K-2}
        weights_(t, knots_ - 1) += 2 * w[j];
        weights_(t, knots_ - 2) -= w[j];
      } else {
        weights_(t, k) += w[j];
      }
    }
  }
}

void ControlSpline::check_size(const VecX& knots, const char* what) const {
  if (knots.size() != num_parameters())
    throw std::invalid_argument(std::string("ControlSpline::") + what + ": " + std::to_string(knots.size()) +
                                " knot values, expected " + std::to_string(num_parameters()));
}

void ControlSpline::controls(const VecX& knots, MatX& u) const {
  check_size(knots, "controls");
  u.resize(steps_, num_actuators());
  for (int a = 0; a < num_actuators(); ++a) {
    u.col(a) = weights_ * knots.segment(a * knots_, knots_);
    for (long t = 0; t < steps_; ++t) u(t, a) = std::min(std::max(u(t, a), lo_[a]), hi_[a]);
  }
}

void ControlSpline::pull_back(const VecX& knots, const MatX& u_bar, VecX& knots_bar) const {
  check_size(knots, "pull_back");
  if (u_bar.rows() != steps_ || u_bar.cols() != num_actuators())
    throw std::invalid_argument("ControlSpline::pull_back: dL/du must be (steps x actuators)");
  knots_bar = VecX::Zero(num_parameters());
  VecX masked(steps_);
  for (int a = 0; a < num_actuators(); ++a) {
    const VecX raw = weights_ * knots.segment(a * knots_, knots_);
    for (long t = 0; t < steps_; ++t) masked[t] = (raw[t] < lo_[a] || raw[t] > hi_[a]) ? 0 : u_bar(t, a);
    knots_bar.segment(a * knots_, knots_) = weights_.transpose() * masked;
  }
}

MatX ControlSpline::jacobian(const VecX& knots) const {
  check_size(knots, "jacobian");
  const int na = num_actuators();
  MatX jac = MatX::Zero(steps_ * na, num_parameters());
  for (int a = 0; a < na; ++a) {
    const VecX raw = weights_ * knots.segment(a * knots_, knots_);
    for (long t = 0; t < steps_; ++t)
      if (raw[t] >= lo_[a] && raw[t] <= hi_[a]) jac.block(t * na + a, a * knots_, 1, knots_) = weights_.row(t);
  }
  return jac;
}

VecX ControlSpline::constant(Real value) const {
  VecX knots(num_parameters());
  for (int a = 0; a < num_actuators(); ++a)
    knots.segment(a * knots_, knots_).setConstant(std::min(std::max(value, lo_[a]), hi_[a]));
  return knots;
}

}  // namespace contactlab
