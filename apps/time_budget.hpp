// --time-limit S of run, compare and solve: a wall-clock budget for the whole
// command. When it runs out the command stops cleanly, says what it reached on
// stderr, writes no result file and exits with kTimeLimitExit (docs/cli.md
// "Time limit").
#pragma once

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "sim/run_parameters.hpp"

namespace contactlab {

// Exit status of a command stopped by --time-limit (1: error, 2: usage).
constexpr int kTimeLimitExit = 3;

// Seconds from --time-limit's text: a number (else std::invalid_argument
// naming --time-limit), then the rule of sim/run_parameters.hpp.
inline double parse_time_limit(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0')
    throw std::invalid_argument(parameter_error("--time-limit", text, "not a number"));
  return check_time_limit(v);
}

inline std::string format_seconds(double s) {
  std::ostringstream o;
  o << s;
  return o.str();
}

// The deadline: one comparison with a clock reading the caller already has.
class TimeBudget {
 public:
  using Clock = std::chrono::steady_clock;
  // seconds <= 0: no limit (the deadline is the clock's end of time, as it
  // is for over 1e9 s, which would overflow the clock's nanoseconds).
  explicit TimeBudget(double seconds = 0) : seconds_(seconds) {
    if (seconds > 0 && seconds < 1e9)
      deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }
  bool limited() const { return seconds_ > 0; }
  double seconds() const { return seconds_; }
  bool expired(Clock::time_point now) const { return now >= deadline_; }
  bool expired() const { return limited() && expired(Clock::now()); }

 private:
  double seconds_;
  Clock::time_point deadline_ = Clock::time_point::max();
};

}  // namespace contactlab
