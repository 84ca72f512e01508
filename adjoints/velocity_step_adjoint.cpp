#include "adjoints/velocity_step_adjoint.hpp"

#include <chrono>
#include <stdexcept>

namespace contactlab {

namespace {

Vec6 twist_at(const VecX& u, int b) { return b < 0 ? Vec6::Zero().eval() : Vec6(u.segment<6>(6 * b)); }

}  // namespace

std::string VelocityStepAdjoint::solve_method() const { return ctx_.solve ? ctx_.solve->name() : "reference"; }

void VelocityStepAdjoint::begin(StepAdjointContext context) {
  ctx_ = std::move(context);
  if (!ctx_.model || !ctx_.law || !ctx_.params) throw std::invalid_argument("velocity step adjoint: incomplete context");
  if (!ctx_.solve) ctx_.solve = make_reference_solve_adjoint();
  report_ = StepAdjointReport{};
}

void VelocityStepAdjoint::backward(const StepRecord& record, StepCotangents& io) {
  const Model& model = *ctx_.model;
  const ContactModel& law = *ctx_.law;
  const StepAdjointOptions& options = ctx_.options;
  const std::vector<GradInput>& params = *ctx_.params;
  const std::vector<BodyCotangent>& after = io.after;
  std::vector<BodyCotangent>& before = io.before;
  VecX& ctrl_bar = io.ctrl;
  VecX& param_bar = io.params;
  StepProblem& step = ws_.step;
  step.capture(model, record.inputs, scheme_, law.penetration_recovery(scheme_.contact_baumgarte), ctx_.h);
  const std::vector<Real>& lambda_in = record.lambda;
  StepProblemData &y0_ = ws_.y0, &yplus_ = ws_.yplus, &yminus_ = ws_.yminus, &ytan_value_ = ws_.ytan_value,
                  &ytan_ = ws_.ytan;
  const int nb = model.num_bodies();
  const Real h = step.h();

  // ---- the step's data at the recorded inputs ----
  step.evaluate(model, nullptr, nullptr, y0_);
  const ConstraintProblem& p = step.problem();
  const int m = p.num_rows(), nc = p.num_contacts, off = p.contact_offset();
  if (static_cast<int>(lambda_in.size()) != m)
    throw std::runtime_error("adjoint: the recorded impulses do not match the step's rows (contact set changed?)");
  const VecX lambda = Eigen::Map<const VecX>(lambda_in.data(), m);
  const VecX u_free = Eigen::Map<const VecX>(step.scratch().u_free.data(), 6 * nb);
  auto minv = [&](int b, const Vec6& x) {
    Vec6 y;
    y << p.inv_mass[b] * x.head<3>(), p.inv_inertia_W[b] * x.tail<3>();
    return y;
  };
  // f = J^T lambda, u+ = u_free + M^-1 f
  VecX f = VecX::Zero(6 * nb);
  p.apply_JT(lambda.data(), f.data());
  VecX u_plus(6 * nb);
  for (int b = 0; b < nb; ++b) u_plus.segment<6>(6 * b) = twist_at(u_free, b) + minv(b, twist_at(f, b));

  // ---- 1. integrator: x+ = x- + h_pos v+, q+ = Exp(h_pos w+) q- ----
  // h_pos = position_step h: h here, h/2 for Moreau's second drift from q_m.
  const Real hp = h * scheme_.position_step;
  before.assign(nb, BodyCotangent{});
  VecX u_plus_bar = VecX::Zero(6 * nb);
  for (int b = 0; b < nb; ++b) {
    if (model.bodies[b].fixed) continue;
    const BodyCotangent& a = after[b];
    const Vec3 w_plus = u_plus.segment<3>(6 * b + 3);
    u_plus_bar.segment<3>(6 * b) = a.v + hp * a.x;
    u_plus_bar.segment<3>(6 * b + 3) = a.w + hp * (so3_left_jacobian(hp * w_plus).transpose() * a.theta);
    before[b].x += a.x;
    const Mat3 E = integrate_quaternion(Quat::Identity(), w_plus, hp).toRotationMatrix();
    before[b].theta += E.transpose() * a.theta;
  }

  // ---- 2. u+ = u_free + M^-1 J^T lambda ----
  StepProblemData& ybar = ws_.ybar;  // cotangent of the step's data y
  ybar.num_bodies = y0_.num_bodies;
  ybar.num_rows = y0_.num_rows;
  ybar.num_contacts = y0_.num_contacts;
  ybar.y = VecX::Zero(y0_.size());
  VecX g(6 * nb);  // M^-1 u+_bar
  for (int b = 0; b < nb; ++b) g.segment<6>(6 * b) = minv(b, twist_at(u_plus_bar, b));
  VecX lambda_bar(m);
  p.apply_J(g.data(), lambda_bar.data());
  ybar.y.segment(ybar.u_free_at(), 6 * nb) += u_plus_bar;
  auto add_row_bar = [&](int r, int body, bool side_b, const Vec6& value) {
    if (body < 0) return;
    ybar.y.segment<6>(ybar.rows_at() + 12 * r + (side_b ? 6 : 0)) += value;
  };
  for (int r = 0; r < m; ++r) {
    add_row_bar(r, p.rows[r].body_a, false, lambda[r] * twist_at(g, p.rows[r].body_a));
    add_row_bar(r, p.rows[r].body_b, true, lambda[r] * twist_at(g, p.rows[r].body_b));
  }
  for (int b = 0; b < nb; ++b) {
    ybar.y[ybar.inv_mass_at() + b] += f.segment<3>(6 * b).dot(u_plus_bar.segment<3>(6 * b));
    Eigen::Map<Mat3>(&ybar.y[ybar.inv_inertia_at() + 9 * b]) +=
        u_plus_bar.segment<3>(6 * b + 3) * f.segment<3>(6 * b + 3).transpose();
  }

  // ---- 3. the solve: the VJP of lambda(A, b, mu), paired with the solver ----
  SolveAdjoint& solve = *ctx_.solve;
  const auto solve_start = std::chrono::steady_clock::now();
  solve.krylov = options.krylov;
  solve.linearise(p, law, lambda, options.sensitivity);
  VecX b_bar, mu_bar;
  solve.vjp(u_plus_bar, lambda_bar, b_bar, mu_bar);
  report_.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - solve_start).count();
  report_.solve = &solve.stats();
  report_.fell_back_to_exact = solve.report().fell_back_to_exact;
  for (int k = 0; k < nc; ++k) ybar.y[ybar.mu_at() + k] += mu_bar[k];

  // ---- 4. v_free = J u_free + bias, A = J M^-1 J^T + diag(R) ----
  VecX JTb = VecX::Zero(6 * nb);
  p.apply_JT(b_bar.data(), JTb.data());
  ybar.y.segment(ybar.u_free_at(), 6 * nb) += JTb;
  for (int r = 0; r < m; ++r) {
    ybar.y[ybar.bias_at() + r] += b_bar[r];
    ybar.y[ybar.compliance_at() + r] += b_bar[r] * lambda[r];  // A_bar(r, r), A_bar = b_bar lambda^T
    const ConstraintRow& row = p.rows[r];
    add_row_bar(r, row.body_a, false, b_bar[r] * twist_at(u_free, row.body_a));
    add_row_bar(r, row.body_b, true, b_bar[r] * twist_at(u_free, row.body_b));
  }
  // A_bar = b_bar lambda^T is rank one: with f = J^T lambda and t = J^T b_bar,
  // b_bar^T dA lambda = b_bar^T dJ M^-1 f + t^T dM^-1 f + (M^-1 t)^T dJ^T lambda,
  // so J_r,b gets b_bar_r M^-1_b f_b + lambda_r M^-1_b t_b and M^-1_b gets t_b f_b^T
  // (O(m), no m x m cotangent).
  for (int r = 0; r < m; ++r) {
    const ConstraintRow& row = p.rows[r];
    for (int side = 0; side < 2; ++side) {
      const int b = side == 0 ? row.body_a : row.body_b;
      if (b < 0) continue;
      add_row_bar(r, b, side == 1, b_bar[r] * minv(b, twist_at(f, b)) + lambda[r] * minv(b, twist_at(JTb, b)));
    }
  }
  for (int b = 0; b < nb; ++b) {
    ybar.y[ybar.inv_mass_at() + b] += JTb.segment<3>(6 * b).dot(f.segment<3>(6 * b));
    Eigen::Map<Mat3>(&ybar.y[ybar.inv_inertia_at() + 9 * b]) +=
        JTb.segment<3>(6 * b + 3) * f.segment<3>(6 * b + 3).transpose();
  }

  // ---- 5. pull-back through the step's data ----
  // State and controls: exact, one dual-number pass of the forward code per
  // input (StepProblem::evaluate_tangent), or central differences
  // (adjoint.pullback_derivative=differences). Parameters: central differences.
  const Real eps = options.step_for(1e-8);
  const int rows_begin = ybar.rows_at() + 12 * off, rows_end = ybar.bias_at();
  auto project = [&](VecX& d, bool state_column) {
    if (d.size() != ybar.size())
      throw std::runtime_error("adjoint: the step's rows changed under a perturbation");
    if (state_column && options.truncated) {
      // Contact geometry held fixed: contact rows of J and their biases do not move.
      d.segment(rows_begin, rows_end - rows_begin).setZero();
      d.segment(ybar.bias_at() + off, 3 * nc).setZero();
    }
    return ybar.y.dot(d);
  };
  auto column_dot = [&](bool state_column) {
    if (yplus_.size() != ybar.size() || yminus_.size() != ybar.size())
      throw std::runtime_error("adjoint: the step's rows changed under a perturbation");
    VecX d = (yplus_.y - yminus_.y) / (2 * eps);
    return project(d, state_column);
  };
  // The derivative of y along a seed of the state (12 per body) or of the controls.
  auto seeded = [&](const Real* seed, const Real* ctrl_seed, bool state_column) {
    if (!step.evaluate_tangent(model, seed, ctrl_seed, options.step_for(1e-8), ytan_value_, ytan_))
      ++report_.differenced_seeds;
    return project(ytan_.y, state_column);
  };
  const bool exact = options.exact_pullback;
  report_.differenced_seeds = 0;
  VecX delta = VecX::Zero(12 * nb);
  for (int b = 0; b < nb; ++b) {
    if (model.bodies[b].fixed) continue;
    for (int i = 0; i < 12; ++i) {
      Real value;
      if (exact) {
        delta[12 * b + i] = 1;
        value = seeded(delta.data(), nullptr, true);
      } else {
        delta[12 * b + i] = eps;
        step.evaluate(model, delta.data(), nullptr, yplus_);
        delta[12 * b + i] = -eps;
        step.evaluate(model, delta.data(), nullptr, yminus_);
        value = column_dot(true);
      }
      delta[12 * b + i] = 0;
      BodyCotangent& c = before[b];
      (i < 3 ? c.x : i < 6 ? c.theta : i < 9 ? c.v : c.w)[i % 3] += value;
    }
  }
  const int na = static_cast<int>(model.actuators.size());
  if (ctrl_bar.size() != na) ctrl_bar = VecX::Zero(na);
  std::vector<Real> ctrl = step.inputs().ctrl;
  std::vector<Real> ctrl_seed(na, 0.0);
  for (int a = 0; a < na; ++a) {
    if (exact) {
      ctrl_seed[a] = 1;
      ctrl_bar[a] += seeded(nullptr, ctrl_seed.data(), false);
      ctrl_seed[a] = 0;
      continue;
    }
    const Real c0 = ctrl[a];
    ctrl[a] = c0 + eps;
    step.evaluate(model, nullptr, ctrl.data(), yplus_);
    ctrl[a] = c0 - eps;
    step.evaluate(model, nullptr, ctrl.data(), yminus_);
    ctrl[a] = c0;
    ctrl_bar[a] += column_dot(false);
  }
  if (param_bar.size() != static_cast<int>(params.size())) param_bar = VecX::Zero(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    Model plus_model = model, minus_model = model;
    perturb_model(params[i], eps, plus_model);
    perturb_model(params[i], -eps, minus_model);
    step.evaluate(plus_model, nullptr, nullptr, yplus_);
    step.evaluate(minus_model, nullptr, nullptr, yminus_);
    param_bar[i] += column_dot(false);
  }
  // Leave the scratch at the recorded inputs.
  step.evaluate(model, nullptr, nullptr, yminus_);
}

void MoreauStepAdjoint::backward(const StepRecord& record, StepCotangents& io) {
  // The record's inputs are (q_k, u_k); the velocity phases ran from the
  // midpoint q_m = q_k + (h/2) u_k with u_k, and the recorded contacts are q_m's.
  const Model& model = *context_model_;
  const int nb = model.num_bodies();
  const Real half = 0.5 * h_;
  mid_.inputs.ctrl = record.inputs.ctrl;
  mid_.inputs.contacts = record.inputs.contacts;
  mid_.inputs.bodies = record.inputs.bodies;
  mid_.lambda = record.lambda;
  mid_.after = record.after;
  for (int b = 0; b < nb; ++b) {
    if (model.bodies[b].fixed) continue;
    RigidState& s = mid_.inputs.bodies[b];
    moreau_drift(s.x, s.q, s.v, s.w, half);
  }
  // Through the velocity phases (second drift over h/2, solve, step data at
  // q_m): the cotangent of (x_m, q_m, u_k) in `mid_bar_`.
  StepCotangents mid_io{io.after, mid_bar_, io.ctrl, io.params};
  velocity_.backward(mid_, mid_io);
  // Through the first drift x_m = x_k + (h/2) v_k, q_m = Exp((h/2) w_k) q_k.
  io.before.assign(nb, BodyCotangent{});
  for (int b = 0; b < nb; ++b) {
    const BodyCotangent& m = mid_bar_[b];
    BodyCotangent& c = io.before[b];
    if (model.bodies[b].fixed) {
      c = m;
      continue;
    }
    const Vec3 w = record.inputs.bodies[b].w;
    c.x = m.x;
    c.v = m.v + half * m.x;
    const Mat3 E = integrate_quaternion(Quat::Identity(), w, half).toRotationMatrix();
    c.theta = E.transpose() * m.theta;
    c.w = m.w + half * (so3_left_jacobian(half * w).transpose() * m.theta);
  }
}

void QuasiDynamicStepAdjoint::record_before(const Model& model, const Data& data, StepRecord& record) const {
  // The step drops the velocities before it (scheme.drop=all): record what it uses.
  velocity_.record_before(model, data, record);
  if (scheme_.drop == QuasiDynamicOptions::kDropAll)
    for (RigidState& b : record.inputs.bodies) b.v = b.w = Vec3::Zero();
}

void QuasiDynamicStepAdjoint::backward(const StepRecord& record, StepCotangents& io) {
  velocity_.backward(record, io);
  if (scheme_.drop == QuasiDynamicOptions::kDropAll)
    for (BodyCotangent& c : io.before) c.v = c.w = Vec3::Zero();
}

}  // namespace contactlab
