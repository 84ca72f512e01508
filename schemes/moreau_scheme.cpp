#include "schemes/moreau_scheme.hpp"

namespace contactlab {

VelocityScheme MoreauScheme::phases() const {
  // A VelocityScheme is its options only: building one per call costs a copy.
  VelocityScheme v;
  v.options = options;
  v.options.position_step = 0.5;
  return v;
}

bool MoreauScheme::accepts(const ContactModel& law, const Solver& solver, std::string* why) const {
  // The step is the velocity scheme's problem assembled at the midpoint.
  return phases().accepts(law, solver, why);
}

void MoreauScheme::bind_options(OptionSet& set, const std::string& prefix) {
  bind_velocity_options(set, prefix, options);
}

void MoreauScheme::prepare(const Model& model, Data& data, const ContactModel& law, Real h) const {
  const Real half = 0.5 * h;
  for (int b = 0; b < model.num_bodies(); ++b) {
    if (model.bodies[b].fixed) continue;
    moreau_drift(data.x_W[b], data.q_WB[b], data.v_W[b], data.w_W[b], half);
  }
  phases().prepare(model, data, law, h);
}

void MoreauScheme::finish(const Model& model, Data& data, const ContactModel& law, Real h) const {
  phases().finish(model, data, law, h);
}

}  // namespace contactlab
