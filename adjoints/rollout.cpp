#include "adjoints/rollout.hpp"

#include <stdexcept>

namespace contactlab {

namespace {

StepInputs capture_inputs(const Model& model, const Data& data) {
  StepInputs in;
  in.bodies.resize(model.num_bodies());
  for (int b = 0; b < model.num_bodies(); ++b) {
    in.bodies[b].x = data.x_W[b];
    in.bodies[b].q = data.q_WB[b];
    in.bodies[b].v = data.v_W[b];
    in.bodies[b].w = data.w_W[b];
  }
  in.ctrl = data.ctrl;
  return in;
}

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

void check_differentiable(const Simulation& sim) {
  if (!dynamic_cast<const VelocityScheme*>(&sim.scheme()))
    throw std::invalid_argument("gradients: scheme '" + sim.scheme().name() +
                                "' has no adjoint yet (supported: velocity)");
  const std::string law = sim.contact_model().name();
  if (law != "desaxce" && law != "fischer_burmeister")
    throw std::invalid_argument("gradients: contact law '" + law +
                                "' has no adjoint yet (supported: desaxce, fischer_burmeister; the relaxed "
                                "sensitivities are chosen with --set adjoint.sensitivity=...)");
}

void Rollout::run(PreparedRollout& r) {
  check_differentiable(r.sim);
  records_.clear();
  records_.reserve(r.steps);
  for (long s = 0; s < r.steps; ++s) {
    r.sim.apply_scheduled_controls();
    r.controls.apply(r.sim.data());
    StepRecord rec;
    rec.inputs = capture_inputs(r.sim.model(), r.sim.data());
    r.sim.step(r.h);
    rec.inputs.contacts = r.sim.data().contacts;  // found at q-, during the step
    rec.lambda = r.sim.data().lambda;
    records_.push_back(std::move(rec));
  }
}

GradientResult Rollout::gradient(const PreparedRollout& r, const Loss& loss, const std::vector<GradInput>& inputs,
                                 const StepAdjointOptions& options) {
  const Model& model = r.sim.model();
  const Data& final_state = r.sim.data();
  const auto& scheme = dynamic_cast<const VelocityScheme&>(r.sim.scheme());
  const Real recovery = r.sim.contact_model().penetration_recovery(scheme.options.contact_baumgarte);

  GradientResult out;
  out.loss = loss.value(model, final_state);
  out.steps = static_cast<long>(records_.size());
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
  std::vector<VecX> ctrl_bar(records_.size(), VecX::Zero(na));
  VecX param_bar = VecX::Zero(params.size());
  VelocityStepAdjoint adjoint;
  adjoint.options = options;
  StepProblem step;
  for (long t = static_cast<long>(records_.size()) - 1; t >= 0; --t) {
    const StepRecord& rec = records_[t];
    step.capture(model, rec.inputs, scheme.options, recovery, r.h);
    adjoint.backward(model, step, rec.lambda, after, params, before, ctrl_bar[t], param_bar);
    if (adjoint.last_report().fell_back_to_exact) ++out.fallbacks;
    after.swap(before);
  }

  // The initial state as the first record holds it (after reset and hooks).
  Data initial;
  initial.init(model);
  for (int b = 0; b < model.num_bodies(); ++b) {
    const RigidState& s = records_.empty() ? RigidState{final_state.x_W[b], final_state.q_WB[b], final_state.v_W[b],
                                                        final_state.w_W[b]}
                                           : records_.front().inputs.bodies[b];
    initial.x_W[b] = s.x;
    initial.q_WB[b] = s.q;
    initial.v_W[b] = s.v;
    initial.w_W[b] = s.w;
  }
  out.gradient.assign(inputs.size(), 0.0);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const GradInput& in = inputs[i];
    if (in.kind == GradInput::Kind::Init) {
      out.gradient[i] = initial_state_gradient(in, model, initial, after);
    } else if (in.kind == GradInput::Kind::Control) {
      for (size_t t = 0; t < records_.size(); ++t)
        if (in.step < 0 || in.step == static_cast<long>(t)) out.gradient[i] += ctrl_bar[t][in.index];
    }
  }
  for (size_t j = 0; j < params.size(); ++j) out.gradient[param_slot[j]] = param_bar[j];

  for (const StepRecord& rec : records_)
    out.record_bytes += sizeof(StepRecord) + rec.inputs.bodies.size() * sizeof(RigidState) +
                        rec.inputs.ctrl.size() * sizeof(Real) + rec.inputs.contacts.size() * sizeof(Contact) +
                        rec.lambda.size() * sizeof(Real);
  return out;
}

GradientResult rollout_gradient(const RolloutSpec& spec, const std::string& loss_spec, const std::string& input_list,
                                const StepAdjointOptions& options) {
  PreparedRollout r = prepare_rollout(spec);
  const Loss loss = Loss::parse(loss_spec, r.sim.model());
  const std::vector<GradInput> inputs = parse_grad_inputs(input_list, r.sim.model());
  Rollout rollout;
  rollout.run(r);
  return rollout.gradient(r, loss, inputs, options);
}

}  // namespace contactlab
