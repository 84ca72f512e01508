// A differentiable rollout: the forward pass records per step only what the
// backward pass needs — the state before the step, the applied controls, the
// contact set and the converged impulses — so memory grows with the number of
// steps and the contacts, never with solver iterations. The backward pass runs
// the step adjoint from the last step to the first (MATH.md D.5).
//
// Supported now: the velocity scheme with a hard law (desaxce, or
// fischer_burmeister, whose solution is the same Coulomb law) and any solver
// of it; other schemes and compliant or relaxed forward laws are refused with
// a message (their adjoints are not written yet).
#pragma once

#include <string>
#include <vector>

#include "adjoints/grad_inputs.hpp"
#include "adjoints/loss.hpp"
#include "adjoints/step_problem.hpp"
#include "adjoints/velocity_step_adjoint.hpp"
#include "scenes/rollout_setup.hpp"

namespace contactlab {

struct StepRecord {
  StepInputs inputs;
  std::vector<Real> lambda;  // converged impulses, rows of the step's problem
};

struct GradientResult {
  Real loss = 0;
  std::vector<Real> gradient;  // one per input, in the order given
  long steps = 0;
  long fallbacks = 0;          // steps whose relaxed sensitivity fell back to exact
  size_t record_bytes = 0;     // memory held by the step records
};

// Throws std::invalid_argument when the rollout's parts have no adjoint.
void check_differentiable(const Simulation& sim);

class Rollout {
 public:
  // Forward pass of a prepared rollout, recording every step.
  void run(PreparedRollout& rollout);
  // Loss and its gradient with respect to `inputs` (parsed against the same model).
  GradientResult gradient(const PreparedRollout& rollout, const Loss& loss, const std::vector<GradInput>& inputs,
                          const StepAdjointOptions& options);
  const std::vector<StepRecord>& records() const { return records_; }

 private:
  std::vector<StepRecord> records_;
};

// Convenience: prepare, run and differentiate.
GradientResult rollout_gradient(const RolloutSpec& spec, const std::string& loss,
                                const std::string& inputs, const StepAdjointOptions& options);

}  // namespace contactlab
