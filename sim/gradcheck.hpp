// Finite-difference checks of rollout gradients (`contactlab gradcheck`, and a
// library function so users can check their own scenes).
//
// Each input is perturbed by ±eps and the same rollout (same scene, parts,
// options, step count, controls) is rerun from scratch; the central
// difference (L(+eps) - L(-eps)) / (2 eps) is compared with the analytic value.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "adjoints/grad_inputs.hpp"
#include "adjoints/loss.hpp"
#include "sim/rollout_setup.hpp"

namespace contactlab {

// Loss of the rollout with one input perturbed by eps (input may be null).
Real rollout_loss(const RolloutSpec& spec, const std::string& loss, const GradInput* input, Real eps);

// Called after each finite-difference rollout with (done, total): two per input.
using RolloutProgress = std::function<void(long done, long total)>;

// Central differences for every input.
std::vector<Real> finite_difference_gradient(const RolloutSpec& spec, const std::string& loss,
                                             const std::vector<GradInput>& inputs, Real eps,
                                             const RolloutProgress& progress = {});

struct GradCheckEntry {
  std::string input;
  Real analytic = 0, finite_difference = 0;
  Real relative_error = 0;  // |a - fd| / max(|a|, |fd|); 0 when both are below abs_floor
  bool ok = true;
};

struct GradCheckOptions {
  Real eps = 1e-6;        // perturbation, in the input's units
  Real tolerance = 1e-3;  // largest accepted relative error
  Real abs_floor = 1e-9;  // |a|, |fd| both below it: agreement (both zero to FD accuracy)
};

std::vector<GradCheckEntry> compare_gradients(const std::vector<GradInput>& inputs, const std::vector<Real>& analytic,
                                              const std::vector<Real>& finite_difference,
                                              const GradCheckOptions& options);

}  // namespace contactlab
