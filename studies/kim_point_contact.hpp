// One frictional contact of a unit point mass on a plane (A = I), the local
// problem of Kim et al.'s Figs. 3 and 4: sigma = lambda + b with rows (n, t1,
// t2). The hard solution comes from PGS under de Saxce's law (an independent
// solver), and a local sensitivity kind gives d/db_N of (lambda, sigma).
// Used by the kim_sensitivity study and the contactlab_sensitivity_sweep tool.
#pragma once

#include <memory>

#include "adjoints/local_sensitivity.hpp"
#include "core/constraint_problem.hpp"
#include "core/solver.hpp"

namespace contactlab {

// d/db_N of (lambda_n, lambda_t1, sigma_n, sigma_t1) at one b, and what the
// linearisation did.
struct PointContactSample {
  Vec3 b = Vec3::Zero();
  Vec3 lambda_hard = Vec3::Zero();
  Real dlambda_n = 0, dlambda_t = 0, dsigma_n = 0, dsigma_t = 0;
  Real lambda_n = 0, sigma_n = 0;  // at the linearisation point (hard or relaxed)
  SensitivityReport report;
};

class PointContact {
 public:
  explicit PointContact(Real mu);
  Real mu() const { return mu_; }
  void set_mu(Real mu);
  // The hard solution for free velocity b (n, t1, t2). Throws
  // std::runtime_error naming b_N when PGS does not converge.
  Vec3 solve(const Vec3& b);
  // Solve and linearise with `options` (kind, rho, delta).
  PointContactSample sample(const Vec3& b, const SensitivityOptions& options);

 private:
  Real mu_;
  std::unique_ptr<Solver> pgs_;
  std::unique_ptr<ContactModel> law_;
  std::unique_ptr<SolverWorkspace> workspace_;
  ConstraintProblem problem_;
  std::vector<Real> lambda_, v_;
};

// The mode of the hard solution for A = I and b = (b_n, b_t, 0), b_t > 0
// (derived in docs/studies.md): sticking b_n <= -b_t/mu, sliding
// -b_t/mu < b_n < 0, separating b_n >= 0.
ContactMode point_contact_mode(Real b_n, Real b_t, Real mu);

}  // namespace contactlab
