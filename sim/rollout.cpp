#include "sim/rollout.hpp"

#include "sim/run_parameters.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/registry.hpp"

namespace contactlab {

namespace {


// dL/d(input) from the cotangent of the initial state, in the input's own
// coordinates (grad_inputs.hpp): a = x - origin is the COM offset in world axes.
Real initial_state_gradient(const GradInput& in, const Model& model, const Data& initial,
                            const std::vector<BodyCotangent>& s0) {
  const int b = in.index, group = in.field / 3, k = in.field % 3;
  const BodyCotangent& c = s0[b];
  const Vec3 e = Vec3::Unit(k);
  const Vec3 a = initial.x_W[b] - initial.origin_position(model, b);
  const Vec3& w = initial.w_W[b];
  switch (group) {
    case 0: return c.x.dot(e);
    case 1: return c.v.dot(e);
    case 2: return c.w.dot(e) + c.v.dot(e.cross(a));                                  // v_com = v_o + w x a
    case 3: return c.theta.dot(e) + c.x.dot(e.cross(a)) + c.v.dot(w.cross(e.cross(a)));  // a turns with the body
    default: return 0;
  }
}

}  // namespace

std::unique_ptr<StepAdjoint> make_step_adjoint(const Simulation& sim) {
  std::unique_ptr<StepAdjoint> adjoint = sim.scheme().make_step_adjoint();
  if (!adjoint)
    throw std::invalid_argument("gradients: scheme '" + sim.scheme().name() +
                                "' has no step adjoint (Scheme::make_step_adjoint; docs/extending.md)");
  const ContactModel& law = sim.contact_model();
  if (!law.has_linearisation())
    throw std::invalid_argument("gradients: contact law '" + law.name() +
                                "' has no linearisation for the adjoints (ContactModel::has_linearisation); the "
                                "relaxed sensitivities are chosen with --set adjoint.sensitivity=...");
  return adjoint;
}

void check_differentiable(const Simulation& sim) { (void)make_step_adjoint(sim); }

WorldCheckpoint WorldCheckpoint::take(const Data& d) {
  WorldCheckpoint c;
  c.x = d.x_W;
  c.q = d.q_WB;
  c.v = d.v_W;
  c.w = d.w_W;
  c.ctrl = d.ctrl;
  c.lambda = d.lambda;
  c.v_plus = d.v_plus;
  c.contact_cache = d.contact_cache;
  c.problem_prev_offset = d.problem_prev_offset;
  c.penalty = d.warm.penalty;
  c.time = d.time;
  c.step = d.step;
  return c;
}

void WorldCheckpoint::restore(Data& d) const {
  d.x_W = x;
  d.q_WB = q;
  d.v_W = v;
  d.w_W = w;
  d.ctrl = ctrl;
  d.lambda = lambda;
  d.v_plus = v_plus;
  d.contact_cache = contact_cache;
  d.problem_prev_offset = problem_prev_offset;
  d.warm.penalty = penalty;
  d.time = time;
  d.step = step;
}

size_t WorldCheckpoint::bytes() const {
  return sizeof(WorldCheckpoint) + (x.size() + v.size() + w.size()) * sizeof(Vec3) + q.size() * sizeof(Quat) +
         (ctrl.size() + lambda.size() + v_plus.size()) * sizeof(Real) + contact_cache.size() * sizeof(CachedContact);
}

void Rollout::record_step(PreparedRollout& r) {
  r.sim.apply_scheduled_controls();
  r.controls.apply(r.sim.data());
  StepRecord rec;
  adjoint_->record_before(r.sim.model(), r.sim.data(), rec);
  r.sim.step(r.h);
  adjoint_->record_after(r.sim.model(), r.sim.data(), rec);
  records_.push_back(std::move(rec));
}

void Rollout::run(PreparedRollout& r, long checkpoint_interval) {
  adjoint_ = make_step_adjoint(r.sim);
  if (checkpoint_interval < 0) throw std::invalid_argument("checkpoint interval must be >= 0");
  interval_ = checkpoint_interval;
  steps_ = r.steps;
  records_.clear();
  checkpoints_.clear();
  if (interval_ == 0) {
    records_.reserve(r.steps);
    for (long s = 0; s < r.steps; ++s) record_step(r);
    return;
  }
  for (long s = 0; s < r.steps; ++s) {
    if (s % interval_ == 0) checkpoints_.push_back(WorldCheckpoint::take(r.sim.data()));
    r.sim.apply_scheduled_controls();
    r.controls.apply(r.sim.data());
    r.sim.step(r.h);
  }
}

GradientResult Rollout::gradient(PreparedRollout& r, const Loss& loss, const std::vector<GradInput>& inputs,
                                 const StepAdjointOptions& options) {
  check_input_steps(inputs, steps_, "--wrt");
  if (!adjoint_) throw std::logic_error("Rollout::gradient before Rollout::run");
  const Model& model = r.sim.model();
  const Data& final_state = r.sim.data();

  GradientResult out;
  out.loss = loss.value(model, final_state);
  out.steps = steps_;
  std::vector<GradInput> params;
  std::vector<size_t> param_slot;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const GradInput::Kind k = inputs[i].kind;
    if (k != GradInput::Kind::Init && k != GradInput::Kind::Control) {
      params.push_back(inputs[i]);
      param_slot.push_back(i);
    }
  }
  std::vector<BodyCotangent> after, before;
  loss.add_gradient(model, final_state, after);
  const int na = static_cast<int>(model.actuators.size());
  std::vector<VecX> ctrl_bar(steps_, VecX::Zero(na));
  VecX param_bar = VecX::Zero(params.size());
  // A relaxed forward law is differentiated at its own relaxed point (the
  // central-path law: that sensitivity with the law's rho).
  StepAdjointContext context;
  context.model = &model;
  context.law = &r.sim.contact_model();
  context.h = r.h;
  context.params = &params;
  context.options = options;
  r.sim.contact_model().forward_sensitivity(context.options.sensitivity);
  context.solve = make_solve_adjoint(r.sim.solver(), context.options.solve);
  StepAdjoint& adjoint = *adjoint_;
  adjoint.begin(std::move(context));
  out.solve_adjoint = adjoint.solve_method();

  // The initial state (after reset and hooks), kept before any replay.
  std::vector<RigidState> initial_bodies(model.num_bodies());
  for (int b = 0; b < model.num_bodies(); ++b) {
    if (interval_ == 0 && !records_.empty()) {
      initial_bodies[b] = records_.front().inputs.bodies[b];
    } else if (!checkpoints_.empty()) {
      const WorldCheckpoint& c = checkpoints_.front();
      initial_bodies[b] = RigidState{c.x[b], c.q[b], c.v[b], c.w[b]};
    } else {
      initial_bodies[b] = RigidState{final_state.x_W[b], final_state.q_WB[b], final_state.v_W[b], final_state.w_W[b]};
    }
  }
  size_t record_bytes = 0;
  auto count_solve = [&](const SolveAdjointStats& st, double seconds) {
    ++out.solve_methods[st.fell_back_to_reference ? "reference" : st.method];
    out.krylov_iterations += st.iterations;
    out.solve_adjoint_seconds += seconds;
    if (st.fell_back_to_reference && out.reference_fallbacks++ == 0) out.first_fallback_reason = st.fallback_reason;
  };
  auto backward_over_records = [&](long first_step) {
    size_t bytes = 0;
    for (const StepRecord& rec : records_)
      bytes += sizeof(StepRecord) + (rec.inputs.bodies.size() + rec.after.size()) * sizeof(RigidState) +
               rec.inputs.ctrl.size() * sizeof(Real) + rec.inputs.contacts.size() * sizeof(Contact) +
               rec.lambda.size() * sizeof(Real);
    record_bytes = std::max(record_bytes, bytes);
    for (long i = static_cast<long>(records_.size()) - 1; i >= 0; --i) {
      StepCotangents io{after, before, ctrl_bar[first_step + i], param_bar};
      adjoint.backward(records_[i], io);
      const StepAdjointReport& report = adjoint.report();
      if (report.fell_back_to_exact) ++out.fallbacks;
      if (report.solve) count_solve(*report.solve, report.solve_seconds);
      after.swap(before);
    }
  };
  if (interval_ == 0) {
    backward_over_records(0);
  } else {
    for (long seg = static_cast<long>(checkpoints_.size()) - 1; seg >= 0; --seg) {
      checkpoints_[seg].restore(r.sim.data());
      records_.clear();
      const long first = seg * interval_, count = std::min(interval_, steps_ - first);
      for (long i = 0; i < count; ++i) record_step(r);
      backward_over_records(first);
    }
    for (const WorldCheckpoint& c : checkpoints_) record_bytes += c.bytes();
  }

  Data initial;
  initial.init(model);
  for (int b = 0; b < model.num_bodies(); ++b) {
    initial.x_W[b] = initial_bodies[b].x;
    initial.q_WB[b] = initial_bodies[b].q;
    initial.v_W[b] = initial_bodies[b].v;
    initial.w_W[b] = initial_bodies[b].w;
  }
  out.gradient.assign(inputs.size(), 0.0);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const GradInput& in = inputs[i];
    if (in.kind == GradInput::Kind::Init) {
      out.gradient[i] = initial_state_gradient(in, model, initial, after);
    } else if (in.kind == GradInput::Kind::Control) {
      for (long t = 0; t < steps_; ++t)
        if (in.step < 0 || in.step == t) out.gradient[i] += ctrl_bar[t][in.index];
    }
  }
  for (size_t j = 0; j < params.size(); ++j) out.gradient[param_slot[j]] = param_bar[j];

  out.record_bytes = record_bytes;
  return out;
}

GradientResult rollout_gradient(const RolloutSpec& spec, const std::string& loss_spec, const std::string& input_list,
                                const StepAdjointOptions& options, long checkpoint_interval) {
  PreparedRollout r = prepare_rollout(spec);
  const Loss loss = Loss::parse(loss_spec, r.sim.model());
  const std::vector<GradInput> inputs = parse_grad_inputs(input_list, r.sim.model());
  Rollout rollout;
  rollout.run(r, checkpoint_interval);
  return rollout.gradient(r, loss, inputs, options);
}

}  // namespace contactlab
