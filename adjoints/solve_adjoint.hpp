// The solve's part of a step adjoint, paired with the solver that produced it
// (docs/gradients.md "Paired adjoints").
//
// A velocity-scheme step solves the local problem sigma = A lambda + b,
// A = J M^-1 J^T + diag(R), under the contact law, and moves the bodies by
// u+ = u_free + M^-1 J^T lambda. Reverse mode through the solve needs, for the
// cotangent u+_bar, the cotangents of b = v_free and of mu; that of A is then
// b_bar lambda^T (the law sees A only through A lambda + b), so no m x m
// cotangent is ever formed. Every implementation computes the same derivative
// (the implicit-function theorem at the converged solve, for the sensitivity
// kind of adjoints/local_sensitivity.hpp) with the linear algebra of its solver:
//
//   reference      dense LU of K = C_lambda + C_sigma A (LocalSensitivity;
//                  minimum norm when K is singular). Paired with pgs, and
//                  available to every solver (adjoint.solve=reference).
//   newton         matrix free with the forward's operator J M^-1 J^T + R and
//                  Jacobi preconditioner: when the linearised law is one
//                  relation per row (exact or signorini kinds, no sliding
//                  contact) one PCR solve of the symmetric reduced system
//                  (Ostrich eq. 18 with the mode's a, c in {0, 1}); otherwise
//                  (sliding contacts, central path) GMRES on K^T with a
//                  block-Jacobi preconditioner.
//   padmm          its Delassus: dense path (solver.delassus=dense) the
//                  forward's dense D assembled by the same routine, the reduced
//                  symmetric system by Cholesky (LU of K when rows couple);
//                  matrix-free path as newton.
//   convex_newton  CQDC's implicit gradient (MATH.md D.4): the solver's own
//                  Hessian H = M + J^T W J at the converged velocities, one
//                  dense Cholesky solve H w = u+_bar; exact kind only (the
//                  relaxed kinds go through the reference and say so).
//
// A Krylov solve that misses its tolerance, or a reduced system that is
// singular where the reference's minimum-norm answer is wanted, falls back to
// the reference; stats() says which method ran.
#pragma once

#include <memory>
#include <string>

#include "adjoints/local_sensitivity.hpp"
#include "core/constraint_problem.hpp"
#include "core/contact_model.hpp"
#include "core/solve_adjoint.hpp"
#include "core/solver.hpp"

namespace contactlab {

// The local problem of a velocity-scheme step in dense form (the reference's
// input): A with the problem's compliance, plus the law's contact compliance
// when the law is convex (ccp), and desaxce = !law.is_convex().
LocalProblem local_problem_of(const ConstraintProblem& problem, const ContactModel& law, bool dense);

// The dense reference. The adjoint paired with each solver is chosen by the
// registry's table (sim/registry.hpp: make_solve_adjoint).
std::unique_ptr<SolveAdjoint> make_reference_solve_adjoint();

}  // namespace contactlab
