#include "core/solver.hpp"

#include <chrono>

#include "core/batch_solver.hpp"
#include "core/island_solve.hpp"

namespace contactlab {

const char* to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::Converged: return "converged";
    case SolveStatus::MaxIterations: return "max_iterations";
    case SolveStatus::NumericalFailure: return "numerical_failure";
  }
  return "unknown";
}

const char* to_string(BatchDevice d) { return d == BatchDevice::Cpu ? "cpu" : "cuda"; }

void Solver::solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                   SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                   SolveStats& stats) const {
  const auto t0 = std::chrono::steady_clock::now();
  if (!solve_by_islands(problem, law, warm, workspace, lambda, v_plus, stats))
    do_solve(problem, law, warm, workspace, lambda, v_plus, stats);
  stats.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stats.natural_map = natural_map_residual(problem, law, lambda, v_plus, workspace.residual_scratch);
}

std::unique_ptr<BatchSolver> Solver::make_batch_solver(const ContactModel&, BatchDevice, std::string* why) const {
  if (why) *why = "solver '" + name() + "' has no batched form";
  return nullptr;
}

}  // namespace contactlab
