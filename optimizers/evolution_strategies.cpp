#include "optimizers/evolution_strategies.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

namespace contactlab {

void EvolutionOptions::Validate() const {
  auto bad = [](const std::string& what) { throw std::invalid_argument("EvolutionOptions: " + what); };
  if (iterations < 0) bad("iterations must be >= 0");
  if (pairs < 1) bad("pairs must be >= 1");
  if (!(sigma > 0 && std::isfinite(sigma))) bad("sigma must be > 0");
  if (!(learning_rate > 0 && std::isfinite(learning_rate))) bad("learning_rate must be > 0");
  if (!(beta1 >= 0 && beta1 < 1)) bad("beta1 must be in [0, 1)");
  if (!(beta2 >= 0 && beta2 < 1)) bad("beta2 must be in [0, 1)");
  if (!(epsilon > 0)) bad("epsilon must be > 0");
}

std::vector<Real> centred_ranks(const std::vector<Real>& losses) {
  const size_t n = losses.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return losses[a] < losses[b]; });
  std::vector<Real> r(n, 0);
  if (n < 2) return r;
  for (size_t k = 0; k < n; ++k) r[order[k]] = Real(k) / Real(n - 1) - 0.5;
  return r;
}

OptimiserResult evolution_minimize(const GradientObjective& f, const VecX& x0, const EvolutionOptions& options,
                                   const IterationLogOptions& log_options, const PopulationObjective& population) {
  options.Validate();
  const int n = static_cast<int>(x0.size());
  const int N = options.pairs;
  std::mt19937_64 rng(options.seed);
  std::normal_distribution<Real> normal(0, 1);
  IterationLog log(log_options);
  OptimiserResult out;
  out.x = x0;
  std::vector<VecX> eps(N, VecX(n)), candidates(2 * N, VecX(n));
  std::vector<Real> losses(2 * N);
  VecX g(n), m = VecX::Zero(n), v = VecX::Zero(n);
  Real b1k = 1, b2k = 1;
  using clock = std::chrono::steady_clock;
  for (int k = 0;; ++k) {
    const Evaluation centre = f(out.x, nullptr);
    ++out.evaluations;
    if (k == 0 || centre.loss < out.best_loss) out.best_loss = centre.loss, out.best_x = out.x;
    out.loss = centre.loss;
    if (k == options.iterations) {
      log.add({k, centre.loss, 0, centre.forward_s, 0});
      break;
    }
    for (int j = 0; j < N; ++j) {
      for (int i = 0; i < n; ++i) eps[j][i] = normal(rng);
      candidates[2 * j] = out.x + options.sigma * eps[j];
      candidates[2 * j + 1] = out.x - options.sigma * eps[j];
    }
    const auto t0 = clock::now();
    if (population) {
      population(candidates, losses);
    } else {
      for (int c = 0; c < 2 * N; ++c) losses[c] = f(candidates[c], nullptr).loss;
    }
    const double population_s = std::chrono::duration<double>(clock::now() - t0).count();
    out.evaluations += 2 * N;
    // A diverged candidate ranks worst rather than poisoning the estimate.
    for (Real& l : losses)
      if (!std::isfinite(l)) l = std::numeric_limits<Real>::infinity();
    const std::vector<Real> r = centred_ranks(losses);
    g.setZero();
    for (int j = 0; j < N; ++j) g += (r[2 * j] - r[2 * j + 1]) * eps[j];
    g /= (2 * N * options.sigma);
    log.add({k, centre.loss, g.norm(), centre.forward_s + population_s, 0});
    b1k *= options.beta1;
    b2k *= options.beta2;
    m = options.beta1 * m + (1 - options.beta1) * g;
    v = options.beta2 * v + (1 - options.beta2) * g.cwiseAbs2();
    out.x.array() -= options.learning_rate * (m / (1 - b1k)).array() / ((v / (1 - b2k)).array().sqrt() + options.epsilon);
    out.iterations = k + 1;
  }
  out.history = log.records();
  return out;
}

}  // namespace contactlab
