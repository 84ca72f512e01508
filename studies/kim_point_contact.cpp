#include "studies/kim_point_contact.hpp"

#include <sstream>
#include <stdexcept>

#include "contact_models/desaxce.hpp"
#include "solvers/pgs.hpp"

namespace contactlab {

PointContact::PointContact(Real mu) : mu_(mu) {
  PgsOptions o;
  o.tolerance = 1e-13;  // far below the sensitivities' 1e-8 checks
  o.max_iterations = 10000;
  pgs_ = std::make_unique<PgsSolver>(o);
  law_ = std::make_unique<DeSaxceModel>();
  workspace_ = pgs_->make_workspace();
  // Unit point mass touching the ground at its centre: rows (z, x, y).
  problem_.resize(1, 0, 0, 1);
  problem_.inv_mass[0] = 1;
  problem_.inv_inertia_W[0] = Mat3::Identity();
  const Vec3 dirs[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
  for (int r = 0; r < 3; ++r) {
    problem_.rows[r].body_b = 0;
    problem_.rows[r].J_b << dirs[r], Vec3::Zero();
  }
  problem_.mu[0] = mu;
}

void PointContact::set_mu(Real mu) {
  mu_ = mu;
  problem_.mu[0] = mu;
}

Vec3 PointContact::solve(const Vec3& b) {
  for (int r = 0; r < 3; ++r) problem_.v_free[r] = b[r];
  SolveStats stats;
  pgs_->solve(problem_, *law_, {}, *workspace_, lambda_, v_, stats);
  if (stats.status != SolveStatus::Converged) {
    std::ostringstream m;
    m << "PGS did not converge at b_N = " << b[0];
    throw std::runtime_error(m.str());
  }
  return Vec3(lambda_[0], lambda_[1], lambda_[2]);
}

PointContactSample PointContact::sample(const Vec3& b, const SensitivityOptions& options) {
  PointContactSample s;
  s.b = b;
  s.lambda_hard = solve(b);
  const LocalProblem lp = from_constraint_problem(problem_);
  LocalSensitivity ls;
  ls.linearise(lp, VecX(s.lambda_hard), options);
  VecX dl, ds;
  ls.tangent(VecX::Unit(3, 0), nullptr, nullptr, dl, ds);
  s.dlambda_n = dl[0];
  s.dlambda_t = dl[1];
  s.dsigma_n = ds[0];
  s.dsigma_t = ds[1];
  s.lambda_n = ls.lambda()[0];
  s.sigma_n = ls.sigma()[0];
  s.report = ls.report();
  return s;
}

ContactMode point_contact_mode(Real b_n, Real b_t, Real mu) {
  if (b_n >= 0) return ContactMode::Separating;
  if (b_t <= -mu * b_n) return ContactMode::Sticking;
  return ContactMode::Sliding;
}

}  // namespace contactlab
