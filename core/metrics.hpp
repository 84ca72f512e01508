// Per-step physics metrics (MATH.md E.1), computed from (lambda, v+) and the
// law's own projections, independently of the solver that produced them.
#pragma once

#include <vector>

#include "core/constraint_problem.hpp"
#include "core/contact_model.hpp"
#include "core/data.hpp"

namespace contactlab {

// Fills r_primal, r_dual, r_compl, r_vi of `m`.
// Bilateral rows: K = R, K* = {0}; limit rows: K = K* = R+; contacts: the law's cones
// with s = v + Gamma(v); complementarity is measured against the law's target
// (0, or rho on a central path).
void constraint_residuals(const ConstraintProblem& p, const ContactModel& law, const std::vector<Real>& lambda,
                          const std::vector<Real>& v_plus, StepMetrics& m);

// Kinetic plus gravitational potential energy of all moving bodies, J
// (potential measured from z = 0 along -gravity).
Real mechanical_energy(const Model& model, const Data& data);

}  // namespace contactlab
