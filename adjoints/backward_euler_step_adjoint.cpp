#include "adjoints/backward_euler_step_adjoint.hpp"

#include <Eigen/LU>
#include <chrono>
#include <stdexcept>

#include "core/assembly.hpp"

namespace contactlab {

void BackwardEulerStepAdjoint::evaluate(const Model& model, const Real* dx, const Real* ctrl, const VecX& delta,
                                        const VecX& lambda, Evaluation& out) {
  const int nb = model.num_bodies();
  Data& d = base_;
  load_perturbed_inputs(model, *inputs_, dx, ctrl, d);
  contacts_.evaluate(model, d);

  // The scheme's linearised prepare (full correction, no slop, no
  // restitution), without the narrow phase.
  compute_free_velocity(model, d, h_, scheme_.gyroscopic);
  RowBiasOptions full;
  full.baumgarte = full.limit_baumgarte = 1;
  full.contact_baumgarte = law_->penetration_recovery(1);
  full.contact_slop = 0;
  full.restitution_override = 0;
  assemble_problem(model, d, h_, full);

  rows_.model = &model;
  rows_.base = &d;
  rows_.h = h_;
  rows_.jacobian_at_q_plus = scheme_.jacobian_at_q_plus;
  rows_.at.contacts = d.contacts;
  rows_.at.u_free.resize(d.u_free.size());
  rows_.at.ctrl = d.ctrl;
  rows_.setup();
  const ConstraintProblem& p = d.problem;
  const int m = p.num_rows();
  if (lambda.size() != m || delta.size() != 6 * nb)
    throw std::runtime_error("backward_euler adjoint: the step's rows changed (contact set or sizes)");
  VecX w(m);
  rows_.evaluate(delta.data(), w.data(), jd_);

  at_ = p;
  at_.rows = jd_;
  at_.nonlinear_rows = nullptr;
  VecX f = VecX::Zero(6 * nb);
  at_.apply_JT(lambda.data(), f.data());
  at_.apply_Minv(f.data(), f.data());
  out.E = delta - f;
  out.W = w;
  for (int r = 0; r < m; ++r) out.W[r] += p.compliance[r] * lambda[r];
  out.u_free = Eigen::Map<const VecX>(d.u_free.data(), 6 * nb);
}

void BackwardEulerStepAdjoint::backward(const Model& model, const ContactModel& law,
                                        const BackwardEulerOptions& scheme, Real h, const StepInputs& inputs,
                                        const std::vector<Real>& lambda_in, const std::vector<RigidState>& after,
                                        const std::vector<BodyCotangent>& after_bar,
                                        const std::vector<GradInput>& params, std::vector<BodyCotangent>& before_bar,
                                        VecX& ctrl_bar, VecX& param_bar) {
  law_ = &law;
  scheme_ = scheme;
  h_ = h;
  inputs_ = &inputs;
  const int nb = model.num_bodies(), n6 = 6 * nb;
  if (!base_ready_) {
    base_.init(model);
    rows_.at.init(model);
    base_ready_ = true;
  }
  // The recorded contacts, carried to perturbed poses.
  for (int b = 0; b < nb; ++b) {
    base_.x_W[b] = inputs.bodies[b].x;
    base_.q_WB[b] = inputs.bodies[b].q;
  }
  base_.contacts = inputs.contacts;
  contacts_.capture(model, base_, scheme.contact_margin);

  const VecX lambda = Eigen::Map<const VecX>(lambda_in.data(), lambda_in.size());
  const Real eps = options.step_for(1e-6);

  // delta* = u+ - u_free.
  Evaluation e0;
  evaluate(model, nullptr, nullptr, VecX::Zero(n6), lambda, e0);
  VecX u_plus = VecX::Zero(n6);
  for (int b = 0; b < nb; ++b) {
    if (model.bodies[b].fixed) continue;
    u_plus.segment<3>(6 * b) = after[b].v;
    u_plus.segment<3>(6 * b + 3) = after[b].w;
  }
  const VecX delta = u_plus - e0.u_free;
  evaluate(model, nullptr, nullptr, delta, lambda, e0);
  const ConstraintProblem& p = base_.problem;
  const int m = p.num_rows(), nc = p.num_contacts;
  // E_lambda = -M^-1 J_d^T (exact), R, mu and the row layout at the solution.
  MatX E_lambda(n6, m);
  {
    VecX unit = VecX::Zero(m), col(n6);
    for (int r = 0; r < m; ++r) {
      unit[r] = 1;
      col.setZero();
      at_.apply_JT(unit.data(), col.data());
      at_.apply_Minv(col.data(), col.data());
      E_lambda.col(r) = -col;
      unit[r] = 0;
    }
  }
  LocalProblem local;
  local.num_bilateral = p.num_bilateral;
  local.num_limit = p.num_limit;
  local.num_contacts = nc;
  local.mu = Eigen::Map<const VecX>(p.mu.data(), nc);
  const VecX R = Eigen::Map<const VecX>(p.compliance.data(), m);
  const VecX sigma = e0.W;

  // Integrator (as the velocity scheme: x+ = x- + h v+, q+ = Exp(h w+) q-).
  before_bar.assign(nb, BodyCotangent{});
  VecX u_bar = VecX::Zero(n6);
  for (int b = 0; b < nb; ++b) {
    if (model.bodies[b].fixed) continue;
    const BodyCotangent& a = after_bar[b];
    const Vec3& w_plus = after[b].w;
    u_bar.segment<3>(6 * b) = a.v + h * a.x;
    u_bar.segment<3>(6 * b + 3) = a.w + h * (so3_left_jacobian(h * w_plus).transpose() * a.theta);
    before_bar[b].x += a.x;
    before_bar[b].theta += integrate_quaternion(Quat::Identity(), w_plus, h).toRotationMatrix().transpose() * a.theta;
  }

  Evaluation ep, em;
  VecX b_bar, mu_bar, zt;
  if (options.geometric_stiffness) {
    // E_delta, W_delta by central differences at the solution.
    MatX E_delta(n6, n6), W_delta(m, n6);
    VecX dd = delta;
    for (int i = 0; i < n6; ++i) {
      dd[i] = delta[i] + eps;
      evaluate(model, nullptr, nullptr, dd, lambda, ep);
      dd[i] = delta[i] - eps;
      evaluate(model, nullptr, nullptr, dd, lambda, em);
      dd[i] = delta[i];
      E_delta.col(i) = (ep.E - em.E) / (2 * eps);
      W_delta.col(i) = (ep.W - em.W) / (2 * eps);
    }
    const Eigen::PartialPivLU<MatX> E_lu(E_delta);
    local.A = MatX(R.asDiagonal()) - W_delta * E_lu.solve(E_lambda);
    local.b = sigma - local.A * lambda;
    sensitivity_.linearise(local, lambda, options.sensitivity);
    report_ = &sensitivity_.report();
    const VecX z = -VecX(E_lu.transpose().solve(u_bar));
    const VecX lambda_bar = E_lambda.transpose() * z;
    sensitivity_.vjp(lambda_bar, VecX::Zero(m), b_bar, nullptr, nc > 0 ? &mu_bar : nullptr);
    const VecX Wt_b = W_delta.transpose() * b_bar;
    zt = z - VecX(E_lu.transpose().solve(Wt_b));
  } else {
    // Ostrich's adjoint (MATH.md D.1 eqs. 18-19): E_delta = I and W_delta =
    // J_d, the forward Newton's own linearisation (the geometric stiffness
    // d(J^T lambda)/du+ and the rows' second-order motion dropped), so the
    // local problem is the forward's Schur system A = J_d M^-1 J_d^T + R and
    // the solve adjoint paired with the forward solver answers it (newton:
    // one PCR). No E_delta, W_delta columns are evaluated.
    ConstraintProblem& q = at_;
    q.v_free.resize(m);
    VecX A_lambda(m);
    std::vector<Real> scratch(n6);
    q.apply_delassus(lambda.data(), A_lambda.data(), scratch.data());
    for (int r = 0; r < m; ++r) q.v_free[r] = sigma[r] - A_lambda[r];
    if (!solve_) solve_ = make_reference_solve_adjoint();
    const auto solve_start = std::chrono::steady_clock::now();
    solve_->krylov = options.krylov;
    solve_->linearise(q, law, lambda, options.sensitivity);
    report_ = &solve_->report();
    const VecX z = -u_bar;
    const VecX lambda_bar = E_lambda.transpose() * z;  // J_d M^-1 u+_bar
    solve_->vjp(u_bar, lambda_bar, b_bar, mu_bar);
    last_solve_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - solve_start).count();
    VecX JTb = VecX::Zero(n6);
    q.apply_JT(b_bar.data(), JTb.data());
    zt = z - JTb;
  }

  // The inputs, by central differences at fixed (delta*, lambda*). Friction
  // enters through the law only: mu_bar against the contacts' mu.
  auto column = [&](const Evaluation& plus, const Evaluation& minus, const VecX* mu_plus, const VecX* mu_minus) {
    Real v = (zt.dot(plus.E - minus.E) + u_bar.dot(plus.u_free - minus.u_free) + b_bar.dot(plus.W - minus.W)) /
             (2 * eps);
    if (mu_plus && nc > 0) v += mu_bar.dot(*mu_plus - *mu_minus) / (2 * eps);
    return v;
  };
  VecX dx = VecX::Zero(12 * nb);
  for (int b = 0; b < nb; ++b) {
    if (model.bodies[b].fixed) continue;
    for (int i = 0; i < 12; ++i) {
      dx[12 * b + i] = eps;
      evaluate(model, dx.data(), nullptr, delta, lambda, ep);
      dx[12 * b + i] = -eps;
      evaluate(model, dx.data(), nullptr, delta, lambda, em);
      dx[12 * b + i] = 0;
      BodyCotangent& c = before_bar[b];
      (i < 3 ? c.x : i < 6 ? c.theta : i < 9 ? c.v : c.w)[i % 3] += column(ep, em, nullptr, nullptr);
    }
  }
  const int na = static_cast<int>(model.actuators.size());
  if (ctrl_bar.size() != na) ctrl_bar = VecX::Zero(na);
  std::vector<Real> ctrl = inputs.ctrl;
  for (int a = 0; a < na; ++a) {
    const Real c0 = ctrl[a];
    ctrl[a] = c0 + eps;
    evaluate(model, nullptr, ctrl.data(), delta, lambda, ep);
    ctrl[a] = c0 - eps;
    evaluate(model, nullptr, ctrl.data(), delta, lambda, em);
    ctrl[a] = c0;
    ctrl_bar[a] += column(ep, em, nullptr, nullptr);
  }
  if (param_bar.size() != static_cast<int>(params.size())) param_bar = VecX::Zero(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    Model plus_model = model, minus_model = model;
    perturb_model(params[i], eps, plus_model);
    perturb_model(params[i], -eps, minus_model);
    evaluate(plus_model, nullptr, nullptr, delta, lambda, ep);
    const VecX mu_plus = Eigen::Map<const VecX>(base_.problem.mu.data(), nc);
    evaluate(minus_model, nullptr, nullptr, delta, lambda, em);
    const VecX mu_minus = Eigen::Map<const VecX>(base_.problem.mu.data(), nc);
    param_bar[i] += column(ep, em, &mu_plus, &mu_minus);
  }
}

}  // namespace contactlab
