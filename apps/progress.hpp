// A progress bar on stderr with the time remaining, shown only when stderr is
// a terminal and the work has lasted over a second (a short command prints
// nothing; a pipe or file never receives the bar).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace contactlab {

// "3.2 s", "1 min 05 s": the time remaining, rounded for reading.
inline std::string format_remaining(double s) {
  char buf[32];
  if (!(s >= 0)) return "?";
  if (s < 60) {
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  } else {
    const long total = static_cast<long>(s + 0.5);
    std::snprintf(buf, sizeof buf, "%ld min %02ld s", total / 60, total % 60);
  }
  return buf;
}

class Progress {
 public:
  // `unit` names what is counted ("steps", "runs", "solves").
  Progress(long total, bool enabled, const char* unit = "steps")
      : total_(total), enabled_(enabled && isatty(2)), unit_(unit) {}
  // The estimate may change as the work is found out (compare's reference runs).
  void set_total(long total) { total_ = total; }
  // `done` of the total; the time remaining assumes the rest goes at the rate so far.
  void update(long done, const std::string& label = "") {
    if (!enabled_ || total_ <= 0) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (elapsed < 1.0 || elapsed - last_ < 0.1) return;
    last_ = elapsed;
    shown_ = true;
    done = std::min(done, total_);
    const int width = 30;
    const int filled = static_cast<int>(width * done / total_);
    std::fprintf(stderr, "\r\033[K[");
    for (int i = 0; i < width; ++i) std::fputc(i < filled ? '#' : '.', stderr);
    const std::string left = done > 0 ? format_remaining(elapsed * (total_ - done) / done) : "?";
    std::fprintf(stderr, "] %ld/%ld %s, %.1f s, ~%s left", done, total_, unit_, elapsed, left.c_str());
    if (!label.empty()) std::fprintf(stderr, "  %.40s", label.c_str());  // one terminal line: \r must return to its start
  }
  // Clears the bar so that what follows starts on a clean line.
  void finish() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  long total_;
  bool enabled_;
  const char* unit_;
  bool shown_ = false;
  double last_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace contactlab
