#include "core/solver.hpp"

#include "core/batch_solver.hpp"

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

std::unique_ptr<BatchSolver> Solver::make_batch_solver(const ContactModel&, BatchDevice, std::string* why) const {
  if (why) *why = "solver '" + name() + "' has no batched form";
  return nullptr;
}

}  // namespace contactlab
