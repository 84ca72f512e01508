#include "adjoints/grad_inputs.hpp"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "adjoints/loss.hpp"

namespace contactlab {

namespace {

[[noreturn]] void fail(const std::string& item, const std::string& why) {
  throw std::invalid_argument("--wrt '" + item + "': " + why);
}

// "PREFIX" NAME ".SUFFIX" with NAME possibly containing dots.
bool split_name(const std::string& s, const std::string& prefix, std::string& name, std::string& suffix) {
  if (s.rfind(prefix, 0) != 0) return false;
  const std::string rest = s.substr(prefix.size());
  const auto dot = rest.rfind('.');
  if (dot == std::string::npos || dot == 0) return false;
  name = rest.substr(0, dot);
  suffix = rest.substr(dot + 1);
  return true;
}

GradInput parse_one(const std::string& item, const Model& model) {
  GradInput in;
  in.text = item;
  std::string name, suffix;
  if (split_name(item, "init:", name, suffix)) {
    in.kind = GradInput::Kind::Init;
    in.index = model.find_body(name);
    if (in.index < 0) fail(item, "unknown body '" + name + "'");
    if (model.bodies[in.index].fixed) fail(item, "body '" + name + "' is fixed");
    in.field = state_field_index(suffix);
    if (in.field < 0) {
      if (suffix == "rx") in.field = 9;
      else if (suffix == "ry") in.field = 10;
      else if (suffix == "rz") in.field = 11;
      else fail(item, "unknown field '" + suffix + "' (expected px py pz vx vy vz wx wy wz rx ry rz)");
    }
    return in;
  }
  if (split_name(item, "param:geom.", name, suffix)) {
    if (suffix != "friction") fail(item, "geom parameters: friction");
    in.kind = GradInput::Kind::Friction;
    in.index = model.find_geom(name);
    if (in.index < 0) fail(item, "unknown geom '" + name + "'");
    return in;
  }
  if (split_name(item, "param:body.", name, suffix)) {
    if (suffix != "mass") fail(item, "body parameters: mass");
    in.kind = GradInput::Kind::Mass;
    in.index = model.find_body(name);
    if (in.index < 0) fail(item, "unknown body '" + name + "'");
    if (!(model.bodies[in.index].mass > 0)) fail(item, "body '" + name + "' has no mass");
    return in;
  }
  if (split_name(item, "param:actuator.", name, suffix)) {
    in.index = model.find_actuator(name);
    if (in.index < 0) fail(item, "unknown actuator '" + name + "'");
    const ActuatorType type = model.actuators[in.index].type;
    if (type == ActuatorType::Position && suffix == "kp") in.kind = GradInput::Kind::Stiffness;
    else if (type == ActuatorType::Position && suffix == "kv") in.kind = GradInput::Kind::Damping;
    else if (type == ActuatorType::Velocity && suffix == "kv") in.kind = GradInput::Kind::VelocityGain;
    else if (type == ActuatorType::Velocity && suffix == "kp") fail(item, "a velocity servo's gain is kv");
    else if (type == ActuatorType::Motor) fail(item, "a motor has no gains");
    else fail(item, "actuator parameters: kp, kv");
    return in;
  }
  if (item.rfind("ctrl:", 0) == 0) {
    in.kind = GradInput::Kind::Control;
    std::string rest = item.substr(5);
    const auto at = rest.find('@');
    if (at != std::string::npos) {
      const std::string step = rest.substr(at + 1);
      char* end = nullptr;
      const long s = std::strtol(step.c_str(), &end, 10);
      if (step.empty() || *end != '\0' || s < 0) fail(item, "bad step '" + step + "' (expected an integer >= 0)");
      in.step = s;
      rest = rest.substr(0, at);
    }
    in.index = model.find_actuator(rest);
    if (in.index < 0) fail(item, "unknown actuator '" + rest + "'");
    return in;
  }
  fail(item, "expected init:BODY.FIELD, param:geom.NAME.friction, param:body.NAME.mass, "
             "param:actuator.NAME.kp|kv, ctrl:ACTUATOR or ctrl:ACTUATOR@STEP");
}

}  // namespace

std::vector<GradInput> parse_grad_inputs(const std::string& list, const Model& model) {
  std::vector<GradInput> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) throw std::invalid_argument("--wrt '" + list + "': empty entry");
    for (const GradInput& seen : out)
      if (seen.text == item) throw std::invalid_argument("--wrt '" + item + "' is listed twice");
    out.push_back(parse_one(item, model));
  }
  if (out.empty()) throw std::invalid_argument("--wrt: no inputs");
  return out;
}

void perturb_model(const GradInput& in, Real eps, Model& model) {
  switch (in.kind) {
    case GradInput::Kind::Friction: model.geoms[in.index].friction += eps; break;
    case GradInput::Kind::Mass: {
      Body& b = model.bodies[in.index];
      const Real m = b.mass + eps;
      b.inertia_B *= m / b.mass;
      b.mass = m;
      break;
    }
    case GradInput::Kind::Stiffness:
    case GradInput::Kind::VelocityGain: model.actuators[in.index].kp += eps; break;
    case GradInput::Kind::Damping: model.actuators[in.index].kv += eps; break;
    case GradInput::Kind::Init:
    case GradInput::Kind::Control: break;
  }
}

void perturb_initial_state(const GradInput& in, Real eps, const Model& model, Data& data) {
  if (in.kind != GradInput::Kind::Init) return;
  const int b = in.index, group = in.field / 3, k = in.field % 3;
  const Vec3 e = Vec3::Unit(k) * eps;
  const Vec3 origin = data.origin_position(model, b);
  const Vec3 origin_velocity = data.origin_velocity(model, b);
  switch (group) {
    case 0: data.x_W[b] += e; break;                       // the origin moves with the COM
    case 1: data.v_W[b] += e; break;                       // w held
    case 2:                                                // origin velocity held
      data.w_W[b] += e;
      data.v_W[b] = origin_velocity - data.w_W[b].cross(origin - data.x_W[b]);
      break;
    case 3: {                                              // turn about the origin
      const Quat turn(Eigen::AngleAxis<Real>(eps, Vec3::Unit(k)));
      data.q_WB[b] = (turn * data.q_WB[b]).normalized();
      data.x_W[b] = origin + turn * (data.x_W[b] - origin);
      // Velocities as world vectors stay; the COM velocity follows the origin's.
      data.v_W[b] = origin_velocity - data.w_W[b].cross(origin - data.x_W[b]);
      break;
    }
    default: break;
  }
}

Real control_perturbation(const GradInput& in, Real eps, int actuator, long step) {
  if (in.kind != GradInput::Kind::Control || in.index != actuator) return 0;
  return (in.step < 0 || in.step == step) ? eps : 0;
}

}  // namespace contactlab
