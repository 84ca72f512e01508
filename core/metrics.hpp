// Per-step physics metrics (MATH.md E.1), computed from (lambda, v+) and the
// law's own projections, independently of the solver that produced them.
#pragma once

#include <vector>

#include "core/constraint_problem.hpp"
#include "core/contact_model.hpp"
#include "core/data.hpp"
#include "core/residuals.hpp"

namespace contactlab {

// Fills r_primal, r_dual, r_compl, r_vi of `m` (core/residuals.hpp has the
// definitions; scratch is data.residual_scratch in a step).
void constraint_residuals(const ConstraintProblem& p, const ContactModel& law, const std::vector<Real>& lambda,
                          const std::vector<Real>& v_plus, ResidualScratch& scratch, StepMetrics& m);

// Velocity-level residuals of the state after the step (MATH.md E.1, Kamino's
// r_kinematics and r_v), from the rows' raw velocities w = J u+ (no
// Baumgarte bias, restitution or compliance): r_kin = max |w_r| over the
// bilateral rows with zero compliance (joint locks, loop closures,
// equalities; servo, damping and armature rows are compliant, not
// kinematic), r_v = |w_C - Pi_K*(w_C)| over the contact blocks with the law's
// dual cone. u_plus has 6 entries per body (v, w); scratch.row_velocity is
// grown once and kept.
void velocity_residuals(const ConstraintProblem& p, const ContactModel& law, const Real* u_plus,
                        ResidualScratch& scratch, StepMetrics& m);

// Kinetic plus gravitational potential energy of all moving bodies, plus the
// joint and fixed-tendon springs' energy, J
// (potential measured from z = 0 along -gravity).
Real mechanical_energy(const Model& model, const Data& data);

}  // namespace contactlab
