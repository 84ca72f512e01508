// Solving one standalone frictional-contact problem (a Siconos/FCLib file)
// with any of our solvers, and measuring the answer independently of the
// solver: u = W r + q is recomputed from the file's data and the errors are
// those the field reports.
#pragma once

#include <string>
#include <vector>

#include "core/solver.hpp"
#include "io/fc3d_io.hpp"

namespace contactlab {

struct Fc3dErrors {
  // ||r - P_K(r - (u + Gamma(u)))||_2 over all contacts (the natural map of the
  // de Saxce formulation, unit step), Gamma(u) = mu ||u_t|| e_n.
  Real natural_map = 0;
  // natural_map / ||q||_2 (natural_map itself when ||q|| <= DBL_EPSILON): the
  // relative error of the collection's README (fc3d_compute_error with norm
  // ||q||). This is what --tol bounds.
  Real relative = 0;
  // The error Siconos 4.4 reports (SICONOS_DPARAM_RESIDU) and stops on:
  // natural_map / max(||q||, ||r||, ||u||). Measured against Siconos itself
  // (tests/peers/test_siconos_peer.cpp); never larger than `relative`.
  Real siconos = 0;
  // Kamino's residuals (core/metrics.hpp) with the de Saxce law: infinity
  // norms of the cone violation of r, of u + Gamma(u) against the dual cone,
  // and max_k |r_k . (u_k + Gamma(u_k))|.
  Real r_primal = 0, r_dual = 0, r_compl = 0;
  // The round-off of `relative` itself: DBL_EPSILON (|r| + |u|) over the same
  // scale (|q|). A relative error below it is not measured but rounded away
  // (a solver that diverged to |r| = 1e23 on a singular W scores a natural
  // map of exactly 0: r_n + 1 == r_n), so success also needs rounding <= tol.
  Real rounding = 0;
};

// Success as every command reports it: relative and rounding finite and <= tol.
bool fc3d_success(const Fc3dErrors& errors, Real tol);

// u = W r + q (returned in u) and the errors of r. Non-finite r gives
// non-finite errors, never a pass.
Fc3dErrors fc3d_errors(const FrictionContactProblem& problem, const VecX& r, VecX& u);

// The law a solver is paired with when --contact is not given: the first
// registered one it accepts. Throws for an unknown solver.
std::string default_contact_for(const std::string& solver);

struct Fc3dSolveOptions {
  std::string solver = "padmm";
  std::string contact;             // empty: default_contact_for(solver)
  std::vector<std::string> sets;   // "solver.KEY=VALUE" / "contact.KEY=VALUE"
  Real tol = 1e-6;                 // on Fc3dErrors::relative
  // How the solvers hold W (FrictionContactProblem::to_constraint_problem).
  FrictionContactProblem::Storage storage = FrictionContactProblem::Storage::Auto;
};

struct Fc3dSolveResult {
  std::string solver, contact;
  SolveStats stats;       // the solver's own status and iterations (summed over tightening rounds)
  int rounds = 0;         // solves run (each warm-started, tighter, while the error is above tol)
  double time_s = 0;      // wall time of the solves, setup excluded
  VecX r, u;              // (3 nc), normal first
  Fc3dErrors errors;      // measured on (r, W r + q), not taken from the solver
  bool success = false;   // fc3d_success(errors, tol)
  bool sparse_W = false;  // whether the solver saw W sparse
};

// Throws std::invalid_argument for a problem check_fc3d_problem refuses (zero
// or singular-at-a-contact or non-symmetric W, ...: io/fc3d_io.hpp), unknown
// parts or options, a law the solver does not take, or a solver that needs
// bodies (J) and so cannot take an explicit W. PADMM's default x-update
// (solver.delassus=auto) factorises W sparse from 48 rows on, so a large
// block-sparse W costs about its non-zeros (docs/reliability.md).
Fc3dSolveResult solve_fc3d(const FrictionContactProblem& problem, const Fc3dSolveOptions& options);

}  // namespace contactlab
