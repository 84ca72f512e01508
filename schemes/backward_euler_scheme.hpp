// Backward Euler in maximal coordinates (Ostrich; MATH.md A.1), for large steps.
//
//   q+ = q- + h G(q-) u+,   M (u+ - u-) = h f(q-, u-) + J^T lambda,
//   position-level rows (joints, loop closures, limits, contact gaps) hold at q+:
//   c(q+)/h is the row value, not its linearisation c(q-)/h + J u+.
// The solver re-evaluates every row at each iterate u_k through
// ConstraintProblem::nonlinear_rows: position rows as c(q_k)/h, velocity rows
// (friction, servos, damping) as J(q_k) u_k. Contact set and normals are fixed
// at q-; each contact's surface points follow their geometric features
// (geometry/contact_feature.hpp: a rolling wheel keeps its contact at the bottom).
// The impulses act along J(q-), as in Ostrich's implementation [R-ax]
// (measured robust at h = 0.1 s on wheeled_pallet, exact steady rolling), or,
// with jacobian_at_q_plus, along J(q+) (fully implicit: a joint-only system
// never gains energy, but a rolling robot's wheel speed is off by O(h);
// docs/solvers.md has the measurements). No restitution (e = 0, as Ostrich)
// and no Baumgarte fraction: a position error is removed within one step.
//
// Only solvers that re-linearise (Solver::relinearises(), i.e. `newton`) are
// accepted: a linear solver would silently solve the linearised problem.
#pragma once

#include "core/scheme.hpp"
#include "schemes/velocity_scheme.hpp"

namespace contactlab {

struct BackwardEulerOptions {
  Real contact_margin = 0.05;    // m: contacts are created below this gap (large steps travel far)
  bool warm_start = true;
  Real warm_start_radius = 0.05; // m
  bool gyroscopic = true;
  bool jacobian_at_q_plus = true;  // false: impulses along J(q-), as Ostrich
  void validate() const;
};

class BackwardEulerScheme final : public Scheme {
 public:
  std::string name() const override { return "backward_euler"; }
  bool accepts(const ContactModel& law, const Solver& solver, std::string* why) const override;
  // prepare: the linearised velocity-scheme problem at q- and the row
  // evaluator at q+ (BackwardEulerRows, data.scheme_workspace); solve: the
  // re-linearising solver with that evaluator; finish: J at the accepted q+,
  // metrics, and the accepted iterate as the new state.
  void prepare(const Model& model, Data& data, const ContactModel& law, Real h) const override;
  void solve(const Model& model, Data& data, const ContactModel& law, const Solver& solver, Real h) const override;
  void finish(const Model& model, Data& data, const ContactModel& law, Real h) const override;
  bool solves_linear_problem() const override { return false; }
  std::unique_ptr<SchemeWorkspace> make_workspace(const Model& model) const override;
  void bind_options(OptionSet& set, const std::string& prefix) override;
  BackwardEulerOptions options;

 private:
  VelocityScheme linearised(const ContactModel& law) const;
};

}  // namespace contactlab
