#include "optimizers/ilqr.hpp"

#include <Eigen/Cholesky>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace contactlab {

namespace {
using Clock = std::chrono::steady_clock;

void check_matrix(const MatX& m, int rows, const char* name) {
  if (m.rows() != rows || m.cols() != rows)
    throw std::invalid_argument(std::string("TrackingCost: ") + name + " must be " + std::to_string(rows) + " x " +
                                std::to_string(rows));
  if (!m.allFinite() || (m - m.transpose()).cwiseAbs().maxCoeff() > 1e-12 * (1 + m.cwiseAbs().maxCoeff()))
    throw std::invalid_argument(std::string("TrackingCost: ") + name + " must be finite and symmetric");
}
}  // namespace

void TrackingCost::Validate(int n, int na, int bodies) const {
  check_matrix(Q, n, "Q");
  check_matrix(Qf, n, "Qf");
  check_matrix(R, na, "R");
  if (Eigen::LLT<MatX>(R).info() != Eigen::Success) throw std::invalid_argument("TrackingCost: R must be positive definite");
  if (static_cast<int>(target.size()) != bodies)
    throw std::invalid_argument("TrackingCost: target has " + std::to_string(target.size()) + " bodies, the model " +
                                std::to_string(bodies));
  if (u_ref.size() != 0 && u_ref.size() != na) throw std::invalid_argument("TrackingCost: u_ref must be empty or (actuators)");
}

Real TrackingCost::stage(const BodyStates& x, const VecX& u) const {
  VecX e;
  state_difference(x, target, e);
  const VecX du = u_ref.size() ? VecX(u - u_ref) : u;
  return 0.5 * e.dot(Q * e) + 0.5 * du.dot(R * du);
}

Real TrackingCost::final(const BodyStates& x) const {
  VecX e;
  state_difference(x, target, e);
  return 0.5 * e.dot(Qf * e);
}

Real TrackingCost::total(const Trajectory& tr) const {
  Real J = 0;
  for (long t = 0; t < tr.u.rows(); ++t) J += stage(tr.x[t], tr.u.row(t).transpose());
  return J + final(tr.x.back());
}

void IlqrOptions::Validate() const {
  auto bad = [](const std::string& what) { throw std::invalid_argument("IlqrOptions: " + what); };
  if (iterations < 0) bad("iterations must be >= 0");
  if (!(tolerance >= 0)) bad("tolerance must be >= 0");
  if (!(mu_initial >= 0)) bad("mu_initial must be >= 0");
  if (!(mu_min > 0 && mu_max > mu_min)) bad("need 0 < mu_min < mu_max");
  if (!(mu_factor > 1)) bad("mu_factor must be > 1");
  if (!(armijo >= 0 && armijo < 1)) bad("armijo must be in [0, 1)");
  if (line_search_steps < 1) bad("line_search_steps must be >= 1");
}

IlqrResult ilqr_minimize(StepwiseRollout& rollout, const TrackingCost& cost, const MatX& u0,
                         const IlqrOptions& options, const IterationLogOptions& log_options) {
  options.Validate();
  const long T = rollout.steps();
  const int n = rollout.state_dim(), na = rollout.control_dim();
  cost.Validate(n, na, rollout.model().num_bodies());
  MatX u_nominal = u0.size() ? u0 : MatX::Zero(T, na);
  if (u_nominal.rows() != T || u_nominal.cols() != na)
    throw std::invalid_argument("ilqr_minimize: u0 must be (" + std::to_string(T) + " x " + std::to_string(na) + ")");
  const VecX u_ref = cost.u_ref.size() ? cost.u_ref : VecX::Zero(na);

  IterationLog log(log_options);
  IlqrResult out;
  auto t0 = Clock::now();
  rollout.run([&](long t, const BodyStates&, VecX& u) { u = u_nominal.row(t).transpose(); }, out.trajectory);
  double forward_s = seconds_since(t0);
  ++out.rollouts;
  out.cost = cost.total(out.trajectory);
  out.cost_history.push_back(out.cost);

  std::vector<MatX> A, B;
  out.k.assign(T, VecX::Zero(na));
  out.K.assign(T, MatX::Zero(na, n));
  Real mu = options.mu_initial;
  VecX e, dx;
  for (int iter = 0; iter < options.iterations; ++iter) {
    const auto tb = Clock::now();
    rollout.jacobians(A, B);
    // Backward pass, repeated with a larger mu until every Q_uu is positive definite.
    Real dV1 = 0, dV2 = 0, grad_norm2 = 0;
    for (;;) {
      bool ok = true;
      dV1 = dV2 = grad_norm2 = 0;
      state_difference(out.trajectory.x[T], cost.target, e);
      VecX Vx = cost.Qf * e;
      MatX Vxx = cost.Qf;
      for (long t = T - 1; t >= 0; --t) {
        state_difference(out.trajectory.x[t], cost.target, e);
        const VecX du = out.trajectory.u.row(t).transpose() - u_ref;
        const VecX Qx = cost.Q * e + A[t].transpose() * Vx;
        const VecX Qu = cost.R * du + B[t].transpose() * Vx;
        const MatX Qxx = cost.Q + A[t].transpose() * Vxx * A[t];
        const MatX Quu = cost.R + B[t].transpose() * Vxx * B[t];
        const MatX Qux = B[t].transpose() * Vxx * A[t];
        grad_norm2 += Qu.squaredNorm();  // dJ/du_t along the nominal (the open-loop gradient)
        const MatX Quu_reg = Quu + mu * MatX::Identity(na, na);
        Eigen::LLT<MatX> llt(Quu_reg);
        if (llt.info() != Eigen::Success) {
          ok = false;
          break;
        }
        out.k[t] = -llt.solve(Qu);
        out.K[t] = -llt.solve(Qux);
        const VecX& k = out.k[t];
        const MatX& K = out.K[t];
        dV1 += k.dot(Qu);
        dV2 += 0.5 * k.dot(Quu * k);
        Vx = Qx + K.transpose() * Quu * k + K.transpose() * Qu + Qux.transpose() * k;
        Vxx = Qxx + K.transpose() * Quu * K + K.transpose() * Qux + Qux.transpose() * K;
        Vxx = 0.5 * (Vxx + Vxx.transpose());
      }
      if (ok) break;
      mu = std::max(mu * options.mu_factor, options.mu_min);
      if (mu > options.mu_max) break;
    }
    const double backward_s = seconds_since(tb);
    if (mu > options.mu_max) break;
    log.add({iter, out.cost, std::sqrt(grad_norm2), forward_s, backward_s});
    // The local model promises (almost) nothing more: a stationary point.
    if (-(dV1 + dV2) <= options.tolerance * std::max(std::abs(out.cost), Real(1e-300))) {
      out.converged = true;
      break;
    }

    // Forward pass with backtracking.
    const auto tf = Clock::now();
    bool accepted = false;
    Trajectory trial;
    const Trajectory nominal = out.trajectory;
    Real alpha = 1, new_cost = 0;
    for (int ls = 0; ls < options.line_search_steps; ++ls, alpha *= 0.5) {
      try {
        rollout.run(
            [&](long t, const BodyStates& x, VecX& u) {
              state_difference(x, nominal.x[t], dx);
              u = nominal.u.row(t).transpose() + alpha * out.k[t] + out.K[t] * dx;
            },
            trial);
      } catch (const std::runtime_error&) {  // a diverged trial is a rejected step
        ++out.rollouts;
        continue;
      }
      ++out.rollouts;
      new_cost = cost.total(trial);
      const Real expected = -(alpha * dV1 + alpha * alpha * dV2);
      if (std::isfinite(new_cost) && out.cost - new_cost >= options.armijo * expected && new_cost <= out.cost) {
        accepted = true;
        break;
      }
    }
    forward_s = seconds_since(tf);
    if (!accepted) {
      // Restore the nominal world for the next Jacobians, then regularise more.
      rollout.run([&](long t, const BodyStates&, VecX& u) { u = nominal.u.row(t).transpose(); }, out.trajectory);
      ++out.rollouts;
      mu = std::max(mu * options.mu_factor, options.mu_min);
      if (mu > options.mu_max) break;
      continue;
    }
    const Real old_cost = out.cost;
    out.trajectory = trial;
    out.cost = new_cost;
    out.cost_history.push_back(new_cost);
    ++out.iterations;
    mu /= options.mu_factor;
    if (mu < options.mu_min) mu = 0;
    if ((old_cost - new_cost) <= options.tolerance * std::max(std::abs(old_cost), Real(1e-300))) {
      out.converged = true;
      break;
    }
  }
  out.history = log.records();
  return out;
}

}  // namespace contactlab
