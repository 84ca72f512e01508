// The relaxed point of the signorini and central_path sensitivities, and of
// a relaxed custom kind (MATH.md C.4, Kim et al.'s "Algorithm 1"): (lambda, sigma) with
//   F_rho = [ r_d = sigma - A lambda - b - delta E_N ;  r_c = C(lambda, sigma) ] = 0
// (C from local_relations.hpp, rho > 0; E_N selects the unilateral normal
// rows: limit rows and contact normals) inside the cones
// (local_relations::interior).
//
// Damped Newton: K d_lambda = -r_c + C_sigma r_d, d_sigma = A d_lambda - r_d
// (K = C_lambda + C_sigma A), a step halved until it (i) stays interior once
// the iterate is interior and (ii) lowers the merit |r_c / scale|^2 +
// |r_d / velocity|^2 (weights of the current iterate) by the Armijo factor
// 1 - 1e-4 alpha. Converged when every row's relative residual
// |r_c,i| / scale_i and |r_d|_inf / velocity are <= options.newton_tolerance.
//
// 1. From the hard solution (lambda_h, A lambda_h + b): the cone check is
//    applied to the converged point (Newton may also land on a root with
//    lambda and sigma both outside, e.g. lambda sigma = rho with both < 0).
// 2. On failure (no convergence, singular Newton matrix at a degenerate start
//    lambda = sigma = 0, or a root outside the cones): rho-continuation
//    rho_j = rho f^(j - J + 1), j = 0..J-1, each stage warm-started from the
//    last, the first from the per-block central point of the hard solution's
//    natural-map argument x = lambda_h - c sigma^_h at rho_0 c
//    (soc_smoothing::friction / smoothed_pair: interior and exact per block;
//    only r_d is off, by O(rho_0)); limit rows here, contacts by the law
//    (ContactModel::relaxed_start, contact_models/cone_relations.hpp) or the
//    custom kind (CustomSensitivity::relaxed_start).
// 3. If that fails too, the caller falls back to exact.
#pragma once

#include <string>

#include "adjoints/local_relations.hpp"

namespace contactlab {
namespace local_relaxed_point {

struct RelaxedPoint {
  VecX lambda, sigma;      // (m) the point reached (the relaxed point when ok())
  bool converged = false;  // F_rho = 0 to the tolerance
  bool interior = false;   // the cone check
  bool continuation_used = false;
  int iterations = 0;         // Newton iterations, all attempts and stages
  Real residual = 0;          // relative residual at the point
  std::string first_failure;  // why the first attempt failed, when continuation was used
  std::string failure;        // why no relaxed point was found ("" when ok())

  bool ok() const { return converged && interior; }
};

// kind: Signorini, CentralPath, or Custom with a relaxed options.custom.
// lambda_hard: (m) the hard solution the modes were read from.
RelaxedPoint find(SensitivityKind kind, const LocalProblem& problem, const local_relations::Modes& modes,
                  const VecX& lambda_hard, const SensitivityOptions& options);

}  // namespace local_relaxed_point
}  // namespace contactlab
