// A differentiable rollout: the forward pass records per step only what the
// backward pass needs — the state before the step, the applied controls, the
// contact set and the converged impulses — so memory grows with the number of
// steps and the contacts, never with solver iterations. The backward pass runs
// the step adjoint from the last step to the first (MATH.md D.5).
//
// Segment checkpointing (MATH.md D.5): with a checkpoint interval K > 0 the
// forward pass keeps, instead of every step's record, the world's state every
// K steps (bodies, time, controls, the previous impulses and contact cache that
// warm-start the next solve). The backward pass replays each segment from its
// checkpoint to regenerate its records; the replay is the same deterministic
// computation, so the gradient is bit-identical to the plain pass. Memory:
// T/K checkpoints plus K records, for one extra forward pass.
//
// Any scheme with a step adjoint (Scheme::make_step_adjoint: the built-in
// velocity, backward_euler, quasi_dynamic and moreau have theirs, adjoints/) and any
// law with a linearisation (ContactModel::has_linearisation) is
// differentiable; the solve's VJP is the one the registry pairs with the
// solver (sim/registry.hpp), and a relaxed forward law is differentiated at
// its own relaxed point (ContactModel::forward_sensitivity).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "adjoints/grad_inputs.hpp"
#include "adjoints/loss.hpp"
#include "core/step_adjoint.hpp"
#include "core/step_adjoint_options.hpp"
#include "sim/rollout_setup.hpp"

namespace contactlab {

struct GradientResult {
  Real loss = 0;
  std::vector<Real> gradient;  // one per input, in the order given
  long steps = 0;
  long fallbacks = 0;          // steps whose relaxed sensitivity fell back to exact
  // The solve adjoint (velocity-scheme steps): its pairing, how many steps
  // each method answered ("pcr", "gmres", "cholesky", ...), the Krylov
  // iterations over all steps and the steps that fell back to the reference.
  std::string solve_adjoint;
  std::map<std::string, long> solve_methods;
  long krylov_iterations = 0;
  long reference_fallbacks = 0;
  double solve_adjoint_seconds = 0;   // wall time in the solve adjoints (linearise + VJP), all steps
  std::string first_fallback_reason;  // of the latest step (backward order) that fell back
  size_t record_bytes = 0;     // memory held by the step records
};

// Throws std::invalid_argument when the rollout's parts have no adjoint.
void check_differentiable(const Simulation& sim);
// The scheme's step adjoint; throws as check_differentiable.
std::unique_ptr<StepAdjoint> make_step_adjoint(const Simulation& sim);

// What a step's result depends on besides the model: restoring it into a
// world and stepping reproduces the original steps bit for bit.
struct WorldCheckpoint {
  std::vector<Vec3> x, v, w;
  std::vector<Quat> q;
  std::vector<Real> ctrl, lambda, v_plus;
  std::vector<CachedContact> contact_cache;
  int problem_prev_offset = -1;
  Real penalty = 0;  // data.warm.penalty
  Real time = 0;
  long step = 0;
  static WorldCheckpoint take(const Data& data);
  void restore(Data& data) const;
  size_t bytes() const;
};

class Rollout {
 public:
  // Forward pass of a prepared rollout, recording every step (interval 0) or
  // keeping a checkpoint every `checkpoint_interval` steps.
  void run(PreparedRollout& rollout, long checkpoint_interval = 0);
  // Loss and its gradient with respect to `inputs` (parsed against the same model).
  // With checkpoints, the segments are replayed in `rollout`'s simulation
  // (whose state is then that of a replay, not the final one).
  GradientResult gradient(PreparedRollout& rollout, const Loss& loss, const std::vector<GradInput>& inputs,
                          const StepAdjointOptions& options);
  const std::vector<StepRecord>& records() const { return records_; }

 private:
  void record_step(PreparedRollout& r);
  std::unique_ptr<StepAdjoint> adjoint_;  // the scheme's, made by run(): it says what to record
  std::vector<StepRecord> records_;
  long interval_ = 0;
  long steps_ = 0;
  std::vector<WorldCheckpoint> checkpoints_;
};

// Convenience: prepare, run and differentiate.
GradientResult rollout_gradient(const RolloutSpec& spec, const std::string& loss,
                                const std::string& inputs, const StepAdjointOptions& options,
                                long checkpoint_interval = 0);

}  // namespace contactlab
