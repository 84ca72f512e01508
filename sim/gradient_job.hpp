// What `contactlab grad` and `gradcheck` compute, as a library call that the
// command line and the Python module (cl.grad, cl.gradcheck) share, so that
// both answer the same numbers for the same request.
#pragma once

#include <string>
#include <vector>

#include "core/grad_input.hpp"
#include "core/options.hpp"
#include "core/step_adjoint_options.hpp"
#include "sim/gradcheck.hpp"
#include "sim/rollout.hpp"

namespace contactlab {

// Every moving body's initial position and velocity and every control: the
// inputs of `grad` without --wrt.
std::string default_gradient_inputs(const Model& model);

// Applies the `adjoint.*` keys of `sets` to `adjoint` (validated, each
// refusal naming its key) and returns the other keys, the simulation's.
// `describe`, when given, receives the adjoint's option table (--list-options).
std::vector<std::string> apply_adjoint_settings(const std::vector<std::string>& sets, StepAdjointOptions& adjoint,
                                                std::string* describe = nullptr);

struct GradientJob {
  RolloutSpec spec;      // spec.model set; spec.sets may hold adjoint.* keys
  std::string loss;      // adjoints/loss.hpp
  std::string wrt;       // adjoints/grad_inputs.hpp; empty: default_gradient_inputs
  long checkpoint = 0;   // Rollout::run's interval (0: every step recorded)
};

struct GradientJobResult {
  GradientResult result;
  std::vector<GradInput> inputs;  // in the order of the gradient
  RolloutSpec rollout_spec;       // the job's spec without the adjoint keys: what a rerun uses
  double forward_s = 0, backward_s = 0;
};

// Prepares, runs forward and backward. Throws std::invalid_argument for a bad
// loss, input, option or checkpoint interval (naming it).
GradientJobResult run_gradient_job(const GradientJob& job);

// Throws std::runtime_error when the loss or a gradient entry is not finite
// (no such number is a result: JSON has no nan either).
void check_gradient_finite(const GradientJobResult& r);

// The gradient of the job and central differences of its loss, compared entry by entry.
struct GradCheckJobResult {
  GradientJobResult gradient;
  std::vector<GradCheckEntry> entries;
  bool ok = true;  // every entry within the tolerance
};
// `progress`: after each finite-difference rollout (sim/gradcheck.hpp).
GradCheckJobResult run_gradcheck_job(const GradientJob& job, const GradCheckOptions& options,
                                     const RolloutProgress& progress = {});

}  // namespace contactlab
