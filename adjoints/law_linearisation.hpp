// The contact law of a solved step, linearised where the sensitivity kind
// asks (MATH.md D.2, D.3): modes read from the hard solution, the relaxed
// point for the relaxed kinds (with the fallback to exact), and the law's
// equations C(lambda, sigma; mu) = 0 with their partials there (the contacts'
// from problem.contact_law(), or from options.custom for the custom kind). Shared by the
// dense reference (LocalSensitivity) and the paired adjoints
// (adjoints/solve_adjoint.hpp), which differ only in how they then solve
// K^T y = g, K = C_lambda + C_sigma A.
#pragma once

#include "adjoints/local_relations.hpp"
#include "adjoints/local_sensitivity.hpp"

namespace contactlab {

struct LawLinearisation {
  VecX lambda, sigma;               // (m) the point: the hard solution, or the relaxed point
  local_relations::Linearisation L;  // C and its partials at the point (unscaled)
};

// `sigma_hard` = A lambda + b, given so that a matrix-free caller needs no
// dense A (problem.A may then be empty, for the exact kind only: the relaxed
// kinds' Newton needs A). Resets `report` and fills its modes, the relaxed
// point's fields and the kind used; rank/singular are the caller's.
void linearise_law(const LocalProblem& problem, const VecX& lambda, const VecX& sigma_hard,
                   const SensitivityOptions& options, SensitivityReport& report, LawLinearisation& out);

}  // namespace contactlab
