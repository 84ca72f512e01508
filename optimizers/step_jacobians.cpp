#include "optimizers/step_jacobians.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/math.hpp"
#include "sim/registry.hpp"

namespace contactlab {

int state_dimension(const Model& model) { return 12 * model.num_bodies(); }

BodyStates read_body_states(const Model& model, const Data& d) {
  BodyStates s(model.num_bodies());
  for (int b = 0; b < model.num_bodies(); ++b) s[b] = RigidState{d.x_W[b], d.q_WB[b], d.v_W[b], d.w_W[b]};
  return s;
}

void state_difference(const BodyStates& a, const BodyStates& b, VecX& out) {
  if (a.size() != b.size()) throw std::invalid_argument("state_difference: states of different models");
  out.resize(12 * a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    out.segment<3>(12 * i) = a[i].x - b[i].x;
    out.segment<3>(12 * i + 3) = quaternion_log(a[i].q * b[i].q.conjugate());
    out.segment<3>(12 * i + 6) = a[i].v - b[i].v;
    out.segment<3>(12 * i + 9) = a[i].w - b[i].w;
  }
}

BodyStates state_add(const BodyStates& b, const VecX& d) {
  if (d.size() != static_cast<long>(12 * b.size())) throw std::invalid_argument("state_add: wrong size");
  BodyStates out = b;
  for (size_t i = 0; i < b.size(); ++i) {
    out[i].x += d.segment<3>(12 * i);
    out[i].q = integrate_quaternion(b[i].q, d.segment<3>(12 * i + 3), 1);
    out[i].v += d.segment<3>(12 * i + 6);
    out[i].w += d.segment<3>(12 * i + 9);
  }
  return out;
}

StepwiseRollout::StepwiseRollout(RolloutSpec spec, StepAdjointOptions options)
    : spec_(std::move(spec)), options_(std::move(options)) {
  options_.Validate();
  model_ = std::make_unique<PreparedRollout>(prepare_rollout(spec_));
  check_differentiable(model_->sim);
  steps_ = model_->steps;
  h_ = model_->h;
  n_ = state_dimension(model_->sim.model());
  na_ = static_cast<int>(model_->sim.model().actuators.size());
  if (na_ == 0) throw std::invalid_argument("StepwiseRollout: scene '" + spec_.scene + "' has no actuator");
}

VecX StepwiseRollout::clamp_controls(const VecX& u) const {
  VecX c = u;
  const Model& m = model();
  for (int a = 0; a < na_; ++a)
    if (m.actuators[a].ctrl_limited) c[a] = std::min(std::max(c[a], m.actuators[a].ctrl_lo), m.actuators[a].ctrl_hi);
  return c;
}

void StepwiseRollout::run(const FeedbackPolicy& policy, Trajectory& out) {
  model_ = std::make_unique<PreparedRollout>(prepare_rollout(spec_));
  Simulation& sim = model_->sim;
  const Model& m = sim.model();
  adjoint_ = make_step_adjoint(sim);
  records_.clear();
  records_.reserve(steps_);
  out.x.assign(1, read_body_states(m, sim.data()));
  out.u.resize(steps_, na_);
  VecX u(na_);
  for (long t = 0; t < steps_; ++t) {
    sim.apply_scheduled_controls();
    model_->controls.apply(sim.data());
    for (int a = 0; a < na_; ++a) u[a] = sim.data().ctrl[a];  // the scene's own, as a default
    policy(t, out.x.back(), u);
    u = clamp_controls(u);
    for (int a = 0; a < na_; ++a) sim.data().ctrl[a] = u[a];
    out.u.row(t) = u.transpose();
    StepRecord rec;
    adjoint_->record_before(m, sim.data(), rec);
    sim.step(model_->h);
    adjoint_->record_after(m, sim.data(), rec);
    records_.push_back(std::move(rec));
    out.x.push_back(read_body_states(m, sim.data()));
  }
}

void StepwiseRollout::jacobians(std::vector<MatX>& A, std::vector<MatX>& B) {
  if (!adjoint_ || static_cast<long>(records_.size()) != steps_)
    throw std::logic_error("StepwiseRollout::jacobians before run");
  Simulation& sim = model_->sim;
  const Model& m = sim.model();
  const int nb = m.num_bodies();
  std::vector<GradInput> no_params;
  StepAdjointContext context;
  context.model = &m;
  context.law = &sim.contact_model();
  context.h = h_;
  context.params = &no_params;
  context.options = options_;
  sim.contact_model().forward_sensitivity(context.options.sensitivity);
  context.solve = make_solve_adjoint(sim.solver(), context.options.solve);
  adjoint_->begin(std::move(context));

  A.assign(steps_, MatX(n_, n_));
  B.assign(steps_, MatX(n_, na_));
  std::vector<BodyCotangent> after(nb), before(nb);
  VecX ctrl_bar(na_), param_bar(0);
  for (long t = 0; t < steps_; ++t) {
    for (int i = 0; i < n_; ++i) {
      std::fill(after.begin(), after.end(), BodyCotangent{});
      BodyCotangent& c = after[i / 12];
      const int k = i % 12;
      Vec3& block = k < 3 ? c.x : k < 6 ? c.theta : k < 9 ? c.v : c.w;
      block[k % 3] = 1;
      ctrl_bar.setZero();
      StepCotangents io{after, before, ctrl_bar, param_bar};
      adjoint_->backward(records_[t], io);
      for (int b = 0; b < nb; ++b) {
        A[t].block<1, 3>(i, 12 * b) = before[b].x.transpose();
        A[t].block<1, 3>(i, 12 * b + 3) = before[b].theta.transpose();
        A[t].block<1, 3>(i, 12 * b + 6) = before[b].v.transpose();
        A[t].block<1, 3>(i, 12 * b + 9) = before[b].w.transpose();
      }
      B[t].row(i) = ctrl_bar.transpose();
    }
  }
}

namespace {

// One step of the spec's world from state x with controls u; the world's
// warm start is that of a fresh reset (a check, not the optimiser's path).
BodyStates step_from(const RolloutSpec& spec, const BodyStates& x, const VecX& u) {
  PreparedRollout r = prepare_rollout(spec);
  Data& d = r.sim.data();
  for (size_t b = 0; b < x.size(); ++b) {
    d.x_W[b] = x[b].x;
    d.q_WB[b] = x[b].q;
    d.v_W[b] = x[b].v;
    d.w_W[b] = x[b].w;
  }
  r.sim.apply_scheduled_controls();
  for (long a = 0; a < u.size(); ++a) d.ctrl[a] = u[a];
  r.sim.step(r.h);
  return read_body_states(r.sim.model(), d);
}

}  // namespace

void finite_difference_jacobians(const RolloutSpec& spec, const Trajectory& tr, Real eps, std::vector<MatX>& A,
                                 std::vector<MatX>& B) {
  const long T = tr.u.rows();
  const int na = static_cast<int>(tr.u.cols());
  const int n = static_cast<int>(12 * tr.x.front().size());
  A.assign(T, MatX(n, n));
  B.assign(T, MatX(n, na));
  VecX dp, dm;
  for (long t = 0; t < T; ++t) {
    const VecX u = tr.u.row(t).transpose();
    for (int j = 0; j < n; ++j) {
      VecX e = VecX::Zero(n);
      e[j] = eps;
      state_difference(step_from(spec, state_add(tr.x[t], e), u), tr.x[t + 1], dp);
      state_difference(step_from(spec, state_add(tr.x[t], -e), u), tr.x[t + 1], dm);
      A[t].col(j) = (dp - dm) / (2 * eps);
    }
    for (int a = 0; a < na; ++a) {
      VecX up = u, um = u;
      up[a] += eps;
      um[a] -= eps;
      state_difference(step_from(spec, tr.x[t], up), tr.x[t + 1], dp);
      state_difference(step_from(spec, tr.x[t], um), tr.x[t + 1], dm);
      B[t].col(a) = (dp - dm) / (2 * eps);
    }
  }
}

}  // namespace contactlab
