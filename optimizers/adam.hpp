// Adam (Kingma & Ba 2015) over parameter blocks, each with its own learning
// rate: a spline's knots per actuator, a model parameter, ... For iteration
// k = 1, 2, ... with gradient g:
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g.^2,
//   x -= lr_block * (m / (1 - b1^k)) ./ (sqrt(v / (1 - b2^k)) + eps),
// optionally with a cosine decay of the rates over the iterations.
// The objective is any function returning the loss and filling the gradient
// (optimizers/control_objective.hpp makes one from a rollout).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/math.hpp"
#include "optimizers/iteration_log.hpp"

namespace contactlab {

// Loss at x; fills `gradient` (size of x) when it is not null.
using GradientObjective = std::function<Evaluation(const VecX& x, VecX* gradient)>;

// A contiguous range of the parameters with its learning rate.
struct ParameterBlock {
  std::string name;
  int size = 0;
  Real learning_rate = 1e-2;
};

struct AdamOptions {
  int iterations = 100;          // gradient evaluations (updates)
  // Blocks in order, covering all parameters; empty: one block of
  // `learning_rate` over everything.
  std::vector<ParameterBlock> blocks;
  Real learning_rate = 1e-2;
  Real beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  Real gradient_tolerance = 0;   // stop when ||g|| <= this (0: never)
  // Cosine decay of every block's rate over the run: update k (0-based)
  // uses lr * (1 + cos(pi k / iterations)) / 2 (false: constant rates).
  bool cosine_decay = false;
  // Throws std::invalid_argument naming the first bad field (n: parameter count).
  void Validate(int n) const;
};

struct OptimiserResult {
  VecX x;                 // the last iterate
  Real loss = 0;          // its loss
  VecX best_x;            // the best iterate evaluated
  Real best_loss = 0;
  int iterations = 0;     // updates made
  long evaluations = 0;   // objective calls (rollouts, for ES: the population's too)
  std::vector<IterationRecord> history;  // one row per evaluated iterate, the last one included
};

// Minimises f from x0. Rows: iteration 0..iterations, each the loss and
// gradient at the iterate before that update (the last row: the final iterate).
OptimiserResult adam_minimize(const GradientObjective& f, const VecX& x0, const AdamOptions& options,
                              const IterationLogOptions& log = {});

}  // namespace contactlab
