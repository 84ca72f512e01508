// Gradient-based model-predictive control (CQDC-style; ../shared/docs/STUDIES.md
// 3.0): receding-horizon single shooting on a rollout's gradient.
//
// Each control cycle plans from the plant's current state: the controls of
// the next H planning steps U (H x actuators) are improved by a fixed number
// of normalised gradient steps
//   U <- U - alpha_j(i) * G_j / |G_j|,   alpha_j(i) = alpha_j (f + (1 - f)(1 + cos(pi i / N)) / 2),
// per block j of actuators (G_j the gradient's columns of those actuators
// over the horizon, |.| its Euclidean norm, f = final_fraction: cosine decay
// to 10 % by default), clamped to ctrlrange. Several candidate sequences may
// be improved side by side (candidate 0 from the warm start, the others from
// it plus Gaussian noise); the lowest-loss sequence seen in the cycle (any
// candidate, any iteration, the warm start included) is kept, its first
// control is applied to the plant, and the next cycle starts from it shifted
// by one step (the last control repeated).
//
// The plant runs at its own, finer step: a cycle holds the applied control
// for plan_dt / plant_dt plant steps (an integer). The loss is that of
// adjoints/loss.hpp on the state at the end of the horizon, plus the effort
// term of ControlObjective; a running cost over the horizon is not offered.
// The candidates are evaluated one after another here (a batch of worlds is
// the natural parallel form; sim/batch.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/math.hpp"
#include "core/step_adjoint_options.hpp"
#include "sim/rollout.hpp"

namespace contactlab {

// Actuators that share a normalised step size.
struct ActuatorBlock {
  std::string name;
  std::vector<std::string> actuators;
  Real step = 1e-2;  // alpha_j, in control units per iteration
};

struct GradientMpcOptions {
  int horizon = 5;              // H planning steps
  double plan_dt = 0.01;        // s
  double plant_dt = 0.002;      // s; plan_dt must be an integer multiple
  int iterations = 20;          // gradient steps per cycle and candidate
  std::vector<ActuatorBlock> blocks;  // covering the planned actuators; empty: one block of `step` over all
  Real step = 1e-2;
  Real final_fraction = 0.1;    // cosine decay of the steps to this fraction (1: constant)
  int candidates = 1;           // sequences improved per cycle
  Real candidate_noise = 0;     // std of the candidates' perturbation, control units
  std::uint64_t seed = 1;       // of that noise (std::mt19937_64)
  Real effort_weight = 0;       // as ControlObjectiveOptions
  StepAdjointOptions adjoint;
  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
};

// What one control cycle did.
struct MpcCycle {
  int cycle = 0;
  double time = 0;          // plant time at the start of the cycle, s
  Real plan_loss = 0;       // loss of the kept sequence
  Real warm_loss = 0;       // loss of the shifted warm start (before any step)
  int best_candidate = 0;   // which candidate produced the kept sequence
  double plan_s = 0;        // wall time of the planning
  long rollouts = 0;        // forward passes in the cycle (each with its backward pass but the last)
  VecX applied;             // the control applied, per planned actuator
};

class GradientMpc {
 public:
  // `spec`: the scene and parts to plan with (its dt and steps are replaced by
  // plan_dt and horizon; a control file is refused); `actuators`: the planned
  // actuators (empty: all); `initial`: the first warm start, one value per
  // planned actuator held over the horizon (empty: 0, clamped to ctrlrange).
  GradientMpc(RolloutSpec spec, std::string loss, std::vector<std::string> actuators, GradientMpcOptions options,
              VecX initial = VecX());
  ~GradientMpc();
  GradientMpc(GradientMpc&&) noexcept;

  // One cycle from `plant` (its bodies, time and controls; the planner's world
  // is otherwise fresh): the control to apply, and the warm start shifted.
  VecX plan(const Data& plant, MpcCycle* report = nullptr);
  // The current warm start (H x planned actuators).
  const MatX& warm_start() const;
  const std::vector<int>& actuators() const;  // model indices of the planned actuators
  const GradientMpcOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct MpcRunResult {
  std::vector<MpcCycle> cycles;
  bool stopped_early = false;  // the callback asked to stop
};

// Runs `cycles` control cycles on `plant` (prepared at options.plant_dt):
// plan, then hold the control for plan_dt / plant_dt plant steps. After each
// cycle `after_cycle(cycle, plant data)` may return false to stop.
MpcRunResult run_mpc(GradientMpc& mpc, PreparedRollout& plant, int cycles,
                     const std::function<bool(const MpcCycle&, const Data&)>& after_cycle = nullptr);

}  // namespace contactlab
