#include "sim/settings.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>

#include "core/model_limits.hpp"

namespace contactlab {

namespace {

Real parse_override_value(const std::string& key, const std::string& value) {
  const char* s = value.c_str();
  const char* end = s + value.size();
  if (s != end && *s == '+') ++s;
  double v = 0;
  const auto result = std::from_chars(s, end, v);
  if (result.ec != std::errc() || result.ptr != end || s == end || !std::isfinite(v))
    throw std::invalid_argument("model override '" + key + "': '" + value + "' is not a finite number");
  return v;
}

// NAME from PREFIX NAME SUFFIX, or false.
bool split_key(const std::string& key, const std::string& prefix, const std::string& suffix, std::string& name) {
  if (key.size() <= prefix.size() + suffix.size()) return false;
  if (key.compare(0, prefix.size(), prefix) != 0) return false;
  if (key.compare(key.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  name = key.substr(prefix.size(), key.size() - prefix.size() - suffix.size());
  return true;
}

// The bounds of core/model_limits.hpp (the ones the MJCF reader and Model::validate apply).
Real within(const Range& r, Real v) {
  const std::string why = range_violation(r, v);
  if (!why.empty()) throw std::invalid_argument(why);
  return v;
}

void set_body_mass(Body& body, Real m, const std::string& key) {
  if (!(body.mass > 0))
    throw std::invalid_argument("model override '" + key + "': body '" + body.name + "' has no mass to rescale");
  body.inertia_B *= m / body.mass;  // same shape, same density distribution
  body.mass = m;
}

}  // namespace

void apply_model_override(Model& model, const std::string& key, const std::string& value) {
  std::string name;
  if (split_key(key, "body.", ".mass", name)) {
    const int b = model.find_body(name);
    if (b < 0) throw std::invalid_argument("model override '" + key + "': unknown body '" + name + "'");
    const Real m = parse_override_value(key, value);
    if (!(m > 0)) throw std::invalid_argument("model override '" + key + "': mass must be > 0, got " + value);
    const std::string why = range_violation(limits::kMass, m);
    if (!why.empty()) throw std::invalid_argument("model override '" + key + "': mass " + why);
    set_body_mass(model.bodies[b], m, key);
    return;
  }
  if (split_key(key, "geom.", ".friction", name)) {
    const int g = model.find_geom(name);
    if (g < 0) throw std::invalid_argument("model override '" + key + "': unknown geom '" + name + "'");
    const Real mu = parse_override_value(key, value);
    if (mu < 0) throw std::invalid_argument("model override '" + key + "': friction must be >= 0, got " + value);
    const std::string why = range_violation(limits::kFriction, mu);
    if (!why.empty()) throw std::invalid_argument("model override '" + key + "': friction " + why);
    model.geoms[g].friction = mu;
    return;
  }
  if (key.rfind("actuator.", 0) == 0) {
    OptionSet set;
    bind_model_parameters(set, model);
    set.set(key, value);
    return;
  }
  throw std::invalid_argument("unknown model override '" + key +
                              "' (supported: body.NAME.mass, geom.NAME.friction, actuator.NAME.kp|kv)");
}

bool is_model_parameter(const std::string& key) {
  return key.rfind("body.", 0) == 0 || key.rfind("geom.", 0) == 0 || key.rfind("actuator.", 0) == 0;
}

void bind_model_parameters(OptionSet& set, Model& model) {
  for (Body& b : model.bodies) {
    if (b.name.empty() || !(b.mass > 0)) continue;
    const std::string key = "body." + b.name + ".mass";
    Body* body = &b;
    set.add_number(key, "kg, the body's mass (its inertia scaled by the same ratio)", [body] { return body->mass; },
                   [body, key](Real m) {
                     if (!(m > 0)) throw std::invalid_argument("mass must be > 0");
                     set_body_mass(*body, within(limits::kMass, m), key);
                   });
  }
  for (Geom& g : model.geoms) {
    if (g.name.empty()) continue;
    Geom* geom = &g;
    set.add_number("geom." + g.name + ".friction", "sliding friction coefficient (a pair takes the larger)",
                   [geom] { return geom->friction; }, [geom](Real mu) { geom->friction = within(limits::kFriction, mu); }, 0);
  }
  for (Actuator& a : model.actuators) {
    if (a.name.empty()) continue;
    Actuator* act = &a;
    const std::string prefix = "actuator." + a.name + ".";
    if (a.type == ActuatorType::Position) {
      set.add_number(prefix + "kp", "N/m or N m/rad, the position servo's stiffness", [act] { return act->kp; },
                     [act](Real k) { act->kp = within(limits::kGain, k); }, 0);
      set.add_number(prefix + "kv", "N s/m or N m s/rad, the position servo's damping", [act] { return act->kv; },
                     [act](Real k) { act->kv = within(limits::kGain, k); }, 0);
    } else if (a.type == ActuatorType::Velocity) {
      // A velocity servo keeps its gain (MJCF kv) in Actuator::kp.
      set.add_number(prefix + "kv", "N s/m or N m s/rad, the velocity servo's gain", [act] { return act->kp; },
                     [act](Real k) { act->kp = within(limits::kGain, k); }, 0);
    }
  }
}

void bind_run_options(OptionSet& set, Model& model, ContactModel& law, Solver& solver, Scheme& scheme) {
  law.bind_options(set, "contact.");
  set.add_alias("model.", "contact.");
  solver.bind_options(set, "solver.");
  solver.islands.bind(set, "solver.");
  scheme.bind_options(set, "scheme.");
  bind_model_parameters(set, model);
}

const Keyframe* initial_keyframe(const Model& model, const std::string& name) {
  if (name.empty()) return model.keyframes.empty() ? nullptr : &model.keyframes.front();
  for (const Keyframe& k : model.keyframes)
    if (k.name == name) return &k;
  std::string known;
  for (const Keyframe& k : model.keyframes) known += (known.empty() ? "" : ", ") + k.name;
  throw std::invalid_argument("unknown keyframe '" + name + "' (model has: " + (known.empty() ? "none" : known) + ")");
}

}  // namespace contactlab
