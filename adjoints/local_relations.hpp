// The local law as m equations C(lambda, sigma; mu) = 0, one per row, for
// each sensitivity kind, with its partial derivatives (local_sensitivity.hpp
// linearises them; local_relaxed_point.hpp solves the relaxed ones). Rows and
// units as in LocalProblem; contact blocks are (n, t1, t2).
//
// The scalar rows are written here (not law-specific):
//   row                 exact        relaxed kinds (signorini, central_path, relaxed custom)
//   bilateral           sigma        sigma
//   limit, active       sigma        lambda sigma - rho
//   limit, separating   lambda       lambda sigma - rho
// The contact blocks are the law's (LocalProblem::contact_law(): one call
// over all contacts, ContactModel::contact_relations; de Saxce's law and the
// convex one in contact_models/cone_relations.hpp, which states their
// equations and partials), or a CustomSensitivity's for the custom kind.
// Scales: velocity rows s.velocity, impulse rows s.impulse, product rows
// rho + |lambda||sigma|.
#pragma once

#include <vector>

#include "adjoints/local_sensitivity.hpp"

namespace contactlab {
namespace local_relations {

// Characteristic velocity (m/s) and impulse (N s) of a problem at lambda:
// velocity = max(|b|_inf, a |lambda|_inf, sqrt(rho a)), impulse = velocity / a,
// a = max_i A_ii (1 where A has no positive diagonal; velocity 1 if all vanish).
using Scales = RelationScales;
Scales scales_of(const LocalProblem& problem, const VecX& lambda, Real rho);

// The modes of a hard solution (lambda, sigma = A lambda + b). The natural-map
// argument x = lambda - c sigma^ with c = 1/A_ii of the row (contacts: of the
// normal row; 1/a where A_ii <= 0) decides, as in the B-subdifferential of
// lambda - Pi_K(x): limit rows are active iff x > 0; contacts as the law says
// (ContactModel::contact_modes: stick if x is inside K_mu, separate if x is in
// the polar cone, else slide, unless |sigma_t| <= slip_speed (then stick)).
struct Modes {
  std::vector<bool> limit_active;    // (num_limit)
  std::vector<ContactMode> contact;  // (num_contacts)
};
Modes detect_modes(const LocalProblem& problem, const VecX& lambda, const VecX& sigma, Real slip_speed);

// C at (lambda, sigma) and its partials (block diagonal in the rows).
struct Linearisation {
  VecX residual;  // (m) C(lambda, sigma)
  VecX scale;     // (m) size of the terms of each row: |residual_i| / scale_i is its relative residual
  MatX C_lambda;  // (m x m) dC/dlambda
  MatX C_sigma;   // (m x m) dC/dsigma
  MatX C_mu;      // (m x num_contacts) dC/dmu
  std::vector<ContactRelationBlock> contacts;  // (num_contacts) the contacts' blocks, as the law wrote them
};
// rho is ignored by exact. custom: the kind's object when kind is Custom
// (required then, ignored otherwise).
void evaluate(SensitivityKind kind, const CustomSensitivity* custom, const LocalProblem& problem, const Modes& modes,
              Real rho, const Scales& s, const VecX& lambda, const VecX& sigma, Linearisation& out);
// A built-in kind.
void evaluate(SensitivityKind kind, const LocalProblem& problem, const Modes& modes, Real rho, const Scales& s,
              const VecX& lambda, const VecX& sigma, Linearisation& out);

// The cone check of the relaxed kinds: lambda, sigma > 0 on limit rows and
// the law's check on contacts (ContactModel::contact_interior, or the custom
// kind's: central_path: S lambda ∈ int Q and S^-1 sigma^ ∈ int Q; signorini:
// lambda_n > 0 and a positive normal gap). Kinds at the hard solution: always true.
bool interior(SensitivityKind kind, const CustomSensitivity* custom, const LocalProblem& problem, const VecX& lambda,
              const VecX& sigma);
bool interior(SensitivityKind kind, const LocalProblem& problem, const VecX& lambda, const VecX& sigma);

// Whether `kind` (with its custom object) is linearised at a relaxed point.
bool relaxed(SensitivityKind kind, const CustomSensitivity* custom);

// Step c of row i's natural-map argument (1/A_ii, or 1/a when A_ii <= 0).
Real natural_step(const LocalProblem& problem, int row);
// The contacts' steps c_k of their normal rows (num_contacts).
std::vector<Real> contact_steps(const LocalProblem& problem);

}  // namespace local_relations
}  // namespace contactlab
