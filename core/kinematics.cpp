#include "core/kinematics.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace contactlab {

std::vector<int> joint_of_body(const Model& model) {
  std::vector<int> out(model.num_bodies(), -1);
  for (size_t j = 0; j < model.joints.size(); ++j) out[model.joints[j].body] = static_cast<int>(j);
  return out;
}

std::vector<Real> reference_qpos(const Model& model) {
  std::vector<Real> qpos(model.nq, 0.0);
  for (const Joint& j : model.joints) {
    if (j.type == JointType::Free) {
      const Body& b = model.bodies[j.body];
      for (int i = 0; i < 3; ++i) qpos[j.qpos_adr + i] = b.pos0_W[i];
      qpos[j.qpos_adr + 3] = b.quat0_WB.w();
      qpos[j.qpos_adr + 4] = b.quat0_WB.x();
      qpos[j.qpos_adr + 5] = b.quat0_WB.y();
      qpos[j.qpos_adr + 6] = b.quat0_WB.z();
    } else if (j.type == JointType::Ball) {
      qpos[j.qpos_adr] = 1;
    }
  }
  return qpos;
}

namespace {

// Pose and twist of a body (world for -1), for the point at the body origin.
struct BodyState {
  Vec3 origin = Vec3::Zero();
  Quat q = Quat::Identity();
  Vec3 v_com = Vec3::Zero(), x_com = Vec3::Zero();
  Vec3 w = Vec3::Zero();
  Vec3 velocity_of(const Vec3& p_W) const { return v_com + w.cross(p_W - x_com); }
};

BodyState body_state(const Model& model, const Data& data, int b) {
  BodyState s;
  if (b < 0) return s;
  s.origin = data.origin_position(model, b);
  s.q = data.q_WB[b];
  s.x_com = data.x_W[b];
  s.v_com = data.v_W[b];
  s.w = data.w_W[b];
  return s;
}

// Child orientation relative to its reference pose on the parent: rel_quat0^-1 R_p^T R_c.
Quat relative_rotation(const Joint& j, const BodyState& parent, const BodyState& child) {
  Quat d = j.rel_quat0.conjugate() * parent.q.conjugate() * child.q;
  d.normalize();
  if (d.w() < 0) d.coeffs() = -d.coeffs();
  return d;
}

const Joint& scalar_joint(const Model& model, int joint, const char* fn) {
  if (joint < 0 || joint >= static_cast<int>(model.joints.size()))
    throw std::invalid_argument(std::string(fn) + ": joint id " + std::to_string(joint) + " out of range");
  const Joint& j = model.joints[joint];
  if (j.type != JointType::Hinge && j.type != JointType::Slide)
    throw std::invalid_argument(std::string(fn) + ": joint '" + j.name + "' is a " + to_string(j.type) +
                                " joint, not a hinge or slide");
  return j;
}

}  // namespace

Real joint_position(const Model& model, const Data& data, int joint) {
  const Joint& j = scalar_joint(model, joint, "joint_position");
  const BodyState p = body_state(model, data, j.parent), c = body_state(model, data, j.body);
  if (j.type == JointType::Hinge) {
    // Twist angle of the relative rotation about the axis (child axes).
    const Quat d = relative_rotation(j, p, c);
    return 2.0 * std::atan2(d.vec().dot(j.axis_B), d.w());
  }
  const Vec3 anchor_W = c.origin + c.q * j.anchor_B;
  return (p.q.conjugate() * (anchor_W - p.origin) - j.anchor_parent).dot(j.axis_parent);
}

Real joint_velocity(const Model& model, const Data& data, int joint) {
  const Joint& j = scalar_joint(model, joint, "joint_velocity");
  const BodyState p = body_state(model, data, j.parent), c = body_state(model, data, j.body);
  if (j.type == JointType::Hinge) return (c.w - p.w).dot(c.q * j.axis_B);
  // d/dt of the slide coordinate: anchor velocity relative to the parent point
  // it passes over, along the axis carried by the parent.
  const Vec3 anchor_W = c.origin + c.q * j.anchor_B;
  return (c.velocity_of(anchor_W) - p.velocity_of(anchor_W)).dot(p.q * j.axis_parent);
}

void get_generalized_state(const Model& model, const Data& data, std::vector<Real>& qpos, std::vector<Real>& qvel) {
  qpos.assign(model.nq, 0.0);
  qvel.assign(model.nv, 0.0);
  for (size_t id = 0; id < model.joints.size(); ++id) {
    const Joint& j = model.joints[id];
    const int a = j.qpos_adr, d = j.qvel_adr;
    switch (j.type) {
      case JointType::Weld:
        break;
      case JointType::Hinge:
      case JointType::Slide:
        qpos[a] = joint_position(model, data, static_cast<int>(id));
        qvel[d] = joint_velocity(model, data, static_cast<int>(id));
        break;
      case JointType::Free: {
        const BodyState c = body_state(model, data, j.body);
        Quat q = c.q;
        if (q.w() < 0) q.coeffs() = -q.coeffs();
        const Vec3 v = c.velocity_of(c.origin), w_B = c.q.conjugate() * c.w;
        for (int i = 0; i < 3; ++i) {
          qpos[a + i] = c.origin[i];
          qvel[d + i] = v[i];
          qvel[d + 3 + i] = w_B[i];
        }
        qpos[a + 3] = q.w();
        qpos[a + 4] = q.x();
        qpos[a + 5] = q.y();
        qpos[a + 6] = q.z();
        break;
      }
      case JointType::Ball: {
        const BodyState p = body_state(model, data, j.parent), c = body_state(model, data, j.body);
        const Quat r = relative_rotation(j, p, c);
        const Vec3 w_C = c.q.conjugate() * (c.w - p.w);
        qpos[a] = r.w();
        qpos[a + 1] = r.x();
        qpos[a + 2] = r.y();
        qpos[a + 3] = r.z();
        for (int i = 0; i < 3; ++i) qvel[d + i] = w_C[i];
        break;
      }
    }
  }
}

}  // namespace contactlab
