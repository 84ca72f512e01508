#include "optimizers/iteration_log.hpp"

#include <cstdio>
#include <iomanip>
#include <stdexcept>

namespace contactlab {

IterationLog::IterationLog(IterationLogOptions options) : options_(std::move(options)) {
  if (options_.csv_path.empty()) return;
  csv_.open(options_.csv_path);
  if (!csv_) throw std::invalid_argument("iteration log: cannot write '" + options_.csv_path + "'");
  csv_ << iteration_csv_header() << '\n' << std::setprecision(17);
}

void IterationLog::add(const IterationRecord& r) {
  records_.push_back(r);
  if (csv_.is_open()) {
    csv_ << r.iteration << ',' << r.loss << ',' << r.grad_norm << ',' << r.forward_s << ',' << r.backward_s << '\n';
    csv_.flush();  // a long run can be watched, and a crash keeps the rows so far
  }
  if (options_.progress)
    std::fprintf(stderr, "%s: iteration %d loss %.6g grad_norm %.3g forward %.3g s backward %.3g s\n",
                 options_.label.c_str(), r.iteration, double(r.loss), double(r.grad_norm), r.forward_s, r.backward_s);
  if (options_.callback) options_.callback(r);
}

}  // namespace contactlab
