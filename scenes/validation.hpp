// Elementary validations against analytic references (MATH.md E.2; Kamino's
// evaluation scenes). Each runs a built-in scene with the chosen parts and
// compares measured quantities with closed-form values. The tests assert the
// tolerances; `contactlab` (no arguments) prints the same table.
#pragma once

#include <string>
#include <vector>

#include "core/simulation.hpp"

namespace contactlab {

struct ValidationQuantity {
  std::string name;       // what is compared
  double measured = 0;
  double reference = 0;   // analytic value (or the bound for bounds)
  double error = 0;       // |measured - reference|, or the measured value for bounds
  double tolerance = 0;   // pass when error <= tolerance
  std::string unit;
  bool pass() const { return error <= tolerance; }
};

struct ValidationResult {
  std::string name;       // e.g. "box_ramp", "stacked_boxes (top/bottom = 100)"
  double dt = 0;
  long steps = 0;
  double wall_time_per_step = 0;  // s
  double mean_iterations = 0;
  int max_iterations = 0;
  std::vector<ValidationQuantity> quantities;
  bool pass() const;
};

ValidationResult validate_box_ramp(const PartChoice& parts, double dt = 1e-3);
ValidationResult validate_bouncing_ball(const PartChoice& parts, double dt = 1e-3);
// mass_ratio = m_top / m_bottom (the other box keeps 1 kg).
ValidationResult validate_stacked_boxes(const PartChoice& parts, double mass_ratio, double dt = 1e-3);
ValidationResult validate_four_bar(const PartChoice& parts, double dt);
ValidationResult validate_pendulum(const PartChoice& parts, double dt = 1e-3);

// Every validation of the foundation issue, in a fixed order.
std::vector<ValidationResult> validation_suite(const PartChoice& parts);

// Complete elliptic integral of the first kind K(k) by the arithmetic-geometric mean.
double elliptic_k(double k);

// Closed-form reference quantities of the validation scenes, one per scene, for
// comparisons that measure that quantity with any parts and step
// (scenes/comparison.hpp, `contactlab compare`). Each reads the scene's
// parameters from `model` and its initial state `initial` (the Data after
// Simulation::reset) and throws if an expected body or joint is missing.
struct ScalarReference {
  std::string quantity;       // what is measured, e.g. "total sliding distance"
  double value = 0;           // analytic value
  std::string unit;
  double settled_time = 0;    // s: simulated time after which the quantity is determined
};
// Total x displacement of "box" once it has stopped (MATH.md E.2, general beta).
ScalarReference box_ramp_sliding_distance(const Model& model);
// Apex gap (lowest point to floor) between the first and second impacts: e^2 g0.
ScalarReference bouncing_ball_first_apex(const Model& model, const Data& initial);
// Rest height of the centre of "top" on "bottom".
ScalarReference stacked_boxes_rest_height(const Model& model, const Data& initial);
// Period of the hinge "pole" (exact, elliptic integral).
ScalarReference pendulum_period(const Model& model, const Data& initial);
// Period of the parallelogram: one compound pendulum in the crank angle
// (scenes/four_bar.xml header), I_eff = I_crank + I_rocker + m_coupler L^2.
ScalarReference four_bar_period(const Model& model, const Data& initial);

}  // namespace contactlab
