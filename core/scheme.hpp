// Scheme: one time step of a world — collide, assemble the ConstraintProblem,
// solve it with a Solver under a ContactModel, integrate. Schemes are
// stateless apart from their options; all buffers live in Data.
#pragma once

#include <string>

#include "core/contact_model.hpp"
#include "core/data.hpp"
#include "core/model.hpp"
#include "core/options.hpp"
#include "core/solver.hpp"

namespace contactlab {

class Scheme {
 public:
  virtual ~Scheme() = default;
  virtual std::string name() const = 0;
  // Whether this scheme can drive this law and solver; if not, `why` says so.
  virtual bool accepts(const ContactModel& law, const Solver& solver, std::string* why) const = 0;
  // Advances data by one step of length h (controls already set in data.ctrl).
  virtual void step(const Model& model, Data& data, const ContactModel& law, const Solver& solver, Real h) const = 0;
  virtual void bind_options(OptionSet& set, const std::string& prefix) = 0;
};

// Solves data.problem with the solver's workspace kept in data (created on
// first use) into data.lambda, data.v_plus and data.solve_stats.
inline void solve_step_problem(Data& data, const ContactModel& law, const Solver& solver) {
  if (!data.solver_workspace) data.solver_workspace = solver.make_workspace();
  solver.solve(data.problem, law, data.warm, *data.solver_workspace, data.lambda, data.v_plus, data.solve_stats);
}

}  // namespace contactlab
