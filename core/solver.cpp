#include "core/solver.hpp"

namespace contactlab {

const char* to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::Converged: return "converged";
    case SolveStatus::MaxIterations: return "max_iterations";
    case SolveStatus::NumericalFailure: return "numerical_failure";
  }
  return "unknown";
}

}  // namespace contactlab
