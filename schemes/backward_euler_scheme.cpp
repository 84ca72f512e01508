#include "schemes/backward_euler_scheme.hpp"

#include <algorithm>
#include <stdexcept>
#include <typeinfo>

#include "schemes/assembly.hpp"
#include "schemes/backward_euler_rows.hpp"

namespace contactlab {

void BackwardEulerOptions::validate() const {
  if (!(contact_margin >= 0)) throw std::invalid_argument("scheme.contact_margin must be >= 0");
  if (!(warm_start_radius >= 0)) throw std::invalid_argument("scheme.warm_start_radius must be >= 0");
}

bool BackwardEulerScheme::accepts(const ContactModel&, const Solver& solver, std::string* why) const {
  if (solver.relinearises()) return true;
  if (why)
    *why = "backward_euler evaluates constraints at q+ and needs a solver that re-linearises at each iterate "
           "(newton); '" + solver.name() + "' solves the linearised problem only";
  return false;
}

void BackwardEulerScheme::bind_options(OptionSet& set, const std::string& prefix) {
  set.add_validator([this] { options.validate(); });
  set.add(prefix + "contact_margin", &options.contact_margin, "m, contacts are created below this gap", 0);
  set.add(prefix + "warm_start", &options.warm_start, "pass the previous step's impulses to the solver");
  set.add(prefix + "warm_start_radius", &options.warm_start_radius, "m, contact matching distance", 0);
  set.add(prefix + "gyroscopic", &options.gyroscopic, "explicit gyroscopic torque");
  set.add(prefix + "jacobian_at_q_plus", &options.jacobian_at_q_plus,
          "impulses along J(q+) (fully implicit, dissipative) instead of J(q-) (Ostrich)");
}

VelocityScheme BackwardEulerScheme::linearised(const ContactModel&) const {
  // The velocity scheme's phases with full correction and no restitution give
  // J at q-, the free velocity and the linearised rows; the solver replaces the
  // position-level rows by their values at each iterate.
  VelocityScheme v;
  v.options.baumgarte = v.options.limit_baumgarte = v.options.contact_baumgarte = 1;
  v.options.contact_slop = 0;
  v.options.restitution = 0;
  v.options.contact_margin = options.contact_margin;
  v.options.warm_start = options.warm_start;
  v.options.warm_start_radius = options.warm_start_radius;
  v.options.gyroscopic = options.gyroscopic;
  v.options.armature_basis_drift = false;  // its velocity rows are evaluated at q+
  return v;
}

std::unique_ptr<SchemeWorkspace> BackwardEulerScheme::make_workspace(const Model& model) const {
  auto rows = std::make_unique<BackwardEulerRows>();
  rows->at.init(model);
  return rows;
}

namespace {

BackwardEulerRows& rows_of(const Model& model, Data& data, const BackwardEulerScheme& scheme) {
  // A world moved between schemes keeps another scheme's scratch: replace it.
  if (!data.scheme_workspace || typeid(*data.scheme_workspace) != typeid(BackwardEulerRows))
    data.scheme_workspace = scheme.make_workspace(model);
  return static_cast<BackwardEulerRows&>(*data.scheme_workspace);
}

}  // namespace

void BackwardEulerScheme::prepare(const Model& model, Data& data, const ContactModel& law, Real h) const {
  const VelocityScheme v = linearised(law);
  v.prepare(model, data, law, h);
  BackwardEulerRows& rows = rows_of(model, data, *this);
  rows.model = &model;
  rows.base = &data;
  rows.h = h;
  rows.jacobian_at_q_plus = options.jacobian_at_q_plus;
  rows.at.contacts = data.contacts;  // same contact set, gaps updated per iterate (capacity kept)
  rows.at.u_free.resize(data.u_free.size());
  rows.at.ctrl = data.ctrl;
  rows.setup();
}

void BackwardEulerScheme::solve(const Model& model, Data& data, const ContactModel& law, const Solver& solver,
                                Real) const {
  if (!solver.relinearises()) throw std::invalid_argument(name() + " needs a re-linearising solver");
  BackwardEulerRows& rows = rows_of(model, data, *this);
  data.problem.nonlinear_rows = &rows;
  solve_step_problem(data, law, solver);
  data.problem.nonlinear_rows = nullptr;
}

void BackwardEulerScheme::finish(const Model& model, Data& data, const ContactModel& law, Real h) const {
  BackwardEulerRows& rows = rows_of(model, data, *this);
  // Integrate with J at the accepted q+: u+ = u_free + M^-1 J(q+)^T lambda,
  // which is the solver's iterate up to its residual.
  const bool accepted = rows.accepted_delta.size() == data.u_free.size();
  if (accepted) data.problem.rows.swap(rows.rows_at_plus);
  rows.accepted_delta.clear();
  linearised(law).finish(model, data, law, h);
  // The state is the solver's accepted iterate itself (accept() evaluated the
  // bodies there): u+ = u_free + delta, q+ = q- + h G u+. With an inexact
  // solve, M^-1 J^T lambda differs from delta, and integrating the former
  // feeds the solver's residual back into the next step.
  if (accepted) {
    for (int b = 0; b < model.num_bodies(); ++b) {
      if (model.bodies[b].fixed) continue;
      data.x_W[b] = rows.at.x_W[b];
      data.q_WB[b] = rows.at.q_WB[b];
      data.v_W[b] = rows.at.v_W[b];
      data.w_W[b] = rows.at.w_W[b];
    }
  }
}

}  // namespace contactlab
