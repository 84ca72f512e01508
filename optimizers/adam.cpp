#include "optimizers/adam.hpp"

#include <cmath>
#include <stdexcept>

namespace contactlab {

void AdamOptions::Validate(int n) const {
  auto bad = [](const std::string& what) { throw std::invalid_argument("AdamOptions: " + what); };
  if (iterations < 0) bad("iterations must be >= 0");
  if (!(beta1 >= 0 && beta1 < 1)) bad("beta1 must be in [0, 1)");
  if (!(beta2 >= 0 && beta2 < 1)) bad("beta2 must be in [0, 1)");
  if (!(epsilon > 0)) bad("epsilon must be > 0");
  if (!(gradient_tolerance >= 0)) bad("gradient_tolerance must be >= 0");
  if (blocks.empty()) {
    if (!(learning_rate > 0 && std::isfinite(learning_rate))) bad("learning_rate must be > 0");
    return;
  }
  int total = 0;
  for (const ParameterBlock& b : blocks) {
    if (b.size <= 0) bad("block '" + b.name + "' has size " + std::to_string(b.size) + " (must be > 0)");
    if (!(b.learning_rate > 0 && std::isfinite(b.learning_rate))) bad("block '" + b.name + "' learning_rate must be > 0");
    total += b.size;
  }
  if (total != n)
    bad("blocks cover " + std::to_string(total) + " parameters, the objective has " + std::to_string(n));
}

OptimiserResult adam_minimize(const GradientObjective& f, const VecX& x0, const AdamOptions& options,
                              const IterationLogOptions& log_options) {
  const int n = static_cast<int>(x0.size());
  options.Validate(n);
  VecX rate(n);
  if (options.blocks.empty()) {
    rate.setConstant(options.learning_rate);
  } else {
    int at = 0;
    for (const ParameterBlock& b : options.blocks) rate.segment(at, b.size).setConstant(b.learning_rate), at += b.size;
  }
  IterationLog log(log_options);
  OptimiserResult out;
  out.x = x0;
  VecX g(n), m = VecX::Zero(n), v = VecX::Zero(n);
  Real b1k = 1, b2k = 1;
  for (int k = 0;; ++k) {
    const Evaluation e = f(out.x, &g);
    ++out.evaluations;
    if (g.size() != n) throw std::invalid_argument("adam_minimize: the objective's gradient has the wrong size");
    const Real gnorm = g.norm();
    log.add({k, e.loss, gnorm, e.forward_s, e.backward_s});
    out.loss = e.loss;
    if (k == 0 || e.loss < out.best_loss) out.best_loss = e.loss, out.best_x = out.x;
    if (!std::isfinite(e.loss) || !g.allFinite())
      throw std::runtime_error("adam_minimize: non-finite loss or gradient at iteration " + std::to_string(k));
    if (k == options.iterations || gnorm <= options.gradient_tolerance) break;
    b1k *= options.beta1;
    b2k *= options.beta2;
    m = options.beta1 * m + (1 - options.beta1) * g;
    v = options.beta2 * v + (1 - options.beta2) * g.cwiseAbs2();
    const VecX m_hat = m / (1 - b1k), v_hat = v / (1 - b2k);
    const Real decay = options.cosine_decay ? 0.5 * (1 + std::cos(kPi * k / options.iterations)) : 1;
    out.x.array() -= decay * rate.array() * m_hat.array() / (v_hat.array().sqrt() + options.epsilon);
    out.iterations = k + 1;
  }
  out.history = log.records();
  return out;
}

}  // namespace contactlab
