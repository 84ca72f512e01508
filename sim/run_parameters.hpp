// The rules for run parameters, written once: the time step, duration and
// step count of a run, control values and control-table step numbers,
// tolerances, finite-difference steps and the steps of gradient inputs.
// Every command that takes them (run, grad, gradcheck, compare, solve,
// bench-problems) and the library entry points (prepare_rollout,
// finite_difference_gradient, Rollout::gradient) call these functions, and
// the Python module will too: no Boost, no printing; a refusal throws
// std::invalid_argument whose message starts with the flag and the value as
// given ("--dt 0: ..."). The magnitudes shared with the model (time step,
// duration, control) come from core/model_limits.hpp; docs/reliability.md
// lists every bound and why.
#pragma once

#include <string>
#include <vector>

#include "core/grad_input.hpp"
#include "core/model_limits.hpp"

namespace contactlab {

namespace limits {
// The most steps one run may take: 1e9 steps at 1 us each is 17 minutes of
// wall time, at a typical 20 us, 5.6 hours; beyond, the value is a typo or a
// duration/dt mismatch (1e308 s). Step numbers stay exact in a double (2^53).
inline constexpr long kMaxSteps = 1000000000L;
// Finite-difference step of gradcheck, in the input's units: a central
// difference over more than one unit of an input (m, m/s, N, kg) no longer
// estimates a derivative.
inline constexpr Range kFiniteDifferenceStep{0, 1.0, true, ""};
}  // namespace limits

// "FLAG VALUE: must be ...": the message every refusal below starts with.
std::string parameter_error(const std::string& flag, const std::string& value, const std::string& why);

// Time step, s: finite, in limits::kTimeStep. Returns dt.
double check_time_step(double dt, const std::string& flag = "--dt");
// Simulated time, s: finite, in limits::kDuration (0 allowed: no step, the initial state only).
double check_duration(double duration, const std::string& flag = "--duration");
// A positive duration (compare: a run of zero time has no error to measure).
double check_positive_duration(double duration, const std::string& flag = "--duration");
// Step count: 0 <= steps <= limits::kMaxSteps.
long check_steps(long steps, const std::string& flag = "--steps");
// round(duration / dt), refused when above limits::kMaxSteps; `what` names
// where the duration came from ("--duration 1e308" or "the scene's contactlab.duration").
long steps_for_duration(double duration, double dt, const std::string& what);
// A control value (N, N m, m, rad or m/s): finite, in limits::kControl;
// `what` names it ("--ctrl push=1e308", "FILE:3: column 2").
double check_control(double value, const std::string& what);
// A step number as written in a control table: a non-negative decimal
// integer (no sign, fraction or exponent) below limits::kMaxSteps.
long parse_step_number(const std::string& text, const std::string& what);
// A tolerance (gradcheck --tol, solve --tol, bench-problems --tol): finite and > 0.
double check_tolerance(double tol, const std::string& flag = "--tol");
// A wall-clock budget, s (run/compare/solve --time-limit, bench-problems'
// per-solve --time-limit): finite and > 0.
double check_time_limit(double seconds, const std::string& flag = "--time-limit");
// gradcheck --eps: finite, in limits::kFiniteDifferenceStep.
double check_finite_difference_step(double eps, const std::string& flag = "--eps");
// Every ctrl:NAME@STEP input names a step the run takes (0 .. steps-1).
void check_input_steps(const std::vector<GradInput>& inputs, long steps, const std::string& flag = "--wrt");
// The text with unprintable bytes written as \xHH (\r as \r, \t as \t), for messages.
std::string printable(const std::string& text);

}  // namespace contactlab
