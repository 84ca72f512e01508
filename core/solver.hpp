// Solver: finds (lambda, v+) for a ConstraintProblem under a ContactModel.
// Solvers are stateless apart from their options; every buffer they use lives
// in a SolverWorkspace owned by the world's Data and sized on first use, so the
// step loop does not allocate once sizes have been seen.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/constraint_problem.hpp"
#include "core/contact_model.hpp"
#include "core/options.hpp"
#include "core/residuals.hpp"

namespace contactlab {

enum class SolveStatus { Converged, MaxIterations, NumericalFailure };
const char* to_string(SolveStatus s);

// The same statistics from every solver, so solvers can be compared. The
// solver's own residuals are in its own scaling; wall_time_s and natural_map
// are measured by Solver::solve around every solver in one way.
struct SolveStats {
  SolveStatus status = SolveStatus::Converged;
  int iterations = 0;
  Real r_primal = 0, r_dual = 0, r_compl = 0;  // solver's own residuals at exit (its scaling)
  std::vector<Real> residual_history;          // per iteration: max(r_primal, r_dual, r_compl)
  bool record_history = false;                 // set by the caller; off in the hot loop
  double wall_time_s = 0;                      // s, the solve alone
  // The natural-map residual of the answer, the common measure (MATH.md E.1,
  // core/residuals.hpp): |v| on bilateral rows, |lambda - max(0, lambda - v)|
  // on limits, |lambda - Pi_K(lambda - (v + Gamma(v)))| on contacts; max norm.
  Real natural_map = 0;
  // The penalty the solve ended with (PADMM's rho), for the next step's
  // WarmStart::penalty; 0 for a solver without one.
  Real penalty = 0;
};

// Initial guess for a solve: impulses and velocities per row, when known.
struct WarmStart {
  bool valid = false;
  std::vector<Real> lambda;  // (m)
  std::vector<Real> v;       // (m)
  // A penalty to start from (PADMM's rho, the previous step's final one);
  // 0: the solver's own default. Kept in the world's state (data.warm, and
  // checkpoints), so a replay from a checkpoint solves as the first pass did.
  Real penalty = 0;
};

class BatchSolver;
enum class BatchDevice;
class IslandWorkspace;  // core/island_solve.hpp

// Solving a problem island by island (core/islands.hpp): rows of different
// islands share no body, so each island is a problem of its own, with its own
// warm start, early exit and statistics. Every solver gets this from
// Solver::solve; a problem given by an explicit Delassus matrix, or one a
// relinearising solver evaluates through nonlinear rows, is solved whole.
struct IslandOptions {
  bool enabled = true;  // split into islands when there are two or more
  int threads = 1;      // threads solving islands, the caller included; 0 = hardware concurrency
  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
  // "PREFIXislands" and "PREFIXisland_threads".
  void bind(OptionSet& set, const std::string& prefix);
};

class SolverWorkspace {
 public:
  SolverWorkspace();
  virtual ~SolverWorkspace();
  ResidualScratch residual_scratch;  // for Solver::solve's natural-map measurement
  std::unique_ptr<IslandWorkspace> islands;  // made on the first split solve
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;
  // Whether this solver can solve this law; if not, `why` says so in one line.
  virtual bool accepts(const ContactModel& law, std::string* why) const = 0;
  virtual std::unique_ptr<SolverWorkspace> make_workspace() const = 0;
  // Whether the solver re-evaluates problem.nonlinear_rows at each iterate
  // (required by schemes that evaluate constraints at q+, e.g. backward Euler).
  virtual bool relinearises() const { return false; }
  // Solves (do_solve, island by island when `islands` says so), then measures
  // the solve's wall time and its answer's natural-map residual over the
  // whole problem into stats, the same way for every solver. lambda
  // and v_plus are resized to the number of rows (std::vector keeps its
  // capacity, so a reused buffer does not allocate).
  void solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
             SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
             SolveStats& stats) const;
  virtual void bind_options(OptionSet& set, const std::string& prefix) = 0;
  // A form of this solver that solves many worlds' problems in one call, for
  // `law` on `device` (core/batch_solver.hpp); null, with the reason in `why`,
  // when there is none. It refers to this solver (its options), which must
  // outlive it.
  virtual std::unique_ptr<BatchSolver> make_batch_solver(const ContactModel& law, BatchDevice device,
                                                         std::string* why) const;

  IslandOptions islands;

 protected:
  // The solver itself: fills lambda, v_plus (v+ = D lambda + v_f) and stats'
  // status, iterations, own residuals and history.
  virtual void do_solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                        SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                        SolveStats& stats) const = 0;

 private:
  // do_solve on each island of the problem (core/island_solve.cpp); false,
  // having done nothing, when the problem is not split (fewer than two
  // islands, or a kind of problem that is solved whole).
  bool solve_by_islands(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                        SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                        SolveStats& stats) const;
};

}  // namespace contactlab
