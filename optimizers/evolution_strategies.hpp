// Evolution strategies (Salimans et al. 2017), gradient-free: the search
// gradient of E[L(x + sigma eps)], eps ~ N(0, I), estimated from `pairs`
// antithetic pairs (x + sigma eps_j, x - sigma eps_j), population 2 * pairs.
//
// Fitness shaping: centred ranks. The 2N losses are ranked (0 = best,
// 2N - 1 = worst; ties broken by order) and replaced by
// r_i = rank_i / (2N - 1) - 1/2 in [-1/2, 1/2], so the estimate is invariant
// to any monotone transform of the loss and one outlier cannot dominate:
//   g = 1 / (2 N sigma) * sum_j (r(x + sigma eps_j) - r(x - sigma eps_j)) eps_j.
// The step is Adam's on g (optimizers/adam.hpp's update), with one learning rate.
//
// Each iteration also evaluates the loss at the mean x for the log (one more
// rollout), so a row's loss is that of the iterate, not of the population.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/math.hpp"
#include "optimizers/adam.hpp"
#include "optimizers/iteration_log.hpp"

namespace contactlab {

// The loss of each candidate (a rollout each); may evaluate them in parallel,
// e.g. on a batch of worlds. `losses` is sized to `candidates` by the caller.
using PopulationObjective = std::function<void(const std::vector<VecX>& candidates, std::vector<Real>& losses)>;

struct EvolutionOptions {
  int iterations = 50;
  int pairs = 8;             // antithetic pairs N (population 2N)
  Real sigma = 0.1;          // perturbation scale, in parameter units
  Real learning_rate = 0.05; // Adam's, on the search gradient
  Real beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  std::uint64_t seed = 1;    // of the perturbations (std::mt19937_64)
  void Validate() const;     // throws std::invalid_argument naming the bad field
};

// `f` evaluates one candidate (only its loss is used); `population`, when
// given, evaluates a whole population instead (f is then used for the mean).
OptimiserResult evolution_minimize(const GradientObjective& f, const VecX& x0, const EvolutionOptions& options,
                                   const IterationLogOptions& log = {},
                                   const PopulationObjective& population = nullptr);

// Centred ranks of `losses` (lowest loss -> -1/2, highest -> +1/2).
std::vector<Real> centred_ranks(const std::vector<Real>& losses);

}  // namespace contactlab
