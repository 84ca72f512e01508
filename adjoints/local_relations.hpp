// The local law as m equations C(lambda, sigma; mu) = 0, one per row, for
// each sensitivity kind, with its partial derivatives (local_sensitivity.hpp
// linearises them; local_relaxed_point.hpp solves the relaxed ones). Rows and
// units as in LocalProblem; contact blocks are (n, t1, t2).
//
//   row / contact            exact                      signorini                     central_path
//   bilateral                sigma                      sigma                         sigma
//   limit, active            sigma                      lambda sigma - rho            lambda sigma - rho
//   limit, separating        lambda                     lambda sigma - rho            lambda sigma - rho
//   contact, separating      lambda                     n: lambda_n sigma_n - rho     w(lambda, sigma^) - rho e
//                                                       t: lambda_t
//   contact, sticking        sigma                      n: as above, t: sigma_t       same
//   contact, sliding         n: sigma_n                 n: as above                   same
//                            t: lambda_t + mu lambda_n d                t: as exact
// frozen_w is exact but for a sliding contact's t rows: sigma_t + W lambda_t
// with W = |sigma_t|/(mu lambda_n) frozen (partials I, W I; d/dmu = -(W/mu) lambda_t).
// with d = sigma_t/|sigma_t|, sigma^ = sigma + (mu |sigma_t|, 0, 0) (de Saxce)
// and w = (lambda^T sigma^, mu^2 lambda_n sigma_t + sigma^_n lambda_t) =
// diag(1, mu, mu) (S lambda)∘(S^-1 sigma^), S = diag(mu, 1, 1)
// (soc_smoothing::scaled_jordan; the diag(1, mu, mu) row scaling keeps the
// vector part meaningful at mu = 0 and changes no solution or sensitivity).
// Partials of the sliding row: d(lambda_t + mu lambda_n d) = d lambda_t +
// mu d d lambda_n + (mu lambda_n/|sigma_t|) P_d d sigma_t + lambda_n d dmu,
// P_d = I - d d^T (d(sigma_t/|sigma_t|) = P_d d sigma_t / |sigma_t|): MATH D.2.
// Central path: dw/dlambda = [[sigma^_n, sigma_t^T], [mu^2 sigma_t, sigma^_n I]],
// dw/dsigma^ = [[lambda_n, lambda_t^T], [lambda_t, mu^2 lambda_n I]],
// dsigma^/dsigma = I + [[0, mu d^T], [0, 0]] (d = 0 where sigma_t = 0),
// dw/dmu = (lambda_n |sigma_t|, 2 mu lambda_n sigma_t + |sigma_t| lambda_t).
#pragma once

#include <vector>

#include "adjoints/local_sensitivity.hpp"

namespace contactlab {
namespace local_relations {

// Characteristic velocity (m/s) and impulse (N s) of a problem at lambda:
// velocity = max(|b|_inf, a |lambda|_inf, sqrt(rho a)), impulse = velocity / a,
// a = max_i A_ii (1 where A has no positive diagonal; velocity 1 if all vanish).
struct Scales {
  Real velocity = 1, impulse = 1;
};
Scales scales_of(const LocalProblem& problem, const VecX& lambda, Real rho);

// The modes of a hard solution (lambda, sigma = A lambda + b). The natural-map
// argument x = lambda - c sigma^ with c = 1/A_ii of the row (contacts: of the
// normal row; 1/a where A_ii <= 0) decides, as in the B-subdifferential of
// lambda - Pi_K(x): limit rows are active iff x > 0; a contact sticks if x is
// inside K_mu (|x_t| <= mu x_n), separates if x is in the polar cone
// (mu |x_t| <= -x_n), else slides, unless |sigma_t| <= slip_speed (then it
// sticks: d = sigma_t/|sigma_t| is undefined).
struct Modes {
  std::vector<bool> limit_active;    // (num_limit)
  std::vector<ContactMode> contact;  // (num_contacts)
};
Modes detect_modes(const LocalProblem& problem, const VecX& lambda, const VecX& sigma, Real slip_speed);

// C at (lambda, sigma) and its partials (block diagonal in the rows).
struct Linearisation {
  VecX residual;  // (m) C(lambda, sigma)
  VecX scale;     // (m) size of the terms of each row: |residual_i| / scale_i is its relative residual
  MatX C_lambda;  // (m x m) dC/dlambda
  MatX C_sigma;   // (m x m) dC/dsigma
  MatX C_mu;      // (m x num_contacts) dC/dmu
};
// rho is ignored by exact. scale: velocity rows s.velocity, impulse rows
// s.impulse, product rows rho + |lambda||sigma| (central path: rho + (1 +
// mu^2) |lambda_k||sigma^_k|, the size of the bilinear terms of w).
void evaluate(SensitivityKind kind, const LocalProblem& problem, const Modes& modes, Real rho, const Scales& s,
              const VecX& lambda, const VecX& sigma, Linearisation& out);

// The cone check of the relaxed kinds: central_path: every contact has
// S lambda ∈ int Q (|lambda_t| < mu lambda_n; mu = 0: lambda_n > 0, lambda_t = 0
// up to 1e-12 lambda_n) and S^-1 sigma^ ∈ int Q (<=> sigma_n > 0); both
// relaxed kinds: lambda, sigma > 0 on limit rows and lambda_n, sigma_n > 0 on
// contacts. Exact: always true.
bool interior(SensitivityKind kind, const LocalProblem& problem, const VecX& lambda, const VecX& sigma);

// Step c of row i's natural-map argument (1/A_ii, or 1/a when A_ii <= 0).
Real natural_step(const LocalProblem& problem, int row);

}  // namespace local_relations
}  // namespace contactlab
