// The friction-cone laws as equations C_k(lambda_k, sigma_k; mu_k) = 0 per
// contact, for each built-in sensitivity kind, with their partials (MATH.md
// D.2, D.3; docs/gradients.md): the linearisation behind
// ContactModel::contact_relations of de Saxce's law (DeSaxceCones: desaxce,
// fischer_burmeister, central_path; desaxce = true) and of the plain cone
// complementarity of the convex law (CcpModel; desaxce = false). Contact
// blocks are (n, t1, t2); lambda, sigma (3 nc) hold the contact rows only.
//
// With d = sigma_t/|sigma_t| (0 where sigma_t = 0), the shifted velocity
// sigma^ = sigma + Gamma(sigma), Gamma = (mu |sigma_t|, 0, 0) for de Saxce and
// 0 for the convex law (its sliding contacts glide: sigma_n = mu |sigma_t| > 0),
// and the normal gap g = sigma^_n - mu |sigma_t| that vanishes on sticking and
// sliding contacts (de Saxce: g = sigma_n, computed so, without cancellation;
// convex: g = sigma_n - mu |sigma_t|):
//
//   contact        exact                    signorini                central_path
//   separating     lambda                   n: lambda_n g - rho      w(lambda, sigma^) - rho e
//                                           t: lambda_t
//   sticking       n: g,  t: sigma_t        n: as above, t: sigma_t  same
//   sliding        n: g                     n: as above, t: as exact same
//                  t: lambda_t + mu lambda_n d
// frozen_w is exact but for a sliding contact's t rows: sigma_t + W lambda_t
// with W = |sigma_t|/(mu lambda_n) frozen (partials I, W I; d/dmu = -(W/mu) lambda_t).
// w = (lambda^T sigma^, mu^2 lambda_n sigma_t + sigma^_n lambda_t) =
// diag(1, mu, mu) (S lambda)∘(S^-1 sigma^), S = diag(mu, 1, 1)
// (soc_smoothing::scaled_jordan; the diag(1, mu, mu) row scaling keeps the
// vector part meaningful at mu = 0 and changes no solution or sensitivity).
// Partials:
//   dg = d sigma_n - (convex: mu d^T d sigma_t + |sigma_t| d mu);
//   sliding: d(lambda_t + mu lambda_n d) = d lambda_t + mu d d lambda_n +
//     (mu lambda_n/|sigma_t|) P_d d sigma_t + lambda_n d dmu, P_d = I - d d^T
//     (d(sigma_t/|sigma_t|) = P_d d sigma_t / |sigma_t|): MATH D.2;
//   central path: dw/dlambda = [[sigma^_n, sigma_t^T], [mu^2 sigma_t, sigma^_n I]],
//     dw/dsigma^ = [[lambda_n, lambda_t^T], [lambda_t, mu^2 lambda_n I]],
//     dsigma^/dsigma = I + [[0, mu d^T], [0, 0]] (de Saxce),
//     dw/dmu = (0, 2 mu lambda_n sigma_t) + (de Saxce) (lambda_n |sigma_t|, |sigma_t| lambda_t).
// Scales: velocity rows s.velocity, impulse rows s.impulse, product rows
// rho + |lambda_n g| (central path: rho + (1 + mu^2) |lambda_k||sigma^_k|,
// the size of the bilinear terms of w).
#pragma once

#include "core/sensitivity.hpp"

namespace contactlab {
namespace cone_relations {

// Modes of a hard solution from the natural-map argument x = lambda -
// c sigma^ (c = step[k], 1/A_nn of the contact's normal row), as in the
// B-subdifferential of lambda - Pi_K(x): separating if x is in the polar cone
// (mu |x_t| <= -x_n, tested first: mu = 0 as cone::project_primal), sticking
// if x is inside K_mu (|x_t| <= mu x_n) or |sigma_t| <= slip_speed (d is then
// undefined), else sliding.
void modes(bool desaxce, const Real* mu, int nc, const Real* lambda, const Real* sigma, const Real* step,
           Real slip_speed, ContactMode* out);

// out[k] <- the equations of `kind` (not Custom) above and their partials.
// rho is ignored by exact and frozen_w.
void relations(bool desaxce, SensitivityKind kind, const Real* mu, int nc, const ContactMode* modes, Real rho,
               const RelationScales& s, const Real* lambda, const Real* sigma, ContactRelationBlock* out);

// The cone check of the relaxed kinds: both: lambda_n > 0 and g > 0;
// central_path also S lambda ∈ int Q (|lambda_t| < mu lambda_n; mu = 0:
// |lambda_t| <= 1e-12 lambda_n), S^-1 sigma^ ∈ int Q being g > 0. True for
// the other kinds.
bool interior(bool desaxce, SensitivityKind kind, const Real* mu, int nc, const Real* lambda, const Real* sigma);

// The relaxed point's continuation start (adjoints/local_relaxed_point.hpp),
// in place from the hard (lambda, sigma): each contact replaced by the
// central point of its natural-map argument x = lambda - c sigma^ at rho c
// (c = step[k]; soc_smoothing::friction), so that y - s = x, lambda = y,
// sigma^ = s / c satisfy the central-path relation with rho exactly inside
// the cones. signorini: only the normal pair, by the 1-D smoothing of
// lambda_n - c g (soc_smoothing::smoothed_pair), and a sliding contact's
// lambda_t put on the cone against the slip (-mu lambda_n d).
void relaxed_start(bool desaxce, SensitivityKind kind, const Real* mu, int nc, const ContactMode* modes,
                   const Real* step, Real rho, Real* lambda, Real* sigma);

}  // namespace cone_relations
}  // namespace contactlab
