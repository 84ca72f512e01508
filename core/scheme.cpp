#include "core/scheme.hpp"

#include "core/step_adjoint.hpp"

namespace contactlab {

void Scheme::solve(const Model&, Data& data, const ContactModel& law, const Solver& solver, Real) const {
  solve_step_problem(data, law, solver);
}

std::unique_ptr<StepAdjoint> Scheme::make_step_adjoint() const {
  return step_adjoint_factory_ ? step_adjoint_factory_(*this) : nullptr;
}

void solve_step_problem(Data& data, const ContactModel& law, const Solver& solver) {
  if (!data.solver_workspace) data.solver_workspace = solver.make_workspace();
  solver.solve(data.problem, law, data.warm, *data.solver_workspace, data.lambda, data.v_plus, data.solve_stats);
  data.warm.penalty = data.solve_stats.penalty;  // the next step starts from it
}

}  // namespace contactlab
