// What every optimiser reports per iteration, and where it goes: a CSV file
// (header `iteration,loss,grad_norm,forward_s,backward_s`), a line of
// progress on stderr, a user's callback — any of them, or none.
#pragma once

#include <chrono>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "core/math.hpp"

namespace contactlab {

struct IterationRecord {
  int iteration = 0;
  Real loss = 0;        // at the iterate of this row
  Real grad_norm = 0;   // Euclidean norm of the gradient (or of its estimate: ES)
  double forward_s = 0;   // wall time of this iteration's forward rollouts
  double backward_s = 0;  // wall time of its backward passes (0 for ES)
};

// What an objective reports about one evaluation.
struct Evaluation {
  Real loss = 0;
  double forward_s = 0, backward_s = 0;
};

struct IterationLogOptions {
  std::string csv_path;   // empty: no file
  bool progress = false;  // one line per iteration on stderr
  std::string label = "optimiser";  // prefix of the progress lines
  std::function<void(const IterationRecord&)> callback;  // called after each row
};

class IterationLog {
 public:
  // Opens the CSV file and writes its header; throws std::invalid_argument
  // naming the path when it cannot be written.
  explicit IterationLog(IterationLogOptions options = {});
  void add(const IterationRecord& record);
  const std::vector<IterationRecord>& records() const { return records_; }

 private:
  IterationLogOptions options_;
  std::ofstream csv_;
  std::vector<IterationRecord> records_;
};

// Wall time since t0, s: what the rows' forward_s and backward_s measure.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The CSV header, exactly.
inline const char* iteration_csv_header() { return "iteration,loss,grad_norm,forward_s,backward_s"; }

}  // namespace contactlab
