// Scheme: one time step of a world — collide, assemble the ConstraintProblem,
// solve it with a Solver under a ContactModel, integrate — in three phases
// that every scheme declares, so that a batch of worlds can solve all their
// problems at once between prepare and finish. Schemes are stateless apart
// from their options; all buffers live in Data (data.scheme_workspace for a
// scheme's own, made by make_workspace).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/contact_model.hpp"
#include "core/data.hpp"
#include "core/model.hpp"
#include "core/options.hpp"
#include "core/solver.hpp"

namespace contactlab {

class StepAdjoint;
class Scheme;
// Makes a scheme's step adjoint (reverse mode through one of its steps).
using StepAdjointFactory = std::function<std::unique_ptr<StepAdjoint>(const Scheme&)>;

class Scheme {
 public:
  virtual ~Scheme() = default;
  virtual std::string name() const = 0;
  // Whether this scheme can drive this law and solver; if not, `why` says so.
  virtual bool accepts(const ContactModel& law, const Solver& solver, std::string* why) const = 0;

  // Advances data by one step of length h (controls already set in
  // data.ctrl): prepare, solve, finish.
  void step(const Model& model, Data& data, const ContactModel& law, const Solver& solver, Real h) const {
    prepare(model, data, law, h);
    solve(model, data, law, solver, h);
    finish(model, data, law, h);
  }
  // Collision, free velocity, data.problem, the warm start in data.warm, and
  // data.metrics.joint_violation (measured at q-).
  virtual void prepare(const Model& model, Data& data, const ContactModel& law, Real h) const = 0;
  // data.problem -> data.lambda, data.v_plus, data.solve_stats. The default
  // runs the solver on data.problem with the workspace data keeps for it.
  virtual void solve(const Model& model, Data& data, const ContactModel& law, const Solver& solver, Real h) const;
  // Integration from data.lambda, the remaining metrics, the warm-start cache.
  virtual void finish(const Model& model, Data& data, const ContactModel& law, Real h) const = 0;
  // True when solve() is the solver on data.problem and nothing else (a
  // linear problem), so that another solver of the same problems, such as a
  // batched one (core/batch_solver.hpp), may take its place. False for a
  // scheme that re-linearises during the solve (backward Euler).
  virtual bool solves_linear_problem() const { return true; }

  // The scheme's per-world scratch, kept in data.scheme_workspace; null: none.
  virtual std::unique_ptr<SchemeWorkspace> make_workspace(const Model& /*model*/) const { return nullptr; }
  virtual void bind_options(OptionSet& set, const std::string& prefix) = 0;

  // Reverse mode through one step of this scheme, or null when it has none.
  // The adjoints live above the forward code (adjoints/), so a built-in
  // scheme's comes from the registry, which hands its factory to every
  // scheme it makes (sim/registry.cpp); a user's scheme may override this or
  // pass a factory when it registers.
  virtual std::unique_ptr<StepAdjoint> make_step_adjoint() const;
  void set_step_adjoint_factory(StepAdjointFactory make) { step_adjoint_factory_ = std::move(make); }

 private:
  StepAdjointFactory step_adjoint_factory_;
};

// Solves data.problem with the solver's workspace kept in data (created on
// first use) into data.lambda, data.v_plus and data.solve_stats.
void solve_step_problem(Data& data, const ContactModel& law, const Solver& solver);

}  // namespace contactlab
