#include "adjoints/local_sensitivity.hpp"

#include <Eigen/QR>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "adjoints/law_linearisation.hpp"
#include "contact_models/desaxce.hpp"

namespace contactlab {

const ContactModel& LocalProblem::contact_law() const {
  static const DeSaxceModel desaxce;
  return law ? *law : desaxce;
}

void LocalProblem::check() const {
  const int m = num_rows();
  std::ostringstream s;
  if (num_bilateral < 0 || num_limit < 0 || num_contacts < 0)
    s << "negative row counts";
  else if ((A.rows() != m || A.cols() != m) && !(A.size() == 0 && diagonal.size() == m))
    s << "A is " << A.rows() << " x " << A.cols() << ", expected " << m << " x " << m
      << " (or empty with its diagonal given)";
  else if (b.size() != m)
    s << "b has " << b.size() << " entries, expected " << m;
  else if (mu.size() != num_contacts)
    s << "mu has " << mu.size() << " entries, expected " << num_contacts;
  else if (num_contacts > 0 && !(mu.minCoeff() >= 0 && mu.allFinite()))
    s << "mu must be finite and >= 0";
  else if (!contact_law().has_linearisation())
    s << "contact law '" << contact_law().name() << "' has no linearisation (ContactModel::has_linearisation)";
  else
    return;
  throw std::invalid_argument("LocalProblem: " + s.str());
}

LocalProblem from_constraint_problem(const ConstraintProblem& problem) {
  LocalProblem lp;
  lp.num_bilateral = problem.num_bilateral;
  lp.num_limit = problem.num_limit;
  lp.num_contacts = problem.num_contacts;
  problem.dense_delassus(lp.A);
  lp.b = Eigen::Map<const VecX>(problem.v_free.data(), problem.num_rows());
  lp.mu = Eigen::Map<const VecX>(problem.mu.data(), problem.num_contacts);
  lp.check();
  return lp;
}

void LocalSensitivity::linearise(const LocalProblem& problem, const VecX& lambda, const SensitivityOptions& options) {
  problem.check();
  if (!problem.has_matrix())
    throw std::invalid_argument("LocalSensitivity::linearise: needs the local problem's matrix A");
  const int m = problem.num_rows();
  if (lambda.size() != m || !lambda.allFinite()) {
    std::ostringstream s;
    s << "LocalSensitivity::linearise: lambda must have " << m << " finite entries (got " << lambda.size() << ")";
    throw std::invalid_argument(s.str());
  }
  linearised_ = false;
  LawLinearisation law;
  linearise_law(problem, lambda, problem.A * lambda + problem.b, options, report_, law);
  lambda_ = law.lambda;
  sigma_ = law.sigma;
  const local_relations::Linearisation& L = law.L;

  // K d lambda = -(N c + G dmu), every row scaled by its largest entry of K
  // (rows mix impulse, velocity and product units; scaling rows changes no
  // solution, and makes rcond and the rank threshold unit free).
  MatX K = L.C_lambda + L.C_sigma * problem.A;
  VecX row_scale(m);
  for (int i = 0; i < m; ++i) {
    const Real r = K.row(i).cwiseAbs().maxCoeff();
    row_scale[i] = r > 0 ? 1 / r : Real(1);
  }
  K = row_scale.asDiagonal() * K;
  N_ = row_scale.asDiagonal() * L.C_sigma;
  G_ = row_scale.asDiagonal() * L.C_mu;
  A_ = problem.A;

  report_.rank = m;
  report_.singular = false;
  K_pinv_.resize(0, 0);
  if (m > 0) {
    lu_.compute(K);
    // rcond() is an estimate and can miss an exact singularity (measured: a
    // wheeled_pallet step with all contacts sticking, A of rank 35 of 36,
    // estimate above 1e-12, solve NaN); the LU's pivots are checked as well.
    const VecX pivots = lu_.matrixLU().diagonal().cwiseAbs();
    const bool tiny_pivot = !(pivots.minCoeff() > options.singular_tolerance * pivots.maxCoeff());
    if (tiny_pivot || !(lu_.rcond() > options.singular_tolerance)) {
      // Redundant rows (e.g. four coplanar sticking contacts): minimum-norm
      // least squares, with the same relative threshold for the rank.
      Eigen::CompleteOrthogonalDecomposition<MatX> cod;
      cod.setThreshold(std::max(options.singular_tolerance, Real(Eigen::NumTraits<Real>::epsilon())));
      cod.compute(K);
      // Column j of K^+ is the minimum-norm least-squares solution of K x = e_j
      // (vector solves: Eigen 3.4's matrix solve trips GCC 12's -Wmaybe-uninitialized).
      K_pinv_.resize(m, m);
      for (int j = 0; j < m; ++j) K_pinv_.col(j) = cod.solve(VecX::Unit(m, j));
      report_.rank = static_cast<int>(cod.rank());
      report_.singular = true;
    }
  }
  linearised_ = true;
}

void LocalSensitivity::check_linearised(const char* what) const {
  if (!linearised_) throw std::logic_error(std::string("LocalSensitivity::") + what + ": call linearise() first");
}

void LocalSensitivity::tangent(const VecX& db, const MatX* dA, const VecX* dmu, VecX& dlambda, VecX& dsigma) const {
  check_linearised("tangent");
  const Eigen::Index m = lambda_.size();
  if (db.size() != m || (dA && (dA->rows() != m || dA->cols() != m)) || (dmu && dmu->size() != G_.cols()))
    throw std::invalid_argument("LocalSensitivity::tangent: db, dA or dmu has the wrong size");
  VecX c = db;
  if (dA) c += *dA * lambda_;
  VecX rhs = N_ * c;
  if (dmu) rhs += G_ * *dmu;
  if (m == 0)
    dlambda.resize(0);
  else if (report_.singular)
    dlambda = -(K_pinv_ * rhs);
  else
    dlambda = -lu_.solve(rhs);
  dsigma = A_ * dlambda + c;
}

void LocalSensitivity::vjp(const VecX& lambda_bar, const VecX& sigma_bar, VecX& b_bar, MatX* A_bar,
                           VecX* mu_bar) const {
  check_linearised("vjp");
  const Eigen::Index m = lambda_.size();
  if (lambda_bar.size() != m || sigma_bar.size() != m)
    throw std::invalid_argument("LocalSensitivity::vjp: lambda_bar or sigma_bar has the wrong size");
  const VecX g = lambda_bar + A_.transpose() * sigma_bar;
  VecX y;
  if (m == 0)
    y.resize(0);
  else if (report_.singular)
    y = K_pinv_.transpose() * g;
  else
    y = lu_.transpose().solve(g);
  b_bar = sigma_bar - N_.transpose() * y;
  if (A_bar) *A_bar = b_bar * lambda_.transpose();
  if (mu_bar) *mu_bar = -(G_.transpose() * y);
}

}  // namespace contactlab
