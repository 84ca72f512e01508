#include "core/model.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "core/compound_joint.hpp"
#include "core/model_limits.hpp"

namespace contactlab {

const char* to_string(GeomType t) {
  switch (t) {
    case GeomType::Plane:
      return "plane";
    case GeomType::Sphere:
      return "sphere";
    case GeomType::Box:
      return "box";
    case GeomType::Capsule:
      return "capsule";
    case GeomType::Cylinder:
      return "cylinder";
    case GeomType::Mesh:
      return "mesh";
    case GeomType::HField:
      return "hfield";
  }
  return "?";
}

const char* to_string(JointType t) {
  switch (t) {
    case JointType::Free:
      return "free";
    case JointType::Hinge:
      return "hinge";
    case JointType::Slide:
      return "slide";
    case JointType::Ball:
      return "ball";
    case JointType::Weld:
      return "weld";
  }
  return "?";
}

namespace {

// Index of the first element named `name`; empty names never match (unnamed elements).
template <class T>
int find_named(const std::vector<T>& items, const std::string& name) {
  if (name.empty()) return -1;
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].name == name) return static_cast<int>(i);
  return -1;
}

std::pair<int, int> sorted(int a, int b) { return a < b ? std::make_pair(a, b) : std::make_pair(b, a); }

std::string label(const char* kind, int id, const std::string& name) {
  std::string s = std::string(kind) + " " + std::to_string(id);
  if (!name.empty()) s += " '" + name + "'";
  return s;
}

[[noreturn]] void invalid(const std::string& what, const std::string& why) {
  throw std::invalid_argument(what + ": " + why);
}

bool finite(const Vec3& v) { return v.allFinite(); }

// The bounds of core/model_limits.hpp, naming the element and the field.
void bounded(const std::string& what, const char* field, const Range& r, Real v) {
  const std::string why = range_violation(r, v);
  if (!why.empty()) invalid(what, std::string(field) + " " + why);
}
void bounded(const std::string& what, const char* field, const Range& r, const Vec3& v) {
  const std::string why = range_violation(r, v);
  if (!why.empty()) invalid(what, std::string(field) + why);
}
bool unit(const Quat& q) { return q.coeffs().allFinite() && std::abs(q.norm() - 1.0) < 1e-6; }

}  // namespace

int Model::find_body(const std::string& name) const { return find_named(bodies, name); }
int Model::find_geom(const std::string& name) const { return find_named(geoms, name); }
int Model::find_site(const std::string& name) const { return find_named(sites, name); }
int Model::find_joint(const std::string& name) const { return find_named(joints, name); }
int Model::find_actuator(const std::string& name) const { return find_named(actuators, name); }

Real Model::restitution(int geom_a, int geom_b) const {
  const std::pair<int, int> key = sorted(geom_a, geom_b);
  for (const auto& entry : restitution_pairs)
    if (entry.first == key) return entry.second;
  return restitution_default;
}

bool Model::bodies_excluded(int body_a, int body_b) const {
  const std::pair<int, int> key = sorted(body_a, body_b);
  return std::find(excluded_body_pairs.begin(), excluded_body_pairs.end(), key) != excluded_body_pairs.end();
}

Real ControlSchedule::value_at(Real t) const {
  if (times.empty()) return 0;
  if (t <= times.front()) return values.front();
  if (t >= times.back()) return values.back();
  // First knot strictly after t; t lies in [times[i-1], times[i]).
  const size_t i = std::upper_bound(times.begin(), times.end(), t) - times.begin();
  const Real s = (t - times[i - 1]) / (times[i] - times[i - 1]);
  return values[i - 1] + s * (values[i] - values[i - 1]);
}

void Model::validate() const {
  const int nb = num_bodies();
  const int ng = static_cast<int>(geoms.size());
  const int nj = static_cast<int>(joints.size());
  const int na = static_cast<int>(actuators.size());
  auto body_ok = [&](int b) { return b >= -1 && b < nb; };

  if (!(std::isfinite(options.timestep) && options.timestep > 0))
    invalid("option timestep", "must be finite and > 0, got " + std::to_string(options.timestep));
  bounded("option", "timestep", limits::kTimeStep, options.timestep);
  if (!finite(options.gravity)) invalid("option gravity", "must be finite");
  if (!(std::isfinite(options.density) && options.density >= 0)) invalid("option density", "must be finite and >= 0");
  if (!(std::isfinite(options.viscosity) && options.viscosity >= 0))
    invalid("option viscosity", "must be finite and >= 0");
  bounded("option", "gravity", limits::kGravity, options.gravity);
  if (!(std::isfinite(default_duration) && default_duration > 0))
    invalid("contactlab.duration", "must be finite and > 0");
  bounded("contactlab.duration", "value", limits::kDuration, default_duration);

  for (int b = 0; b < nb; ++b) {
    const Body& body = bodies[b];
    const std::string what = label("body", b, body.name);
    if (!(body.parent >= -1 && body.parent < b)) invalid(what, "parent must come before the body in the tree");
    if (body.fixed && body.parent >= 0 && !bodies[body.parent].fixed) invalid(what, "fixed body under a moving parent");
    if (!finite(body.pos0_W) || !finite(body.com_B) || !std::isfinite(body.mass) || !body.inertia_B.allFinite())
      invalid(what, "non-finite pose or mass properties");
    bounded(what, "position", limits::kPosition, body.pos0_W);
    bounded(what, "centre of mass", limits::kPosition, body.com_B);
    if (!unit(body.quat0_WB)) invalid(what, "quat0_WB is not a unit quaternion");
    // A fixed body's mass properties are never used (it has infinite mass): a
    // large static geom's computed mass is not refused.
    if (body.fixed) continue;
    if (!(body.mass > 0)) invalid(what, "a moving body needs mass > 0, got " + std::to_string(body.mass));
    bounded(what, "mass", limits::kMass, body.mass);
    for (int i = 0; i < 3; ++i) bounded(what, "inertia", limits::kInertia, Vec3(body.inertia_B.row(i).transpose()));
    if ((body.inertia_B - body.inertia_B.transpose()).cwiseAbs().maxCoeff() > 1e-9 * (1 + body.inertia_B.norm()))
      invalid(what, "inertia is not symmetric");
    const Real min_eig = Eigen::SelfAdjointEigenSolver<Mat3>(body.inertia_B).eigenvalues().minCoeff();
    if (!(min_eig > 0))
      invalid(what, "inertia is not positive definite (smallest eigenvalue " + std::to_string(min_eig) + ")");
    if (const std::string why = inertia_triangle_violation(body.inertia_B); !why.empty()) invalid(what, why);
  }

  for (int i = 0; i < static_cast<int>(sites.size()); ++i) {
    const Site& site = sites[i];
    const std::string what = label("site", i, site.name);
    if (!body_ok(site.body)) invalid(what, "body id out of range");
    if (!finite(site.pos_B)) invalid(what, "non-finite position");
    bounded(what, "position", limits::kPosition, site.pos_B);
    if (!unit(site.quat_BS)) invalid(what, "quat_BS is not a unit quaternion");
  }

  for (int g = 0; g < ng; ++g) {
    const Geom& geom = geoms[g];
    const std::string what = label("geom", g, geom.name);
    if (!body_ok(geom.body)) invalid(what, "body id out of range");
    if (!finite(geom.pos_B) || !finite(geom.size)) invalid(what, "non-finite pose or size");
    bounded(what, "position", limits::kPosition, geom.pos_B);
    if (!unit(geom.quat_BG)) invalid(what, "quat_BG is not a unit quaternion");
    int needed = 0;
    switch (geom.type) {
      case GeomType::Sphere:
        needed = 1;
        break;
      case GeomType::Capsule:
      case GeomType::Cylinder:
        needed = 2;
        break;
      case GeomType::Box:
        needed = 3;
        break;
      case GeomType::Plane:
        needed = 0;
        break;
      case GeomType::Mesh:
        if (!geom.hull || geom.hull->vertices.size() < 4 || geom.hull->num_faces() < 4)
          invalid(what, "mesh geom without a convex hull (at least 4 vertices and 4 faces)");
        if (!(geom.hull->bounding_radius > 0 && std::isfinite(geom.hull->bounding_radius)))
          invalid(what, "mesh hull bounding radius must be finite and > 0");
        bounded(what, "hull bounding radius", limits::kSize, geom.hull->bounding_radius);
        break;
      case GeomType::HField: {
        const HeightField* h = geom.hfield.get();
        if (!h || h->nrow < 2 || h->ncol < 2) invalid(what, "height field geom without a grid of at least 2 x 2");
        if (h->elevation.size() != static_cast<size_t>(h->nrow) * h->ncol)
          invalid(what, "height field elevation needs nrow * ncol values");
        for (const Real z : h->elevation)
          if (!(z >= 0 && z <= 1)) invalid(what, "height field elevation outside [0, 1] (or not finite)");
        for (const Real v : {h->sx, h->sy, h->top})
          if (!(v > 0)) invalid(what, "height field half-extents and elevation must be > 0");
        if (!(h->base >= 0)) invalid(what, "height field base must be >= 0");
        for (const Real v : {h->sx, h->sy, h->top}) bounded(what, "height field size", limits::kSize, v);
        bounded(what, "height field base", limits::kSize, std::max(h->base, Real(1)));  // 0 allowed
        if (geom.body >= 0 && !bodies[geom.body].fixed)
          invalid(what, "height field on a moving body (height fields are static terrain)");
        break;
      }
    }
    for (int i = 0; i < needed; ++i)
      if (!(geom.size[i] > 0)) invalid(what, "size[" + std::to_string(i) + "] must be > 0");
    for (int i = 0; i < needed; ++i) bounded(what, ("size[" + std::to_string(i) + "]").c_str(), limits::kSize, geom.size[i]);
    if (!(std::isfinite(geom.friction) && geom.friction >= 0)) invalid(what, "friction must be finite and >= 0");
    bounded(what, "friction", limits::kFriction, geom.friction);
    if (!(std::isfinite(geom.margin) && geom.margin >= 0)) invalid(what, "margin must be finite and >= 0");
    bounded(what, "margin", limits::kMargin, geom.margin);
  }

  int nq_count = 0, nv_count = 0;
  std::vector<int> joint_of_body(nb, -1);
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = joints[j];
    const std::string what = label("joint", j, joint.name);
    if (!(joint.body >= 0 && joint.body < nb)) invalid(what, "body id out of range");
    if (joint.parent != bodies[joint.body].parent) invalid(what, "parent differs from the body's parent");
    if (bodies[joint.body].fixed) invalid(what, "joint on a fixed body");
    if (joint_of_body[joint.body] >= 0) {
      // Several joints in one body: consecutive, and a combination compound_joint supports.
      if (joint_of_body[joint.body] != j - 1) invalid(what, "body already has a joint (not the previous one)");
      const std::string why = compound_unsupported(*this, joint_group(*this, j));
      if (!why.empty()) invalid(what, why);
    }
    joint_of_body[joint.body] = j;
    if (!finite(joint.anchor_B) || !finite(joint.axis_B) || !finite(joint.anchor_parent) || !finite(joint.axis_parent))
      invalid(what, "non-finite anchor or axis");
    bounded(what, "anchor", limits::kPosition, joint.anchor_B);
    bounded(what, "anchor on the parent", limits::kPosition, joint.anchor_parent);
    if ((joint.type == JointType::Hinge || joint.type == JointType::Slide) && std::abs(joint.axis_B.norm() - 1) > 1e-6)
      invalid(what, "axis must be a unit vector");
    if (!unit(joint.rel_quat0)) invalid(what, "rel_quat0 is not a unit quaternion");
    if (!(std::isfinite(joint.damping) && joint.damping >= 0)) invalid(what, "damping must be finite and >= 0");
    if (!(std::isfinite(joint.armature) && joint.armature >= 0)) invalid(what, "armature must be finite and >= 0");
    bounded(what, "damping", limits::kGain, joint.damping);
    bounded(what, "armature", limits::kArmature, joint.armature);
    if (!(std::isfinite(joint.stiffness) && joint.stiffness >= 0)) invalid(what, "stiffness must be finite and >= 0");
    bounded(what, "stiffness", limits::kGain, joint.stiffness);
    bounded(what, "springref", limits::kJointRange, joint.springref);
    if (!std::isfinite(joint.ref)) invalid(what, "ref must be finite");
    bounded(what, "ref", limits::kJointRange, joint.ref);
    if (joint.limited &&
        !(std::isfinite(joint.range_lo) && std::isfinite(joint.range_hi) && joint.range_lo <= joint.range_hi))
      invalid(what, "invalid range");
    if (joint.limited) {
      bounded(what, "range", limits::kJointRange, joint.range_lo);
      bounded(what, "range", limits::kJointRange, joint.range_hi);
    }
    if (joint.type == JointType::Free && joint.parent != -1) invalid(what, "a free joint needs a top-level body");
    int nq = 1, nv = 1;
    if (joint.type == JointType::Free) nq = 7, nv = 6;
    if (joint.type == JointType::Ball) nq = 4, nv = 3;
    if (joint.type == JointType::Weld) nq = 0, nv = 0;
    if (nq > 0 && (joint.qpos_adr != nq_count || joint.qvel_adr != nv_count))
      invalid(what, "qpos_adr/qvel_adr out of MJCF order");
    nq_count += nq;
    nv_count += nv;
  }
  if (nq_count != nq || nv_count != nv)
    invalid("model", "nq/nv (" + std::to_string(nq) + ", " + std::to_string(nv) + ") do not match the joints (" +
                         std::to_string(nq_count) + ", " + std::to_string(nv_count) + ")");

  for (size_t e = 0; e < equalities.size(); ++e) {
    const Equality& eq = equalities[e];
    const std::string what = label("equality", static_cast<int>(e), eq.name);
    if (!body_ok(eq.body1) || !body_ok(eq.body2) || eq.body1 == eq.body2) invalid(what, "invalid bodies");
    if (!finite(eq.anchor1) || !finite(eq.anchor2)) invalid(what, "non-finite anchor");
    bounded(what, "anchor", limits::kPosition, eq.anchor1);
    bounded(what, "anchor", limits::kPosition, eq.anchor2);
    if (!unit(eq.rel_quat)) invalid(what, "rel_quat is not a unit quaternion");
  }

  for (int a = 0; a < na; ++a) {
    const Actuator& act = actuators[a];
    const std::string what = label("actuator", a, act.name);
    if (act.tendon >= 0) {
      if (act.tendon >= static_cast<int>(tendons.size())) invalid(what, "tendon id out of range");
      if (act.joint != -1) invalid(what, "acts on a joint and a tendon");
      if (act.type != ActuatorType::Motor) invalid(what, "only a motor can act on a tendon");
    } else {
      if (!(act.joint >= 0 && act.joint < nj)) invalid(what, "joint id out of range");
      const JointType t = joints[act.joint].type;
      const bool ok =
          t == JointType::Hinge || t == JointType::Slide || (t == JointType::Free && act.type == ActuatorType::Motor);
      if (!ok) invalid(what, std::string("cannot act on a ") + to_string(t) + " joint");
    }
    if (!act.gear.allFinite() || !std::isfinite(act.kp) || !std::isfinite(act.kv))
      invalid(what, "non-finite gear or gains");
    for (int i = 0; i < 6; ++i) bounded(what, "gear", limits::kGear, act.gear[i]);
    bounded(what, act.type == ActuatorType::Velocity ? "kv" : "kp", limits::kGain, act.kp);
    bounded(what, "kv", limits::kGain, act.kv);
    if (act.ctrl_limited && !(std::isfinite(act.ctrl_lo) && std::isfinite(act.ctrl_hi) && act.ctrl_lo < act.ctrl_hi))
      invalid(what, "invalid ctrl range");
    if (act.ctrl_limited) {
      bounded(what, "ctrlrange", limits::kControl, act.ctrl_lo);
      bounded(what, "ctrlrange", limits::kControl, act.ctrl_hi);
    }
  }

  const auto scalar_joint = [&](int j) {
    return j >= 0 && j < nj && (joints[j].type == JointType::Hinge || joints[j].type == JointType::Slide);
  };
  for (size_t t = 0; t < tendons.size(); ++t) {
    const Tendon& td = tendons[t];
    const std::string what = label("tendon", static_cast<int>(t), td.name);
    if (td.terms.empty()) invalid(what, "no joints");
    for (const TendonTerm& term : td.terms)
      if (!scalar_joint(term.joint) || !std::isfinite(term.coef)) invalid(what, "needs hinge/slide joints, finite coefficients");
    if (!(std::isfinite(td.stiffness) && td.stiffness >= 0 && std::isfinite(td.damping) && td.damping >= 0))
      invalid(what, "stiffness and damping must be finite and >= 0");
    if (td.limited && !(td.range_lo < td.range_hi)) invalid(what, "invalid range");
  }
  for (size_t e = 0; e < scalar_equalities.size(); ++e) {
    const ScalarEquality& eq = scalar_equalities[e];
    const std::string what = label("equality", static_cast<int>(e), eq.name);
    const int n = eq.tendons ? static_cast<int>(tendons.size()) : nj;
    const auto ok = [&](int id) { return id >= 0 && id < n && (eq.tendons || scalar_joint(id)); };
    if (!ok(eq.first) || (eq.second != -1 && !ok(eq.second)) || eq.first == eq.second) invalid(what, "invalid elements");
    for (Real c : eq.polycoef)
      if (!std::isfinite(c)) invalid(what, "non-finite polycoef");
  }

  for (size_t k = 0; k < keyframes.size(); ++k) {
    const Keyframe& key = keyframes[k];
    const std::string what = label("keyframe", static_cast<int>(k), key.name);
    if (!key.qpos.empty() && static_cast<int>(key.qpos.size()) != nq) invalid(what, "qpos size differs from nq");
    if (!key.qvel.empty() && static_cast<int>(key.qvel.size()) != nv) invalid(what, "qvel size differs from nv");
    for (Real v : key.qpos)
      if (!std::isfinite(v)) invalid(what, "non-finite qpos");
    for (Real v : key.qvel)
      if (!std::isfinite(v)) invalid(what, "non-finite qvel");
    for (Real v : key.qpos) bounded(what, "qpos", limits::kPosition, v);
    for (Real v : key.qvel) bounded(what, "qvel", limits::kSpeed, v);
  }

  for (size_t s = 0; s < control_schedules.size(); ++s) {
    const ControlSchedule& cs = control_schedules[s];
    const std::string what = "control schedule " + std::to_string(s);
    if (!(cs.actuator >= 0 && cs.actuator < na)) invalid(what, "actuator id out of range");
    if (cs.times.empty() || cs.times.size() != cs.values.size())
      invalid(what, "needs as many times as values, at least one");
    for (size_t i = 0; i < cs.times.size(); ++i) {
      if (!std::isfinite(cs.times[i]) || !std::isfinite(cs.values[i])) invalid(what, "non-finite knot");
      bounded(what, "value", limits::kControl, cs.values[i]);
      if (i > 0 && !(cs.times[i] > cs.times[i - 1])) invalid(what, "times must strictly increase");
    }
  }

  for (const auto& pair : excluded_body_pairs)
    if (!body_ok(pair.first) || !body_ok(pair.second) || pair.first >= pair.second)
      invalid("contact exclude", "invalid or unsorted body pair");
  if (!(std::isfinite(restitution_default) && restitution_default >= 0 && restitution_default <= 1))
    invalid("restitution", "default must be in [0, 1]");
  for (const auto& entry : restitution_pairs) {
    const auto& p = entry.first;
    if (!(p.first >= 0 && p.second < ng && p.first <= p.second)) invalid("restitution pair", "invalid geom pair");
    if (!(std::isfinite(entry.second) && entry.second >= 0 && entry.second <= 1))
      invalid("restitution pair", "value must be in [0, 1]");
  }
}

}  // namespace contactlab
