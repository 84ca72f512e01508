#include "sim/settings.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>

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

}  // namespace

void apply_model_override(Model& model, const std::string& key, const std::string& value) {
  std::string name;
  if (split_key(key, "body.", ".mass", name)) {
    const int b = model.find_body(name);
    if (b < 0) throw std::invalid_argument("model override '" + key + "': unknown body '" + name + "'");
    const Real m = parse_override_value(key, value);
    if (!(m > 0)) throw std::invalid_argument("model override '" + key + "': mass must be > 0, got " + value);
    Body& body = model.bodies[b];
    if (!(body.mass > 0))
      throw std::invalid_argument("model override '" + key + "': body '" + name + "' has no mass to rescale");
    body.inertia_B *= m / body.mass;  // same shape, same density distribution
    body.mass = m;
    return;
  }
  if (split_key(key, "geom.", ".friction", name)) {
    const int g = model.find_geom(name);
    if (g < 0) throw std::invalid_argument("model override '" + key + "': unknown geom '" + name + "'");
    const Real mu = parse_override_value(key, value);
    if (mu < 0) throw std::invalid_argument("model override '" + key + "': friction must be >= 0, got " + value);
    model.geoms[g].friction = mu;
    return;
  }
  throw std::invalid_argument("unknown model override '" + key + "' (supported: body.NAME.mass, geom.NAME.friction)");
}

void apply_setting(Model& model, OptionSet& options, const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw std::invalid_argument("bad --set '" + kv + "': expected KEY=VALUE");
  std::string key = kv.substr(0, eq);
  const std::string value = kv.substr(eq + 1);
  if (key.rfind("model.", 0) == 0) key = "contact." + key.substr(6);
  if (key.rfind("body.", 0) == 0 || key.rfind("geom.", 0) == 0) {
    apply_model_override(model, key, value);
    model.validate();
    return;
  }
  options.set(key, value);
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
