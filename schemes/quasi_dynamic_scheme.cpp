#include "schemes/quasi_dynamic_scheme.hpp"

#include <stdexcept>

namespace contactlab {

void QuasiDynamicOptions::Validate() const {
  if (drop != kDropAll && drop != kDropNone) throw std::invalid_argument("scheme.drop must be 'all' or 'none'");
  stepping.validate();
}

bool QuasiDynamicScheme::accepts(const ContactModel& law, const Solver& solver, std::string* why) const {
  // The step is the velocity scheme's problem with other free velocities.
  return phases().accepts(law, solver, why);
}

void QuasiDynamicScheme::bind_options(OptionSet& set, const std::string& prefix) {
  set.add_validator([this] { options.Validate(); });
  set.add_choice(prefix + "drop", &options.drop, {"all", "none"},
                 "velocities dropped before each step: all (quasi-dynamic) | none (= velocity scheme)");
  VelocitySchemeOptions& s = options.stepping;
  set.add(prefix + "baumgarte", &s.baumgarte, "joint/loop position error removed per step", 0, 1);
  set.add(prefix + "limit_baumgarte", &s.limit_baumgarte, "joint-limit violation removed per step", 0, 1);
  set.add(prefix + "contact_baumgarte", &s.contact_baumgarte, "penetration removed per step", 0, 1);
  set.add(prefix + "contact_slop", &s.contact_slop, "m, penetration left uncorrected", 0);
  set.add(prefix + "contact_margin", &s.contact_margin, "m, contacts are created below this gap", 0);
  set.add(prefix + "warm_start", &s.warm_start, "pass the previous step's impulses to the solver");
  set.add(prefix + "warm_start_radius", &s.warm_start_radius, "m, contact matching distance", 0);
}

VelocityScheme QuasiDynamicScheme::phases() const {
  // A VelocityScheme is its options only: building one per call costs a copy.
  VelocityScheme v;
  v.options = options.stepping;
  return v;
}

void QuasiDynamicScheme::prepare(const Model& model, Data& data, const ContactModel& law, Real h) const {
  options.Validate();
  if (options.drop == QuasiDynamicOptions::kDropAll) {
    // u- = 0: free velocity h M^-1 f, no restitution (J_n u- = 0), no
    // gyroscopic torque, servo/armature rows see a joint at rest. The stored
    // u+ of the last step was for output only.
    for (int b = 0; b < model.num_bodies(); ++b) {
      data.v_W[b].setZero();
      data.w_W[b].setZero();
    }
  }
  phases().prepare(model, data, law, h);
}

void QuasiDynamicScheme::finish(const Model& model, Data& data, const ContactModel& law, Real h) const {
  // Stores u+ = dq/h as the bodies' velocities, integrates, metrics, contact cache.
  phases().finish(model, data, law, h);
}


}  // namespace contactlab
