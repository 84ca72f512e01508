// A progress bar on stderr, shown only when stderr is a terminal and the run
// has lasted over a second.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace contactlab {

class Progress {
 public:
  Progress(long total, bool enabled) : total_(total), enabled_(enabled && isatty(2)) {}
  void update(long done) {
    if (!enabled_ || total_ <= 0) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (elapsed < 1.0 || elapsed - last_ < 0.1) return;
    last_ = elapsed;
    shown_ = true;
    const int width = 40;
    const int filled = static_cast<int>(width * done / total_);
    std::fprintf(stderr, "\r[");
    for (int i = 0; i < width; ++i) std::fputc(i < filled ? '#' : '.', stderr);
    std::fprintf(stderr, "] %ld/%ld steps, %.1f s", done, total_, elapsed);
  }
  void finish() {
    if (shown_) std::fprintf(stderr, "\n");
  }

 private:
  long total_;
  bool enabled_, shown_ = false;
  double last_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace contactlab
