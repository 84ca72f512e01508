#include "sim/batch.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/worker_pool.hpp"
#include "sim/settings.hpp"

namespace contactlab {

const char* to_string(BatchMode m) { return m == BatchMode::PerWorld ? "per_world" : "batched_padmm"; }

void BatchOptions::Validate() const {
  if (threads < 0) throw std::invalid_argument("BatchOptions.threads must be >= 0 (0: hardware concurrency)");
  if (device == BatchDevice::Cuda && mode != BatchMode::BatchedPadmm)
    throw std::invalid_argument("BatchOptions.device = cuda needs BatchOptions.mode = batched_padmm");
}

Batch::Batch(Model model, const PartChoice& parts, int num_worlds, const BatchOptions& options)
    : model_(std::move(model)),
      batch_options_(options),
      law_(make_contact_model(parts.contact)),
      solver_(make_solver(parts.solver)),
      scheme_(make_scheme(parts.scheme)) {
  batch_options_.Validate();
  if (num_worlds < 1) throw std::invalid_argument("batch: num_worlds must be >= 1 (got " + std::to_string(num_worlds) + ")");
  const std::string refusal = combination_refusal(*scheme_, *law_, *solver_);
  if (!refusal.empty()) throw std::invalid_argument("incompatible combination: " + refusal);
  if (batch_options_.mode == BatchMode::BatchedPadmm) {
    const std::string why = "batch mode batched_padmm needs ";
    if (!scheme_->solves_linear_problem())
      throw std::invalid_argument(why + "a scheme whose solve is the linear problem alone (velocity, quasi_dynamic, moreau); '" +
                                  scheme_->name() + "' re-linearises during its solve");
    std::string reason;
    batch_solver_ = solver_->make_batch_solver(*law_, batch_options_.device, &reason);
    if (!batch_solver_) throw std::invalid_argument(why + "a solver with a batched form: " + reason);
  }
  model_.validate();
  bind_run_options(options_, model_, *law_, *solver_, *scheme_);
  options_.validate();

  const int nb = model_.num_bodies(), na = static_cast<int>(model_.actuators.size());
  const size_t n = static_cast<size_t>(num_worlds);
  state_.num_worlds = num_worlds;
  state_.num_bodies = nb;
  state_.num_actuators = na;
  state_.x_W.resize(n * nb);
  state_.q_WB.resize(n * nb);
  state_.v_W.resize(n * nb);
  state_.w_W.resize(n * nb);
  state_.ctrl.resize(n * na);
  state_.time.resize(n);
  state_.step.resize(n);
  worlds_.resize(n);
  for (Data& d : worlds_) d.init(model_);
  int threads = batch_options_.threads;
  if (threads == 0) threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  threads = std::min(threads, num_worlds);  // a thread without a world would only wait
  pool_ = std::make_unique<WorkerPool>(threads);
  reset();
}

Batch::~Batch() = default;

void Batch::set_option(const std::string& kv) {
  options_.set_assignment(kv);
  options_changed_ = true;
}

void Batch::reset(const std::string& keyframe) {
  const Keyframe* key = initial_keyframe(model_, keyframe);
  for (int w = 0; w < num_worlds(); ++w) {
    Data& d = worlds_[w];
    d.init(model_);
    if (key) set_generalized_state(model_, key->qpos, key->qvel, d);
    for (const ControlSchedule& s : model_.control_schedules) d.ctrl[s.actuator] = s.value_at(d.time);
    scatter(w);
  }
}

void Batch::apply_scheduled_controls() {
  for (int w = 0; w < num_worlds(); ++w)
    for (const ControlSchedule& s : model_.control_schedules)
      state_.ctrl[state_.actuator(w, s.actuator)] = s.value_at(state_.time[w]);
}

void Batch::check_world(int w) const {
  if (w < 0 || w >= num_worlds())
    throw std::out_of_range("batch: world " + std::to_string(w) + " out of range [0, " + std::to_string(num_worlds()) +
                            ")");
}

const StepMetrics& Batch::world_metrics(int w) const {
  check_world(w);
  return worlds_[w].metrics;
}

const SolveStats& Batch::world_solve_stats(int w) const {
  check_world(w);
  return worlds_[w].solve_stats;
}

const Data& Batch::world_data(int w) const {
  check_world(w);
  return worlds_[w];
}

void Batch::gather(int w) {
  Data& d = worlds_[w];
  const int nb = state_.num_bodies, na = state_.num_actuators;
  const size_t o = static_cast<size_t>(w) * nb, oa = static_cast<size_t>(w) * na;
  std::copy_n(state_.x_W.begin() + o, nb, d.x_W.begin());
  std::copy_n(state_.q_WB.begin() + o, nb, d.q_WB.begin());
  std::copy_n(state_.v_W.begin() + o, nb, d.v_W.begin());
  std::copy_n(state_.w_W.begin() + o, nb, d.w_W.begin());
  std::copy_n(state_.ctrl.begin() + oa, na, d.ctrl.begin());
  d.time = state_.time[w];
  d.step = state_.step[w];
}

void Batch::scatter(int w) {
  const Data& d = worlds_[w];
  const int nb = state_.num_bodies, na = state_.num_actuators;
  const size_t o = static_cast<size_t>(w) * nb, oa = static_cast<size_t>(w) * na;
  std::copy_n(d.x_W.begin(), nb, state_.x_W.begin() + o);
  std::copy_n(d.q_WB.begin(), nb, state_.q_WB.begin() + o);
  std::copy_n(d.v_W.begin(), nb, state_.v_W.begin() + o);
  std::copy_n(d.w_W.begin(), nb, state_.w_W.begin() + o);
  std::copy_n(d.ctrl.begin(), na, state_.ctrl.begin() + oa);
  state_.time[w] = d.time;
  state_.step[w] = d.step;
}

void Batch::for_each_world(void (*fn)(Batch*, int, Real), Real h) {
  struct Context {
    Batch* batch;
    void (*fn)(Batch*, int, Real);
    Real h;
  } context{this, fn, h};
  pool_->run(num_worlds(), [](void* c, int w) {
    const Context& ctx = *static_cast<const Context*>(c);
    ctx.fn(ctx.batch, w, ctx.h);
  }, &context);
}

void Batch::step(Real h) {
  if (!(h > 0) || !std::isfinite(h)) throw std::invalid_argument("time step must be positive and finite");
  if (options_changed_) {
    options_.validate();
    options_changed_ = false;
  }
  if (batch_options_.mode == BatchMode::PerWorld) {
    for_each_world([](Batch* b, int w, Real dt) { b->step_per_world(w, dt); }, h);
  } else {
    batch_solver_->check_options();
    for_each_world([](Batch* b, int w, Real dt) { b->prepare_world(w, dt); }, h);
    solve_batched();
    for_each_world([](Batch* b, int w, Real dt) { b->finish_world(w, dt); }, h);
  }
  check_finite();
}

void Batch::step_per_world(int w, Real h) {
  gather(w);
  scheme_->step(model_, worlds_[w], *law_, *solver_, h);
  scatter(w);
}

void Batch::prepare_world(int w, Real h) {
  gather(w);
  scheme_->prepare(model_, worlds_[w], *law_, h);
}

void Batch::solve_batched() { batch_solver_->solve(worlds_); }

void Batch::finish_world(int w, Real h) {
  Data& d = worlds_[w];
  batch_solver_->collect(w, d);
  scheme_->finish(model_, d, *law_, h);
  scatter(w);
}

void Batch::check_finite() const {
  const int nb = state_.num_bodies;
  for (int w = 0; w < num_worlds(); ++w) {
    for (int b = 0; b < nb; ++b) {
      const int i = state_.body(w, b);
      const bool finite = state_.x_W[i].allFinite() && state_.v_W[i].allFinite() && state_.w_W[i].allFinite() &&
                          state_.q_WB[i].coeffs().allFinite();
      if (!finite)
        throw std::runtime_error("batch: world " + std::to_string(w) + " diverged at step " +
                                 std::to_string(state_.step[w]) + " (t = " + std::to_string(state_.time[w]) +
                                 " s): body '" + model_.bodies[b].name + "' has a non-finite state");
    }
  }
}

}  // namespace contactlab
