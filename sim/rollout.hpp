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
// Supported now: the velocity scheme with a hard law (desaxce, or
// fischer_burmeister, whose solution is the same Coulomb law) and any solver
// of it, and backward Euler (fischer_burmeister + newton); quasi_dynamic and
// the compliant or relaxed forward laws are refused with a message (their
// adjoints are not written yet).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "adjoints/grad_inputs.hpp"
#include "adjoints/loss.hpp"
#include "adjoints/step_problem.hpp"
#include "adjoints/velocity_step_adjoint.hpp"
#include "sim/rollout_setup.hpp"

namespace contactlab {

struct StepRecord {
  StepInputs inputs;
  std::vector<Real> lambda;       // converged impulses, rows of the step's problem
  std::vector<RigidState> after;  // backward Euler only: the state the step produced
};

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

// What a step's result depends on besides the model: restoring it into a
// world and stepping reproduces the original steps bit for bit.
struct WorldCheckpoint {
  std::vector<Vec3> x, v, w;
  std::vector<Quat> q;
  std::vector<Real> ctrl, lambda, v_plus;
  std::vector<CachedContact> contact_cache;
  int problem_prev_offset = -1;
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
