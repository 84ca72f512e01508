#include "adjoints/backward_euler_step_adjoint.hpp"

#include <Eigen/LU>
#include <chrono>
#include <stdexcept>

#include "schemes/assembly.hpp"

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
  const RowBiasOptions full = full_correction_bias(law_->penetration_recovery(1));
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

namespace {

// J u over dual rows (u: 6 nb).
void apply_J_dual(const std::vector<ConstraintRowT<Dual>>& rows, const std::vector<Dual>& u, std::vector<Dual>& y) {
  y.resize(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    Dual acc(0.0);
    if (rows[r].body_a >= 0) acc += rows[r].J_a.dot(Eigen::Map<const Vec6T<Dual>>(&u[6 * rows[r].body_a]));
    if (rows[r].body_b >= 0) acc += rows[r].J_b.dot(Eigen::Map<const Vec6T<Dual>>(&u[6 * rows[r].body_b]));
    y[r] = acc;
  }
}

}  // namespace

bool BackwardEulerStepAdjoint::evaluate_tangent(const Model& model, const Real* seed, const Real* ctrl_seed,
                                                const Real* delta_seed, const VecX& delta, const VecX& lambda, Real eps,
                                                Evaluation& value, Evaluation& tangent) {
  const int nb = model.num_bodies(), n6 = 6 * nb;
  load_seeded_inputs(model, *inputs_, seed, ctrl_seed, dual_inputs_);
  const std::vector<Dual>& ctrl_d_ = dual_inputs_.ctrl;
  const BodyStatesT<Dual> s0 = dual_inputs_.states();
  const std::vector<Vec3T<Dual>>&x0_ = dual_inputs_.x, &v0_ = dual_inputs_.v, &w0_ = dual_inputs_.w;
  const std::vector<QuatT<Dual>>& q0_ = dual_inputs_.q;
  for (auto* v : {&xk_, &vk_, &wk_}) v->resize(nb);
  qk_.resize(nb);

  // Contacts at q-: the narrow phase over dual numbers (differences where it searches).
  auto difference = [&](int sign, std::vector<Contact>& out) {
    contacts_along(model, *inputs_, seed, ctrl_seed, sign * eps, contacts_, base_, out);
  };
  const bool exact = contacts_.evaluate_dual(model, s0, eps, difference, contacts0_d_);

  // The scheme's linearised prepare at q- (as evaluate()).
  FreeVelocityT<Dual> fv{u_free_d_, inv_mass_d_, inv_inertia_d_, wrench_d_};
  free_velocity_t<Dual>(model, s0, ctrl_d_, h_, scheme_.gyroscopic, fv);
  const RowBiasOptions full0 = full_correction_bias(law_->penetration_recovery(1));
  RowsT<Dual> rows0{rows0_d_, compliance0_d_, mu0_d_, bias0_d_, [&](int, int bilateral, int limits, int nc) {
                      rows0_d_.assign(bilateral + limits + 3 * nc, ConstraintRowT<Dual>{});
                      compliance0_d_.assign(rows0_d_.size(), Dual(0.0));
                      mu0_d_.assign(nc, Dual(0.0));
                    }};
  assemble_rows_t<Dual>(model, s0, ctrl_d_, contacts0_d_, u_free_d_, h_, full0, rows0);
  const int m = static_cast<int>(rows0_d_.size());

  // The rows at q+ = q- + h G u+ (BackwardEulerRows::evaluate over dual numbers).
  std::vector<Dual> u(n6);
  std::vector<Dual> dd(n6);
  for (int i = 0; i < n6; ++i) dd[i] = Dual(delta[i], delta_seed ? delta_seed[i] : 0.0);
  for (int i = 0; i < n6; ++i) u[i] = u_free_d_[i] + dd[i];
  for (int b = 0; b < nb; ++b) {
    xk_[b] = x0_[b];
    qk_[b] = q0_[b];
    vk_[b] = v0_[b];
    wk_[b] = w0_[b];
    if (model.bodies[b].fixed) continue;
    const Vec3T<Dual> v(u[6 * b], u[6 * b + 1], u[6 * b + 2]);
    const Vec3T<Dual> om(u[6 * b + 3], u[6 * b + 4], u[6 * b + 5]);
    xk_[b] = x0_[b] + Dual(h_) * v;
    qk_[b] = integrate_quaternion_t<Dual>(q0_[b], om, Dual(h_));
    vk_[b] = v;
    wk_[b] = om;
  }
  const BodyStatesT<Dual> sk{xk_, qk_, vk_, wk_};
  motion_d_.options = rows_.contacts.options;
  motion_d_.capture(model, s0, contacts0_d_);
  motion_d_.evaluate(model, sk, contactsk_d_);
  const RowBiasOptions fullk = full_correction_bias(1);
  zero_d_.assign(n6, Dual(0.0));
  RowsT<Dual> rowsk{rowsk_d_, compliancek_d_, muk_d_, biask_d_, [&](int, int bilateral, int limits, int nc) {
                      rowsk_d_.assign(bilateral + limits + 3 * nc, ConstraintRowT<Dual>{});
                      compliancek_d_.assign(rowsk_d_.size(), Dual(0.0));
                      muk_d_.assign(nc, Dual(0.0));
                    }};
  assemble_rows_t<Dual>(model, sk, ctrl_d_, contactsk_d_, zero_d_, h_, fullk, rowsk);
  if (static_cast<int>(rowsk_d_.size()) != m || lambda.size() != m)
    throw std::runtime_error("backward_euler adjoint: the step's rows changed (contact set or sizes)");
  const ConstraintProblem& p0 = base_problem_rows_;
  std::vector<Dual> Ju;
  apply_J_dual(rowsk_d_, u, Ju);
  std::vector<Dual> w(m);
  for (int r = 0; r < m; ++r) w[r] = BackwardEulerRows::position_row(p0, r) ? biask_d_[r] : Ju[r] + bias0_d_[r];
  // The rows the impulses act along.
  std::vector<ConstraintRowT<Dual>> jd = scheme_.jacobian_at_q_plus ? rowsk_d_ : rows0_d_;
  if (scheme_.jacobian_at_q_plus) {
    std::vector<Mat3T<Dual>> turn(nb);
    for (int b = 0; b < nb; ++b) turn[b] = so3_left_jacobian_t<Dual>(Vec3T<Dual>(Dual(h_) * wk_[b])).transpose();
    for (int r = 0; r < m; ++r) {
      if (!BackwardEulerRows::position_row(p0, r)) continue;
      ConstraintRowT<Dual>& row = jd[r];
      if (row.body_a >= 0) row.J_a.tail<3>() = turn[row.body_a] * row.J_a.tail<3>();
      if (row.body_b >= 0) row.J_b.tail<3>() = turn[row.body_b] * row.J_b.tail<3>();
    }
  }
  // E = delta - M^-1 J_d^T lambda, W = w + R lambda.
  std::vector<Dual> f(n6, Dual(0.0));
  for (int r = 0; r < m; ++r) {
    const Dual l(lambda[r]);
    if (jd[r].body_a >= 0) Eigen::Map<Vec6T<Dual>>(&f[6 * jd[r].body_a]) += jd[r].J_a * l;
    if (jd[r].body_b >= 0) Eigen::Map<Vec6T<Dual>>(&f[6 * jd[r].body_b]) += jd[r].J_b * l;
  }
  for (Evaluation* e : {&value, &tangent}) {
    e->E.resize(n6);
    e->W.resize(m);
    e->u_free.resize(n6);
  }
  for (int b = 0; b < nb; ++b) {
    const Vec3T<Dual> lin = inv_mass_d_[b] * Eigen::Map<const Vec3T<Dual>>(&f[6 * b]);
    const Vec3T<Dual> ang = inv_inertia_d_[b] * Eigen::Map<const Vec3T<Dual>>(&f[6 * b + 3]);
    for (int c = 0; c < 3; ++c) {
      const Dual e_lin = dd[6 * b + c] - lin[c], e_ang = dd[6 * b + 3 + c] - ang[c];
      value.E[6 * b + c] = e_lin.v;
      tangent.E[6 * b + c] = e_lin.d;
      value.E[6 * b + 3 + c] = e_ang.v;
      tangent.E[6 * b + 3 + c] = e_ang.d;
    }
  }
  for (int r = 0; r < m; ++r) {
    const Dual wr = w[r] + compliance0_d_[r] * Dual(lambda[r]);
    value.W[r] = wr.v;
    tangent.W[r] = wr.d;
  }
  for (int i = 0; i < n6; ++i) {
    value.u_free[i] = u_free_d_[i].v;
    tangent.u_free[i] = u_free_d_[i].d;
  }
  return exact;
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
  base_problem_rows_ = base_.problem;  // the row layout and compliances, for evaluate_tangent
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
    // E_delta, W_delta: exact (dual numbers along each delta), or central
    // differences with adjoint.pullback_derivative=differences.
    MatX E_delta(n6, n6), W_delta(m, n6);
    VecX dd = delta;
    for (int i = 0; i < n6; ++i) {
      if (options.exact_pullback) {
        dd.setZero();
        dd[i] = 1;
        evaluate_tangent(model, nullptr, nullptr, dd.data(), delta, lambda, eps, ep, em);
        E_delta.col(i) = em.E;
        W_delta.col(i) = em.W;
        continue;
      }
      dd[i] = delta[i] + eps;
      evaluate(model, nullptr, nullptr, dd, lambda, ep);
      dd[i] = delta[i] - eps;
      evaluate(model, nullptr, nullptr, dd, lambda, em);
      dd[i] = delta[i];
      E_delta.col(i) = (ep.E - em.E) / (2 * eps);
      W_delta.col(i) = (ep.W - em.W) / (2 * eps);
    }
    const Eigen::PartialPivLU<MatX> E_lu(E_delta);
    // Without rows A stays empty: Eigen's triangular solve binds a reference
    // to coeff (0, 0) of the right-hand side, undefined when E_lambda has no
    // columns (UBSan).
    if (m > 0) local.A = MatX(R.asDiagonal()) - W_delta * E_lu.solve(E_lambda);
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
  // State and controls: exact (dual numbers through the scheme's own
  // evaluation), or central differences (adjoint.pullback_derivative=differences).
  Evaluation value, tangent;
  auto seeded = [&](const Real* seed, const Real* ctrl_seed) {
    evaluate_tangent(model, seed, ctrl_seed, nullptr, delta, lambda, eps, value, tangent);
    return zt.dot(tangent.E) + u_bar.dot(tangent.u_free) + b_bar.dot(tangent.W);
  };
  VecX dx = VecX::Zero(12 * nb);
  for (int b = 0; b < nb; ++b) {
    if (model.bodies[b].fixed) continue;
    for (int i = 0; i < 12; ++i) {
      BodyCotangent& c = before_bar[b];
      Real v;
      if (options.exact_pullback) {
        dx[12 * b + i] = 1;
        v = seeded(dx.data(), nullptr);
      } else {
        dx[12 * b + i] = eps;
        evaluate(model, dx.data(), nullptr, delta, lambda, ep);
        dx[12 * b + i] = -eps;
        evaluate(model, dx.data(), nullptr, delta, lambda, em);
        v = column(ep, em, nullptr, nullptr);
      }
      dx[12 * b + i] = 0;
      (i < 3 ? c.x : i < 6 ? c.theta : i < 9 ? c.v : c.w)[i % 3] += v;
    }
  }
  const int na = static_cast<int>(model.actuators.size());
  if (ctrl_bar.size() != na) ctrl_bar = VecX::Zero(na);
  std::vector<Real> ctrl = inputs.ctrl;
  std::vector<Real> ctrl_seed(na, 0.0);
  for (int a = 0; a < na; ++a) {
    if (options.exact_pullback) {
      ctrl_seed[a] = 1;
      ctrl_bar[a] += seeded(nullptr, ctrl_seed.data());
      ctrl_seed[a] = 0;
      continue;
    }
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
