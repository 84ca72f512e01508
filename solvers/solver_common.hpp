// What the solvers (padmm, pgs, convex_newton, newton) share: the base of a
// solver configured by an options struct, and the helpers of a solve (option
// validation, workspace and problem checks, the start and the failed end of a
// solve, growing workspace buffers, the contact law's compliance, the
// Delassus diagonal, the complementarity residual of MATH.md E.1).
#pragma once

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "core/linalg/vector_ops.hpp"
#include "core/options.hpp"
#include "core/solver.hpp"

namespace contactlab {

// A solver whose settings are one Options struct (with Validate() and
// bind(set, prefix)) and whose buffers live in a Workspace (what
// make_workspace() returns). It accepts every law unless it overrides
// accepts(): every ContactModel provides project_primal and velocity_shift,
// which is all a solver of the dual problem needs (soft laws add their
// contact compliance to D).
template <typename Options, typename Workspace>
class SolverWithOptions : public Solver {
 public:
  using options_type = Options;

  SolverWithOptions() = default;
  explicit SolverWithOptions(const Options& options) : options(options) {}

  bool accepts(const ContactModel&, std::string*) const override { return true; }
  std::unique_ptr<SolverWorkspace> make_workspace() const override { return std::make_unique<Workspace>(); }
  void bind_options(OptionSet& set, const std::string& prefix) override {
    options.bind(set, prefix);
    set.add_validator([this] { options.Validate(); });
  }

  Options options;
};

namespace solver_common {

using contactlab::OptionCheck;

// Throws std::invalid_argument ("<solver>: ...") when the problem's sizes are
// inconsistent or a row refers to a body out of range.
void check_problem(const ConstraintProblem& pr, const char* solver);

// The solver's own workspace type, after check_problem; a workspace made by
// another solver is misuse: std::invalid_argument ("<solver>: workspace was
// not made by <solver_class>::make_workspace()").
template <typename W>
W& checked_workspace(SolverWorkspace& workspace, const ConstraintProblem& problem, const char* solver,
                     const char* solver_class) {
  // A type check, not dispatch: the workspace must be the one this solver made.
  if (typeid(workspace) != typeid(W))
    throw std::invalid_argument(std::string(solver) + ": workspace was not made by " + solver_class +
                                "::make_workspace()");
  check_problem(problem, solver);
  return static_cast<W&>(workspace);
}

// Start of a solve: stats reset to Converged with no iterations and zero
// residuals, the history cleared and `history_capacity` reserved when it is
// recorded (allocates only the first time), lambda and v_plus sized to m rows.
void begin_solve(SolveStats& stats, int history_capacity, int m, std::vector<Real>& lambda,
                 std::vector<Real>& v_plus);

// A failed solve: NumericalFailure with zero output.
void fail_solve(SolveStats& stats, std::vector<Real>& lambda, std::vector<Real>& v_plus);

// Grows a buffer to at least n entries; never shrinks, so capacity is kept.
template <typename T>
T* grow(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

using linalg::dot;

// r <- max(r, x), keeping a NaN once seen (std::max would drop it and hide a
// numerical failure behind a small residual).
inline void max_into(Real& r, Real x) {
  if (r == r && !(x <= r)) r = x;
}

// The law's compliance of the 3 nc contact rows into R (zeros for a hard law).
// Returns R for a soft law, nullptr for a hard one.
const Real* law_contact_compliance(const ContactModel& law, const Real* mu, int nc, Real* R);

// Diagonal compliance of row r: the problem's, plus the law's contact_R on a
// contact row (contact_R: 3 nc entries, or nullptr for a hard law).
inline Real row_compliance(const ConstraintProblem& pr, const Real* contact_R, int r) {
  const int off = pr.contact_offset();
  return pr.compliance[r] + (contact_R && r >= off ? contact_R[r - off] : Real(0));
}

// The Delassus entries (core/constraint_problem.hpp).
using contactlab::body_minv;
using contactlab::delassus_diagonal_entry;
using contactlab::delassus_entry;

// Complementarity residual (MATH.md E.1): max over limit rows |lambda_i v_i|
// and over contacts |lambda_k . w_k|, w the contact rows' v + Gamma(v) (3 nc
// entries; v itself for a convex law). A NaN is kept.
Real complementarity_residual(const ConstraintProblem& pr, const Real* lambda, const Real* v, const Real* contact_w);

}  // namespace solver_common
}  // namespace contactlab
