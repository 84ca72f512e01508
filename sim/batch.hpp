// Batch: N worlds of one Model stepped together (docs/batch.md).
//
// The state of every world lives in one structure of arrays (BatchState),
// world-major, so that a learner or a GPU can read all worlds at once. Each
// world also owns a Data used as scratch for a step (contacts, problem, solver
// workspace, warm-start cache); a step gathers the world's state from the
// arrays into its Data, steps it and scatters it back.
//
// Two modes:
//   per_world      each world runs its scheme's full step; worlds are spread
//                  over a persistent thread pool. Bit-identical to independent
//                  Simulations, whatever the thread count.
//   batched_padmm  per world (in parallel) the scheme's prepare; then ONE
//                  call of the solver's batched form (core/batch_solver.hpp;
//                  padmm's: a dense PADMM of all worlds' problems on the CPU
//                  or with the CUDA kernel); then per world the answer and
//                  the scheme's finish. Needs a scheme whose solve is the
//                  linear problem alone (velocity, quasi_dynamic, moreau) and a solver
//                  with a batched form for the law (padmm with
//                  solver.balanced_penalty=false and solver.delassus=dense,
//                  on a law with the hard Coulomb cones: desaxce,
//                  fischer_burmeister).
// Once the sizes of a scene have been seen, step() does not allocate.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/batch_solver.hpp"
#include "core/data.hpp"
#include "core/model.hpp"
#include "core/options.hpp"
#include "sim/simulation.hpp"

namespace contactlab {

class WorkerPool;  // core/worker_pool.hpp

// State of N worlds of one Model. Body arrays are indexed w * num_bodies + b
// (world-major), controls w * num_actuators + a. Fixed bodies keep their pose
// and zero twist, as in Data.
struct BatchState {
  int num_worlds = 0;
  int num_bodies = 0;             // nb, bodies per world
  int num_actuators = 0;          // na, controls per world
  std::vector<Vec3> x_W;          // (N x nb) centre-of-mass position, world frame, m
  std::vector<Quat> q_WB;         // (N x nb) body orientation (body axes -> world axes)
  std::vector<Vec3> v_W;          // (N x nb) centre-of-mass linear velocity, world frame, m/s
  std::vector<Vec3> w_W;          // (N x nb) angular velocity, world frame, rad/s
  std::vector<Real> ctrl;         // (N x na) actuator controls
  std::vector<Real> time;         // (N) simulated time, s
  std::vector<long> step;         // (N) steps taken since reset

  int body(int world, int b) const { return world * num_bodies + b; }
  int actuator(int world, int a) const { return world * num_actuators + a; }
};

enum class BatchMode { PerWorld, BatchedPadmm };
const char* to_string(BatchMode m);  // "per_world", "batched_padmm"
// BatchDevice (cpu, cuda): core/batch_solver.hpp.

struct BatchOptions {
  BatchMode mode = BatchMode::PerWorld;
  // Where the batched PADMM iterations run (batched_padmm only; cuda copies
  // the host arrays to the device and back on every step).
  BatchDevice device = BatchDevice::Cpu;
  // Threads working on a step, the caller included; 0 = std::thread::hardware_concurrency(),
  // 1 = serial (no pool thread is started).
  int threads = 0;
  // Throws std::invalid_argument naming the bad field.
  void Validate() const;
};

class Batch {
 public:
  // Throws std::invalid_argument for unknown parts, a refused combination, a
  // mode the parts cannot run, or num_worlds < 1; std::runtime_error "no CUDA
  // device" when device == cuda and cuda_available() is false.
  Batch(Model model, const PartChoice& parts, int num_worlds, const BatchOptions& options = {});
  ~Batch();
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  // As Simulation::set_option: solver.*, contact.* (alias model.*), scheme.*,
  // the model's parameters; shared by every world. Validated at the next step.
  void set_option(const std::string& key_equals_value);
  std::string describe_options() const { return options_.describe(); }

  // Puts every world at the initial state (as Simulation::reset) and forgets
  // their warm-start caches.
  void reset(const std::string& keyframe = "");
  // Each world's scheduled controls at its own time (callers may overwrite
  // state().ctrl afterwards).
  void apply_scheduled_controls();
  // One step of length h for every world. Throws std::runtime_error naming
  // the world, the step and the body when a state turns non-finite;
  // std::invalid_argument when batched_padmm's solver options are unsupported.
  void step(Real h);

  int num_worlds() const { return state_.num_worlds; }
  BatchState& state() { return state_; }
  const BatchState& state() const { return state_; }
  // Metrics and solver statistics of world w's last step.
  const StepMetrics& world_metrics(int w) const;
  const SolveStats& world_solve_stats(int w) const;
  // World w's scratch Data (contacts, problem, impulses of its last step). Its
  // state fields equal the arrays only right after reset() or step().
  const Data& world_data(int w) const;

  const Model& model() const { return model_; }
  const BatchOptions& options() const { return batch_options_; }
  const ContactModel& contact_model() const { return *law_; }
  const Solver& solver() const { return *solver_; }
  const Scheme& scheme() const { return *scheme_; }

 private:
  void check_world(int w) const;
  void gather(int w);
  void scatter(int w);
  void step_per_world(int w, Real h);
  void prepare_world(int w, Real h);
  void finish_world(int w, Real h);
  void solve_batched();
  void check_finite() const;
  // Runs fn(this, w, h) for every world on the pool.
  void for_each_world(void (*fn)(Batch*, int, Real), Real h);

  Model model_;
  BatchOptions batch_options_;
  std::unique_ptr<ContactModel> law_;
  std::unique_ptr<Solver> solver_;
  std::unique_ptr<Scheme> scheme_;
  OptionSet options_;
  bool options_changed_ = false;  // validated at the next step
  BatchState state_;
  std::vector<Data> worlds_;                 // (N) per-world scratch
  std::unique_ptr<BatchSolver> batch_solver_;  // batched_padmm: the solver's batched form
  std::unique_ptr<WorkerPool> pool_;
};

}  // namespace contactlab
