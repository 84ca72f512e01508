// iLQR (Li & Todorov 2004; the regularisation and line search of Tassa,
// Erez & Todorov 2012) on a rollout's step Jacobians
// (optimizers/step_jacobians.hpp), for the quadratic tracking cost
//   J = sum_{t<T} [1/2 e_t^T Q e_t + 1/2 (u_t - u_ref)^T R (u_t - u_ref)] + 1/2 e_T^T Qf e_T,
//   e_t = x_t - x_target (maximal coordinates, the state difference of step_jacobians.hpp).
//
// Each iteration: the step Jacobians A_t, B_t along the nominal trajectory;
// the backward pass (Riccati recursion of the local quadratic model)
//   Q_u = R du + B^T V_x,   Q_x = Q e + A^T V_x,
//   Q_uu = R + B^T V_xx B + mu I,   Q_ux = B^T V_xx A,   Q_xx = Q + A^T V_xx A,
//   k = -Q_uu^-1 Q_u,  K = -Q_uu^-1 Q_ux,
//   V_x = Q_x + K^T Q_uu k + K^T Q_u + Q_ux^T k,  V_xx = Q_xx + K^T Q_uu K + K^T Q_ux + Q_ux^T K,
// with Levenberg-Marquardt regularisation mu I on Q_uu (a failed Cholesky
// raises mu and repeats the pass); then the forward pass with a backtracking
// line search on alpha in {1, 1/2, 1/4, ...}:
//   u_t = clamp(u_bar_t + alpha k_t + K_t (x_t - x_bar_t)),
// accepted when the cost drops by at least armijo * (expected reduction
// alpha (-k^T Q_u) - alpha^2/2 k^T Q_uu k). Accepted: mu /= mu_factor (to
// mu_min, then 0); rejected at every alpha: mu *= mu_factor and again.
// Converged when the relative cost reduction of an accepted step, or the
// reduction the local model expects, is below `tolerance` times the cost.
// Log rows: one per backward pass, the cost of the nominal trajectory and the
// norm of the open-loop gradient dJ/du (all steps) there; forward_s is the
// wall time of the forward passes that produced that nominal (line search
// included), backward_s that of the Jacobians and the Riccati pass.
//
// On a linear system with this cost one iteration at mu = 0, alpha = 1 lands
// on the finite-horizon LQR optimum (tests/optimizers/test_ilqr.cpp checks
// it against the discrete Riccati solution).
#pragma once

#include <vector>

#include "core/math.hpp"
#include "optimizers/iteration_log.hpp"
#include "optimizers/step_jacobians.hpp"

namespace contactlab {

struct TrackingCost {
  MatX Q, R, Qf;         // (n x n), (na x na), (n x n); symmetric, Q and Qf PSD, R PD
  BodyStates target;     // x_target (its velocities too)
  VecX u_ref;            // (na); empty: zero
  // Throws std::invalid_argument naming the bad field.
  void Validate(int n, int na, int bodies) const;
  Real stage(const BodyStates& x, const VecX& u) const;
  Real final(const BodyStates& x) const;
  Real total(const Trajectory& tr) const;
};

struct IlqrOptions {
  int iterations = 50;
  Real tolerance = 1e-8;     // stop when (J_old - J_new) / max(J_old, tiny) < tolerance
  Real mu_initial = 0;       // LM regularisation of Q_uu at the start
  Real mu_min = 1e-8;        // below it mu becomes 0
  Real mu_max = 1e10;        // above it the run stops (no descent found)
  Real mu_factor = 10;
  Real armijo = 1e-4;        // fraction of the expected reduction an accepted step must achieve
  int line_search_steps = 10;  // alphas 1, 1/2, ..., 2^-(steps-1)
  void Validate() const;
};

struct IlqrResult {
  Trajectory trajectory;          // the final nominal trajectory
  std::vector<VecX> k;            // (T) feed-forward terms of the last backward pass
  std::vector<MatX> K;            // (T) feedback gains
  Real cost = 0;
  int iterations = 0;             // accepted iterations
  bool converged = false;
  std::vector<Real> cost_history; // after each accepted iteration, the initial cost first
  std::vector<IterationRecord> history;
  long rollouts = 0;              // forward passes (line-search trials included)
};

// From the controls `u0` (steps x actuators; empty: zero).
IlqrResult ilqr_minimize(StepwiseRollout& rollout, const TrackingCost& cost, const MatX& u0,
                         const IlqrOptions& options = {}, const IterationLogOptions& log = {});

}  // namespace contactlab
