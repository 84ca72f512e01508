// Central-path relaxation of the de Saxce SOCCP (MATH.md B.4; Kim et al.,
// used here in the forward pass as an interior-point-like smoothing):
//   lambda ∈ int K_mu,  sigma^ = v + Gamma_mu(v) ∈ int K_mu*,
//   (S lambda)∘(S^-1 sigma^) = rho e,   S = diag(mu, 1, 1),
// i.e. lambda^T sigma^ = rho and mu^2 lambda_n v_t + sigma^_n lambda_t = 0
// (∘ the Jordan product of the Lorentz cone Q, e = (1, 0, 0); S maps K_mu
// and S^-1 maps K_mu* onto Q and keeps the pairing; checked in
// tests/contact_models/test_central_path.cpp). rho -> 0 gives de Saxce's law (desaxce.hpp).
// Separating contacts keep lambda_n ~ rho/sigma^_n > 0, sticking ones
// |sigma^| ~ rho/|lambda|; the modes join smoothly (docs/central_path.md).
//
// How solvers see it. The de Saxce shift is kept (velocity_shift = Gamma)
// and project_primal is the smoothed projection P_rho: y = P_rho(x) is the
// central point y - s = x, y ∈ int K_mu, s ∈ int K_mu*, (S y)∘(S^-1 s) = rho e
// (soc_smoothing::friction; the proximal map of the barrier -rho/2 ln det(S l),
// -> Pi_{K_mu} as rho -> 0). A fixed point lambda = P_rho(lambda - c sigma^)
// of a solver with step c therefore satisfies the law with parameter rho/c:
//   unit-step natural map (c = 1; MATH.md E.1 r_vi, core/metrics.cpp, PGS's
//     stopping test): (S lambda)∘(S^-1 sigma^) = rho e        <- the definition of `rho`
//   PGS, c_k = omega / lambda_max(D_kk):               ... = (rho / c_k) e
//   PADMM, y = P_rho(y - z/rho_a) in its Jacobi-scaled variables y = lambda/p,
//     z = p sigma^ (the Jordan product is blind to the common scale p):
//                                                      ... = (rho rho_a) e
//     with rho_a the ADMM penalty at convergence (the balanced penalty moves
//     it during a solve: solver.balanced_penalty=false pins it).
// So rho is the parameter of the final relation only where the solver's step
// is 1 (PGS: c_k = 1 kg, e.g. the unit particle with omega = 1; PADMM:
// rho_a = 1). project_primal_step() below takes the step and uses rho c, which
// makes every fixed point satisfy the rho relation; PADMM and PGS call it
// through ContactModel::project_primal_step and measure complementarity
// against complementarity_target() = rho.
// Stopping tests: at the relaxed point lambda^T sigma^ = rho_eff, so PADMM's
// r_c <= tol_compl needs tol_compl above rho_eff (else it stops at
// max_iterations); PGS's unit-step test vanishes only where c_k = 1 (else it
// runs to max_iterations). Hence, with padmm: solver.balanced_penalty=false
// solver.rho=1 solver.tol_compl=2e-6 (> rho) reach the rho relation for any
// masses; measurements in docs/central_path.md.
// project_dual is the dual half of the same pair, x + P_rho(-x) ∈ int K_mu*;
// the metrics' r_primal = |lambda - P_rho(lambda)| and r_dual are therefore
// distances to smoothed maps (up to ~sqrt(rho) when lambda or sigma^ ~ 0):
// read r_vi, which is 0 exactly on the unit-step relation.
//
// Hard or not: no compliance on contact rows (contact_compliance = 0), and
// is_hard() only tells solvers to skip adding it (solver_common.cpp), so
// true leaves PADMM and PGS exactly right; the relaxation lives in the
// projection. Not convex (de Saxce shift), so convex_newton refuses it; no
// ncp_residual, so newton refuses it.
//
// Units: the unit-step relation pairs an impulse (N s) and a velocity (m/s),
// so rho is in N s m/s = J. Default 1e-6 J: a resting 1 kg body at h = 1 ms
// (lambda_n ~ 1e-2 N s) keeps sigma^_n ~ rho/lambda_n = 1e-4 m/s, a small
// hover under the scheme's gap closure (box_ramp's 1 kg box: 1.4 um), a
// contact separating at 1 m/s keeps 1e-6 N s; the smoothing width, where
// modes blend, is ~sqrt(rho) = 1e-3 (N s, m/s).
//
// Backward (the relaxed sensitivity, MATH.md D.3): the adjoints linearise
// this law's relations at its own relaxed point (forward_sensitivity() asks
// for the central_path kind with rho; the relations are DeSaxceCones',
// contact_models/cone_relations.hpp).
#pragma once

#include "contact_models/desaxce.hpp"

namespace contactlab {

struct CentralPathOptions {
  Real rho = 1e-6;  // central-path parameter of the unit-step relation, J = N s m/s, >= 0 (0: de Saxce)

  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
};

class CentralPathModel final : public DeSaxceCones {
 public:
  CentralPathModel() = default;
  explicit CentralPathModel(const CentralPathOptions& options) : options(options) {}

  std::string name() const override { return "central_path"; }
  // x_k <- P_rho(x_k) (validates the options first).
  void project_primal(const Real* mu, int nc, Real* x) const override;
  // x_k <- x_k + P_rho(-x_k), the smoothed projection onto K_mu*.
  void project_dual(const Real* mu, int nc, Real* x) const override;
  // velocity_shift (de Saxce's Gamma) and contact_compliance (zero: the
  // relaxation is in the projection) come from DeSaxceCones.
  void bind_options(OptionSet& set, const std::string& prefix) override;

  // x_k <- P_{rho step}(x_k): for a solver whose fixed point is
  // lambda = P(lambda - step sigma^) (PGS: step = c_k; PADMM: step = 1/rho_a),
  // the fixed point then satisfies (S lambda)∘(S^-1 sigma^) = rho e whatever
  // the step. step > 0.
  void project_primal_step(const Real* mu, int nc, Real step, Real* x) const override;
  Real complementarity_target() const override { return options.rho; }
  // Validates the options.
  ContactKernel contact_kernel() const override;
  // Differentiated at its own relaxed point: options.kind = CentralPath with
  // this law's rho, when that is > 0 (rho = 0 is de Saxce's law: left as is).
  void forward_sensitivity(SensitivityOptions& sensitivity) const override;

  CentralPathOptions options;
};

}  // namespace contactlab
