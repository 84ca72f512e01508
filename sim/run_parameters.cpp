#include "sim/run_parameters.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace contactlab {

namespace {

std::string text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

double in_range(const Range& r, double v, const std::string& flag) {
  const std::string why = range_violation(r, v);
  if (!why.empty()) throw std::invalid_argument(parameter_error(flag, text(v), why));
  return v;
}

}  // namespace

std::string parameter_error(const std::string& flag, const std::string& value, const std::string& why) {
  return flag + " " + value + ": " + why;
}

double check_time_step(double dt, const std::string& flag) { return in_range(limits::kTimeStep, dt, flag); }

double check_duration(double duration, const std::string& flag) {
  return in_range(limits::kDuration, duration, flag);
}

double check_positive_duration(double duration, const std::string& flag) {
  return in_range(Range{0, limits::kDuration.hi, true, "s"}, duration, flag);
}

long check_steps(long steps, const std::string& flag) {
  if (steps < 0 || steps > limits::kMaxSteps)
    throw std::invalid_argument(parameter_error(flag, std::to_string(steps),
                                                "must be an integer in [0, " + std::to_string(limits::kMaxSteps) + "]"));
  return steps;
}

long steps_for_duration(double duration, double dt, const std::string& what) {
  const double n = duration / dt;
  if (!(n <= static_cast<double>(limits::kMaxSteps)))
    throw std::invalid_argument(what + " at a time step of " + text(dt) + " s is " + text(n) +
                                " steps, more than the " + std::to_string(limits::kMaxSteps) +
                                " a run may take (use a larger --dt or a shorter --duration)");
  return static_cast<long>(std::llround(n));
}

double check_control(double value, const std::string& what) {
  const std::string why = range_violation(limits::kControl, value);
  if (!why.empty()) throw std::invalid_argument(what + ": a control " + why);
  return value;
}

long parse_step_number(const std::string& text_in, const std::string& what) {
  const char* s = text_in.data();
  const char* end = s + text_in.size();
  while (s != end && (*s == ' ' || *s == '\t')) ++s;
  while (end != s && (end[-1] == ' ' || end[-1] == '\t')) --end;
  long v = 0;
  const auto result = std::from_chars(s, end, v);
  const bool digits_only = s != end && *s >= '0' && *s <= '9';
  if (result.ec == std::errc::result_out_of_range || (result.ec == std::errc() && result.ptr == end && v > limits::kMaxSteps))
    throw std::invalid_argument(parameter_error(what, "'" + printable(text_in) + "'",
                                                "step number out of range [0, " + std::to_string(limits::kMaxSteps) + "]"));
  if (!digits_only || result.ec != std::errc() || result.ptr != end)
    throw std::invalid_argument(parameter_error(
        what, "'" + printable(text_in) + "'", "a step number must be a non-negative integer written as one (0, 1, 2, ...)"));
  return v;
}

double check_tolerance(double tol, const std::string& flag) {
  if (!(std::isfinite(tol) && tol > 0))
    throw std::invalid_argument(parameter_error(flag, text(tol), "must be finite and > 0"));
  return tol;
}

double check_time_limit(double seconds, const std::string& flag) {
  if (!(std::isfinite(seconds) && seconds > 0))
    throw std::invalid_argument(parameter_error(flag, text(seconds), "must be a finite number of seconds > 0"));
  return seconds;
}

double check_finite_difference_step(double eps, const std::string& flag) {
  return in_range(limits::kFiniteDifferenceStep, eps, flag);
}

void check_input_steps(const std::vector<GradInput>& inputs, long steps, const std::string& flag) {
  for (const GradInput& in : inputs) {
    if (in.kind != GradInput::Kind::Control || in.step < 0 || in.step < steps) continue;
    throw std::invalid_argument(parameter_error(
        flag, in.text,
        "step " + std::to_string(in.step) + " is past the run's last step (the run takes " + std::to_string(steps) +
            (steps > 0 ? " steps, numbered 0 to " + std::to_string(steps - 1) + ")" : " steps)")));
  }
}

std::string printable(const std::string& t) {
  std::string out;
  for (const char c : t) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else out += c;
  }
  return out;
}

}  // namespace contactlab
