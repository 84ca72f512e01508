#include "adjoints/backward_euler_step_adjoint.hpp"

#include <Eigen/LU>
#include <chrono>
#include <stdexcept>

#include "schemes/assembly.hpp"

namespace contactlab {

void BackwardEulerStepAdjoint::evaluate(const Model& model, const Real* dx, const Real* ctrl, const VecX& delta,
                                        const VecX& lambda, Evaluation& out) {
  Workspace& ws = *ws_;
  const int nb = model.num_bodies();
  Data& d = ws.base;
  load_perturbed_inputs(model, *inputs_, dx, ctrl, d);
  ws.contacts.evaluate(model, d);

  // The scheme's linearised prepare (full correction, no slop, no
  // restitution), without the narrow phase.
  compute_free_velocity(model, d, ctx_.h, scheme_.gyroscopic);
  const RowBiasOptions full = full_correction_bias(ctx_.law->penetration_recovery(1));
  assemble_problem(model, d, ctx_.h, full);

  ws.rows.model = &model;
  ws.rows.base = &d;
  ws.rows.h = ctx_.h;
  ws.rows.jacobian_at_q_plus = scheme_.jacobian_at_q_plus;
  ws.rows.at.contacts = d.contacts;
  ws.rows.at.u_free.resize(d.u_free.size());
  ws.rows.at.ctrl = d.ctrl;
  ws.rows.setup();
  const ConstraintProblem& p = d.problem;
  const int m = p.num_rows();
  if (lambda.size() != m || delta.size() != 6 * nb)
    throw std::runtime_error("backward_euler adjoint: the step's rows changed (contact set or sizes)");
  VecX w(m);
  ws.rows.evaluate(delta.data(), w.data(), ws.jd);

  ws.at = p;
  ws.at.rows = ws.jd;
  ws.at.nonlinear_rows = nullptr;
  VecX f = VecX::Zero(6 * nb);
  ws.at.apply_JT(lambda.data(), f.data());
  ws.at.apply_Minv(f.data(), f.data());
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
  Workspace& ws = *ws_;
  const int nb = model.num_bodies(), n6 = 6 * nb;
  load_seeded_inputs(model, *inputs_, seed, ctrl_seed, ws.dual_inputs);
  const std::vector<Dual>& ctrl_d_ = ws.dual_inputs.ctrl;
  const BodyStatesT<Dual> s0 = ws.dual_inputs.states();
  const std::vector<Vec3T<Dual>>&x0_ = ws.dual_inputs.x, &v0_ = ws.dual_inputs.v, &w0_ = ws.dual_inputs.w;
  const std::vector<QuatT<Dual>>& q0_ = ws.dual_inputs.q;
  for (auto* v : {&ws.xk, &ws.vk, &ws.wk}) v->resize(nb);
  ws.qk.resize(nb);

  // Contacts at q-: the narrow phase over dual numbers (differences where it searches).
  auto difference = [&](int sign, std::vector<Contact>& out) {
    contacts_along(model, *inputs_, seed, ctrl_seed, sign * eps, ws.contacts, ws.base, out);
  };
  const bool exact = ws.contacts.evaluate_dual(model, s0, eps, difference, ws.contacts0_d);

  // The scheme's linearised prepare at q- (as evaluate()).
  FreeVelocityT<Dual> fv{ws.u_free_d, ws.inv_mass_d, ws.inv_inertia_d, ws.wrench_d};
  free_velocity_t<Dual>(model, s0, ctrl_d_, ctx_.h, scheme_.gyroscopic, fv);
  const RowBiasOptions full0 = full_correction_bias(ctx_.law->penetration_recovery(1));
  RowsT<Dual> rows0{ws.rows0_d, ws.compliance0_d, ws.mu0_d, ws.bias0_d, [&](int, int bilateral, int limits, int nc) {
                      ws.rows0_d.assign(bilateral + limits + 3 * nc, ConstraintRowT<Dual>{});
                      ws.compliance0_d.assign(ws.rows0_d.size(), Dual(0.0));
                      ws.mu0_d.assign(nc, Dual(0.0));
                    }};
  assemble_rows_t<Dual>(model, s0, ctrl_d_, ws.contacts0_d, ws.u_free_d, ctx_.h, full0, rows0);
  const int m = static_cast<int>(ws.rows0_d.size());

  // The rows at q+ = q- + h G u+ (BackwardEulerRows::evaluate over dual numbers).
  std::vector<Dual> u(n6);
  std::vector<Dual> dd(n6);
  for (int i = 0; i < n6; ++i) dd[i] = Dual(delta[i], delta_seed ? delta_seed[i] : 0.0);
  for (int i = 0; i < n6; ++i) u[i] = ws.u_free_d[i] + dd[i];
  for (int b = 0; b < nb; ++b) {
    ws.xk[b] = x0_[b];
    ws.qk[b] = q0_[b];
    ws.vk[b] = v0_[b];
    ws.wk[b] = w0_[b];
    if (model.bodies[b].fixed) continue;
    const Vec3T<Dual> v(u[6 * b], u[6 * b + 1], u[6 * b + 2]);
    const Vec3T<Dual> om(u[6 * b + 3], u[6 * b + 4], u[6 * b + 5]);
    ws.xk[b] = x0_[b] + Dual(ctx_.h) * v;
    ws.qk[b] = integrate_quaternion_t<Dual>(q0_[b], om, Dual(ctx_.h));
    ws.vk[b] = v;
    ws.wk[b] = om;
  }
  const BodyStatesT<Dual> sk{ws.xk, ws.qk, ws.vk, ws.wk};
  ws.motion_d.options = ws.rows.contacts.options;
  ws.motion_d.capture(model, s0, ws.contacts0_d);
  ws.motion_d.evaluate(model, sk, ws.contactsk_d);
  const RowBiasOptions fullk = full_correction_bias(1);
  ws.zero_d.assign(n6, Dual(0.0));
  RowsT<Dual> rowsk{ws.rowsk_d, ws.compliancek_d, ws.muk_d, ws.biask_d, [&](int, int bilateral, int limits, int nc) {
                      ws.rowsk_d.assign(bilateral + limits + 3 * nc, ConstraintRowT<Dual>{});
                      ws.compliancek_d.assign(ws.rowsk_d.size(), Dual(0.0));
                      ws.muk_d.assign(nc, Dual(0.0));
                    }};
  assemble_rows_t<Dual>(model, sk, ctrl_d_, ws.contactsk_d, ws.zero_d, ctx_.h, fullk, rowsk);
  if (static_cast<int>(ws.rowsk_d.size()) != m || lambda.size() != m)
    throw std::runtime_error("backward_euler adjoint: the step's rows changed (contact set or sizes)");
  const ConstraintProblem& p0 = ws.base_problem_rows;
  std::vector<Dual> Ju;
  apply_J_dual(ws.rowsk_d, u, Ju);
  std::vector<Dual> w(m);
  for (int r = 0; r < m; ++r) w[r] = BackwardEulerRows::position_row(p0, r) ? ws.biask_d[r] : Ju[r] + ws.bias0_d[r];
  // The rows the impulses act along.
  std::vector<ConstraintRowT<Dual>> jd = scheme_.jacobian_at_q_plus ? ws.rowsk_d : ws.rows0_d;
  if (scheme_.jacobian_at_q_plus) {
    std::vector<Mat3T<Dual>> turn(nb);
    for (int b = 0; b < nb; ++b) turn[b] = so3_left_jacobian_t<Dual>(Vec3T<Dual>(Dual(ctx_.h) * ws.wk[b])).transpose();
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
    const Vec3T<Dual> lin = ws.inv_mass_d[b] * Eigen::Map<const Vec3T<Dual>>(&f[6 * b]);
    const Vec3T<Dual> ang = ws.inv_inertia_d[b] * Eigen::Map<const Vec3T<Dual>>(&f[6 * b + 3]);
    for (int c = 0; c < 3; ++c) {
      const Dual e_lin = dd[6 * b + c] - lin[c], e_ang = dd[6 * b + 3 + c] - ang[c];
      value.E[6 * b + c] = e_lin.v;
      tangent.E[6 * b + c] = e_lin.d;
      value.E[6 * b + 3 + c] = e_ang.v;
      tangent.E[6 * b + 3 + c] = e_ang.d;
    }
  }
  for (int r = 0; r < m; ++r) {
    const Dual wr = w[r] + ws.compliance0_d[r] * Dual(lambda[r]);
    value.W[r] = wr.v;
    tangent.W[r] = wr.d;
  }
  for (int i = 0; i < n6; ++i) {
    value.u_free[i] = ws.u_free_d[i].v;
    tangent.u_free[i] = ws.u_free_d[i].d;
  }
  return exact;
}

std::string BackwardEulerStepAdjoint::solve_method() const {
  if (ctx_.options.geometric_stiffness) return "backward_euler (dense)";
  return ctx_.solve ? ctx_.solve->name() : "reference";
}

void BackwardEulerStepAdjoint::begin(StepAdjointContext context) {
  ctx_ = std::move(context);
  if (!ctx_.model || !ctx_.law || !ctx_.params)
    throw std::invalid_argument("backward_euler step adjoint: incomplete context");
  // The rows are evaluated at q+ through ContactRedetection; freezing their
  // geometry is not implemented here, and running the full pull-back under
  // that name would pass one gradient off as the other.
  if (ctx_.options.truncated)
    throw std::invalid_argument(
        "adjoint.pullback=truncated: the backward_euler step adjoint has no truncated pull-back (contact "
        "geometry frozen within the step); it is implemented for the velocity, quasi_dynamic and moreau schemes");
  if (!ctx_.solve) ctx_.solve = make_reference_solve_adjoint();
  ws_ = std::make_unique<Workspace>();
  ws_->base.init(*ctx_.model);
  ws_->rows.at.init(*ctx_.model);
  report_ = StepAdjointReport{};
}

void BackwardEulerStepAdjoint::backward(const StepRecord& record, StepCotangents& io) {
  if (!ws_) throw std::logic_error("backward_euler step adjoint: backward() before begin()");
  Workspace& ws = *ws_;
  const Model& model = *ctx_.model;
  const ContactModel& law = *ctx_.law;
  const StepAdjointOptions& options = ctx_.options;
  const BackwardEulerOptions& scheme = scheme_;
  const Real h = ctx_.h;
  const StepInputs& inputs = record.inputs;
  const std::vector<Real>& lambda_in = record.lambda;
  const std::vector<RigidState>& after = record.after;
  const std::vector<BodyCotangent>& after_bar = io.after;
  const std::vector<GradInput>& params = *ctx_.params;
  std::vector<BodyCotangent>& before_bar = io.before;
  VecX& ctrl_bar = io.ctrl;
  VecX& param_bar = io.params;
  inputs_ = &inputs;
  const int nb = model.num_bodies(), n6 = 6 * nb;
  if (static_cast<int>(after.size()) != nb)
    throw std::runtime_error("backward_euler adjoint: the record holds no state after the step");
  // The recorded contacts, carried to perturbed poses.
  for (int b = 0; b < nb; ++b) {
    ws.base.x_W[b] = inputs.bodies[b].x;
    ws.base.q_WB[b] = inputs.bodies[b].q;
  }
  ws.base.contacts = inputs.contacts;
  ws.contacts.capture(model, ws.base, scheme.contact_margin);

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
  ws.base_problem_rows = ws.base.problem;  // the row layout and compliances, for evaluate_tangent
  const ConstraintProblem& p = ws.base.problem;
  const int m = p.num_rows(), nc = p.num_contacts;
  // E_lambda = -M^-1 J_d^T (exact), R, mu and the row layout at the solution.
  MatX E_lambda(n6, m);
  {
    VecX unit = VecX::Zero(m), col(n6);
    for (int r = 0; r < m; ++r) {
      unit[r] = 1;
      col.setZero();
      ws.at.apply_JT(unit.data(), col.data());
      ws.at.apply_Minv(col.data(), col.data());
      E_lambda.col(r) = -col;
      unit[r] = 0;
    }
  }
  LocalProblem local;
  local.law = &law;
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
    ws.sensitivity.linearise(local, lambda, options.sensitivity);
    report_.fell_back_to_exact = ws.sensitivity.report().fell_back_to_exact;
    report_.solve = nullptr;  // the exact step map's own dense linearisation answered
    const VecX z = -VecX(E_lu.transpose().solve(u_bar));
    const VecX lambda_bar = E_lambda.transpose() * z;
    ws.sensitivity.vjp(lambda_bar, VecX::Zero(m), b_bar, nullptr, nc > 0 ? &mu_bar : nullptr);
    const VecX Wt_b = W_delta.transpose() * b_bar;
    zt = z - VecX(E_lu.transpose().solve(Wt_b));
  } else {
    // Ostrich's adjoint (MATH.md D.1 eqs. 18-19): E_delta = I and W_delta =
    // J_d, the forward Newton's own linearisation (the geometric stiffness
    // d(J^T lambda)/du+ and the rows' second-order motion dropped), so the
    // local problem is the forward's Schur system A = J_d M^-1 J_d^T + R and
    // the solve adjoint paired with the forward solver answers it (newton:
    // one PCR). No E_delta, W_delta columns are evaluated.
    ConstraintProblem& q = ws.at;
    q.v_free.resize(m);
    VecX A_lambda(m);
    std::vector<Real> scratch(n6);
    q.apply_delassus(lambda.data(), A_lambda.data(), scratch.data());
    for (int r = 0; r < m; ++r) q.v_free[r] = sigma[r] - A_lambda[r];
    SolveAdjoint& solve = *ctx_.solve;
    const auto solve_start = std::chrono::steady_clock::now();
    solve.krylov = options.krylov;
    solve.linearise(q, law, lambda, options.sensitivity);
    const VecX z = -u_bar;
    const VecX lambda_bar = E_lambda.transpose() * z;  // J_d M^-1 u+_bar
    solve.vjp(u_bar, lambda_bar, b_bar, mu_bar);
    report_.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - solve_start).count();
    report_.fell_back_to_exact = solve.report().fell_back_to_exact;
    report_.solve = &solve.stats();
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
    const VecX mu_plus = Eigen::Map<const VecX>(ws.base.problem.mu.data(), nc);
    evaluate(minus_model, nullptr, nullptr, delta, lambda, em);
    const VecX mu_minus = Eigen::Map<const VecX>(ws.base.problem.mu.data(), nc);
    param_bar[i] += column(ep, em, &mu_plus, &mu_minus);
  }
}

}  // namespace contactlab
