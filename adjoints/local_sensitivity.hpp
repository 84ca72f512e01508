// Local contact sensitivities: the linear map (db, dA, dmu) -> (dlambda,
// dsigma) of a solved local problem, forward (tangent) and reverse (vector-
// Jacobian product). docs/gradients.md, MATH.md B.2, B.4, C.4, D.2, D.3.
//
// The local problem (one time step after elimination of the velocities):
//   sigma = A lambda + b,  A = J M^-1 J^T + diag(R)  (m x m, symmetric PSD, may be singular)
// with the rows of core/constraint_problem.hpp: bilateral (sigma = 0), limits
// (0 <= lambda _|_ sigma >= 0), contacts under de Saxce's law
// (K_mu ∋ lambda_k _|_ sigma_k + Gamma(sigma_k) ∈ K_mu*), or another law
// with a linearisation (LocalProblem::law; core/sensitivity.hpp).
//
// Every kind writes the law at a point (lambda, sigma) as m equations
// C(lambda, sigma; mu) = 0 (local_relations.hpp: the scalar rows there, the
// contacts' from the law, ContactModel::contact_relations, or from a
// user-defined CustomSensitivity) and differentiates them with
// d sigma = A d lambda + c, c = db + dA lambda (implicit function theorem):
//   K d lambda = -(N c + G dmu),  K = C_lambda + C_sigma A,  N = C_sigma,  G = C_mu,
//   d sigma = A d lambda + c.
// Reverse, for a loss L with lambda_bar, sigma_bar (derived in docs/gradients.md):
//   y = K^-T (lambda_bar + A^T sigma_bar),  b_bar = sigma_bar - N^T y,
//   A_bar = b_bar lambda^T,  mu_bar = -G^T y.
// The kinds differ in C and in the point:
//   exact        MATH D.2: each row/contact in its mode at the hard solution
//                (separating d lambda = 0, sticking d sigma = 0, sliding
//                d sigma_n = 0 and d lambda_t + mu d d lambda_n + (mu lambda_n/|sigma_t|) P_d d sigma_t = 0).
//   signorini    normal rows (contact normals, limits) relaxed to
//                lambda_N sigma_N = rho; tangential rows as exact, by mode.
//   frozen_w     as exact, but a sliding contact's tangential rows are
//                Ostrich's frozen-weight friction (MATH.md B.1, D.1):
//                d sigma_t + W d lambda_t = 0, W = |sigma_t|/(mu lambda_n) held
//                fixed (its explicit mu-dependence kept): the adjoint of
//                Ostrich's Newton, symmetric, an approximation to exact.
//   central_path MATH B.4/D.3: every contact on the central path
//                (S lambda)∘(S^-1 sigma^) = rho e (soc_smoothing.hpp), limits
//                lambda sigma = rho; bilateral rows sigma = 0.
//   custom       a CustomSensitivity (SensitivityOptions::custom): its own
//                contact relations, at the hard solution or at its relaxed
//                point (limits then lambda sigma = rho).
// The relaxed kinds linearise at their relaxed point, reached by damped
// Newton from the hard solution (local_relaxed_point.hpp); if that fails
// the map falls back to exact and the report says why.
//
// Preconditions: lambda solves the hard problem (any solver; modes are read
// from it, docs/gradients.md states the tests). A singular K (redundant
// contacts: sticking or sliding boxes on four corners) is solved in the
// minimum-norm least-squares sense (d sigma is then unique where the problem's
// velocities are; d lambda is the minimum-norm choice); report().rank says so.
#pragma once

#include <Eigen/LU>
#include <string>
#include <vector>

#include "core/constraint_problem.hpp"
#include "core/contact_model.hpp"
#include "core/math.hpp"
#include "core/sensitivity.hpp"  // SensitivityKind, ContactMode, SensitivityOptions, SensitivityReport

namespace contactlab {

// The local problem in dense form. Rows as ConstraintProblem: bilateral,
// limits, then 3 rows (n, t1, t2) per contact.
struct LocalProblem {
  MatX A;   // (m x m) J M^-1 J^T + diag(R); may be left empty (0 x 0) by a
            // matrix-free caller that fills `diagonal`: the exact kind needs only
            // A's diagonal, the relaxed kinds' Newton needs A itself.
  VecX diagonal;  // (m) A's diagonal when A is empty
  VecX b;   // (m) free velocity incl. bias, m/s
  VecX mu;  // (num_contacts) friction coefficients
  int num_bilateral = 0, num_limit = 0, num_contacts = 0;
  // The contact law whose relations the contacts obey (its linearisation,
  // ContactModel::contact_relations: de Saxce's sigma^ = sigma + Gamma(sigma)
  // in K_mu*, or the plain cone complementarity of a convex law (ccp), whose
  // sliding contacts glide); not owned. Null: de Saxce's law.
  const ContactModel* law = nullptr;

  int num_rows() const { return num_bilateral + num_limit + 3 * num_contacts; }
  int contact_offset() const { return num_bilateral + num_limit; }
  bool has_matrix() const { return A.rows() > 0 || num_rows() == 0; }
  Real A_ii(int i) const { return A.rows() > 0 ? A(i, i) : diagonal[i]; }
  // *law, or de Saxce's law when it is null.
  const ContactModel& contact_law() const;
  // Throws std::invalid_argument when the sizes disagree, mu < 0 or the law
  // has no linearisation.
  void check() const;
};

// A = dense Delassus (with the problem's compliance), b = v_free, mu. A
// contact law's own compliance (soft laws) is not included.
LocalProblem from_constraint_problem(const ConstraintProblem& problem);

class LocalSensitivity {
 public:
  // Builds and factorises the map at the hard solution `lambda` (m). Throws
  // std::invalid_argument on inconsistent sizes or options.
  void linearise(const LocalProblem& problem, const VecX& lambda, const SensitivityOptions& options);

  // Forward mode: dlambda, dsigma for db (m), optional dA (m x m) and dmu (num_contacts).
  void tangent(const VecX& db, const MatX* dA, const VecX* dmu, VecX& dlambda, VecX& dsigma) const;
  // Reverse mode: b_bar (m) and, when non-null, A_bar (m x m, no symmetry
  // imposed) and mu_bar (num_contacts) for the cotangents lambda_bar, sigma_bar (m).
  void vjp(const VecX& lambda_bar, const VecX& sigma_bar, VecX& b_bar, MatX* A_bar, VecX* mu_bar) const;

  const SensitivityReport& report() const { return report_; }
  // The point the map is linearised at: the hard solution (exact) or the relaxed point.
  const VecX& lambda() const { return lambda_; }  // (m)
  const VecX& sigma() const { return sigma_; }    // (m)

 private:
  void check_linearised(const char* what) const;

  MatX A_;                        // (m x m) the problem's A
  MatX N_, G_;                    // (m x m), (m x nc): row-equilibrated C_sigma, C_mu
  VecX lambda_;                   // (m) linearisation point
  VecX sigma_;                    // (m)
  Eigen::PartialPivLU<MatX> lu_;  // of the row-equilibrated K (regular case)
  MatX K_pinv_;                   // (m x m) its pseudo-inverse (singular case)
  bool linearised_ = false;
  SensitivityReport report_;
};

}  // namespace contactlab
