// Elementary validations against analytic references (MATH.md E.2; Kamino's
// evaluation scenes). Each runs a built-in scene with the chosen parts and
// compares measured quantities with closed-form values. The tests assert the
// tolerances; `contactlab` (no arguments) prints the same table.
#pragma once

#include <string>
#include <vector>

#include "sim/simulation.hpp"

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

// The same validations with explicit tolerances and options, for combinations
// whose physics or solver call for other bounds than the foundation path's
// (docs/validation_matrix.md states and justifies them per combination). The
// defaults are the foundation path's tolerances (justified in validation.cpp
// next to each use and in docs/validation.md): the overloads above use them.
struct ValidationTolerances {
  // box_ramp
  double event_steps = 5;              // stick-slip and stop times, in steps h
  double distance_relative = 0.01;     // total sliding distance, of the reference
  // bouncing_ball
  double impact_steps = 2;             // impact k within k * impact_steps * h
  double apex_relative = 0.01;         // apex gaps, of the reference
  // stacked_boxes, m
  double ratio_independence = 1e-5;    // max |z_top - z_top(ratio 1)|
  double rest_height = 1e-5;
  double bottom_drift = 1e-5;
  // four_bar
  double loop_residual_400hz = 1e-3;   // m|rad at h = 2.5 ms, scaled by (h / 2.5 ms)^2
  double energy_rise_relative = 1e-12; // largest one-step rise of E, of |E(0)|
  // pendulum
  double period_relative = 1e-5;
  // every contact scene, m
  double penetration = 1e-3;
};

struct ValidationSetup {
  ValidationTolerances tolerances;
  // `--set KEY=VALUE` applied to every run of the validation (e.g.
  // "solver.max_iterations=5000"), before the validation's own settings.
  std::vector<std::string> options;
  // four_bar's energy run (on top of `options`): Baumgarte off, which the
  // velocity-level schemes need for a dissipative step; empty for schemes
  // without that option (backward_euler's rows are exact at q+).
  std::vector<std::string> energy_options = {"scheme.baumgarte=0"};
};

ValidationResult validate_box_ramp(const PartChoice& parts, double dt, const ValidationSetup& setup);
ValidationResult validate_bouncing_ball(const PartChoice& parts, double dt, const ValidationSetup& setup);
ValidationResult validate_stacked_boxes(const PartChoice& parts, double mass_ratio, double dt,
                                        const ValidationSetup& setup);
ValidationResult validate_four_bar(const PartChoice& parts, double dt, const ValidationSetup& setup);
ValidationResult validate_pendulum(const PartChoice& parts, double dt, const ValidationSetup& setup);

// Complete elliptic integral of the first kind K(k) by the arithmetic-geometric mean.
double elliptic_k(double k);

// Closed-form reference quantities of the validation scenes, one per scene, for
// comparisons that measure that quantity with any parts and step
// (studies/comparison.hpp, `contactlab compare`). Each reads the scene's
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
// incline_box: displacement of "box" down the incline (the plane's x axis): 0
// while mu >= tan(phi) (throws otherwise: the scene then is not a sticking test).
ScalarReference incline_box_displacement(const Model& model);
// incline_sphere: distance "ball" rolls down the incline in `duration` s from
// rest, (g sin(phi) / (1 + I/(m r^2))) T^2 / 2 (rolling without slip; throws
// when mu is below the rolling threshold).
ScalarReference incline_sphere_distance(const Model& model, double duration);
// sliding_box: total x displacement of "box" from its initial velocity v0 until
// friction stops it, v0^2 / (2 mu g).
ScalarReference sliding_box_distance(const Model& model, const Data& initial);
// Downhill unit vector of a scene's (first) plane: its x axis in world axes.
Vec3 incline_downhill(const Model& model);
// Period of the parallelogram: one compound pendulum in the crank angle
// (scenes/four_bar.xml header), I_eff = I_crank + I_rocker + m_coupler L^2.
ScalarReference four_bar_period(const Model& model, const Data& initial);

}  // namespace contactlab
