// Residuals of a solved constraint problem (MATH.md E.1), measured from
// (lambda, v+) and the law's own cone functions, independently of the solver
// that produced them (infinity norms, physical units):
//   bilateral rows: K = R, K* = {0};  limit rows: K = K* = R+;
//   contacts: the law's cones with s = v + Gamma(v);
//   r_primal = |lambda - Pi_K(lambda)|,  r_dual = |s - Pi_K*(s)|,
//   r_compl  = max |lambda_k . s_k - target| (limits |lambda v|; target 0, or
//              rho on a central path),
//   r_vi     = |lambda - Pi_K(lambda - s)| (the natural map).
// The law is called once per problem for each projection (never per contact).
#pragma once

#include <vector>

#include "core/constraint_problem.hpp"
#include "core/contact_model.hpp"
#include "core/math.hpp"

namespace contactlab {

// Buffers of the contact rows (3 nc entries each), grown on first use and kept.
struct ResidualScratch {
  std::vector<Real> shifted;    // s = v + Gamma(v)
  std::vector<Real> projected;  // a projection of lambda, s or lambda - s
  std::vector<Real> row_velocity;  // (m) J u+ of every row (velocity_residuals)
};

struct ConstraintResiduals {
  Real r_primal = 0, r_dual = 0, r_compl = 0, r_vi = 0;
};

ConstraintResiduals constraint_residuals(const ConstraintProblem& p, const ContactModel& law,
                                         const std::vector<Real>& lambda, const std::vector<Real>& v_plus,
                                         ResidualScratch& scratch);

// r_vi alone (the common measure of SolveStats::natural_map).
Real natural_map_residual(const ConstraintProblem& p, const ContactModel& law, const std::vector<Real>& lambda,
                          const std::vector<Real>& v_plus, ResidualScratch& scratch);

}  // namespace contactlab
