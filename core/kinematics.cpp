#include "core/kinematics.hpp"

#include "core/compound_joint.hpp"

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
    } else if (j.type == JointType::Hinge || j.type == JointType::Slide) {
      qpos[j.qpos_adr] = j.ref;
    }
  }
  return qpos;
}

namespace {

// Pose and twist of a body (world for -1), for the point at the body origin.
template <class T>
struct BodyState {
  Vec3T<T> origin = Vec3T<T>::Zero();
  QuatT<T> q = QuatT<T>::Identity();
  Vec3T<T> v_com = Vec3T<T>::Zero(), x_com = Vec3T<T>::Zero();
  Vec3T<T> w = Vec3T<T>::Zero();
  Vec3T<T> velocity_of(const Vec3T<T>& p_W) const { return v_com + w.cross(p_W - x_com); }
};

template <class T>
BodyState<T> body_state(const Model& model, const BodyStatesT<T>& s, int b) {
  BodyState<T> out;
  if (b < 0) return out;
  out.origin = s.x[b] - s.q[b] * model.bodies[b].com_B.template cast<T>();
  out.q = s.q[b];
  out.x_com = s.x[b];
  out.v_com = s.v[b];
  out.w = s.w[b];
  return out;
}

// Child orientation relative to its reference pose on the parent: rel_quat0^-1 R_p^T R_c.
template <class T>
QuatT<T> relative_rotation(const Joint& j, const BodyState<T>& parent, const BodyState<T>& child) {
  QuatT<T> d = j.rel_quat0.template cast<T>().conjugate() * parent.q.conjugate() * child.q;
  d.normalize();
  if (d.w() < T(0)) d.coeffs() = -d.coeffs();
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

namespace {

// The motion from the model's pose: hinge angle in (-pi, pi] or slide displacement.
template <class T>
T joint_motion_t(const Model& model, const BodyStatesT<T>& s, int joint) {
  using std::atan2;
  const Joint& j = model.joints[joint];
  if (is_compound(model, joint)) return compound_joint_position_t<T>(model, s, joint);
  const BodyState<T> p = body_state(model, s, j.parent), c = body_state(model, s, j.body);
  if (j.type == JointType::Hinge) {
    // Twist angle of the relative rotation about the axis (child axes).
    const QuatT<T> d = relative_rotation(j, p, c);
    return T(2.0) * atan2(d.vec().dot(j.axis_B.template cast<T>()), d.w());
  }
  const Vec3T<T> anchor_W = c.origin + c.q * j.anchor_B.template cast<T>();
  return (p.q.conjugate() * (anchor_W - p.origin) - j.anchor_parent.template cast<T>()).dot(j.axis_parent.template cast<T>());
}

}  // namespace

template <class T>
T joint_position_t(const Model& model, const BodyStatesT<T>& s, int joint) {
  const Joint& j = scalar_joint(model, joint, "joint_position");
  T q = joint_motion_t<T>(model, s, joint);
  if (j.ref == 0) return q;
  q = q + T(j.ref);
  // A hinge's coordinate is known modulo 2 pi: MuJoCo's ranges are about 0.
  if (j.type == JointType::Hinge) {
    if (q > T(kPi)) q = q - T(2 * kPi);
    else if (q <= T(-kPi)) q = q + T(2 * kPi);
  }
  return q;
}

template <class T>
T joint_velocity_t(const Model& model, const BodyStatesT<T>& s, int joint) {
  const Joint& j = scalar_joint(model, joint, "joint_velocity");
  if (is_compound(model, joint)) return compound_joint_velocity_t<T>(model, s, joint);
  const BodyState<T> p = body_state(model, s, j.parent), c = body_state(model, s, j.body);
  if (j.type == JointType::Hinge) return (c.w - p.w).dot(c.q * j.axis_B.template cast<T>());
  // d/dt of the slide coordinate: anchor velocity relative to the parent point
  // it passes over, along the axis carried by the parent.
  const Vec3T<T> anchor_W = c.origin + c.q * j.anchor_B.template cast<T>();
  return (c.velocity_of(anchor_W) - p.velocity_of(anchor_W)).dot(p.q * j.axis_parent.template cast<T>());
}

template Real joint_position_t<Real>(const Model&, const BodyStatesT<Real>&, int);
template Real joint_velocity_t<Real>(const Model&, const BodyStatesT<Real>&, int);
template Dual joint_position_t<Dual>(const Model&, const BodyStatesT<Dual>&, int);
template Dual joint_velocity_t<Dual>(const Model&, const BodyStatesT<Dual>&, int);

Real joint_position(const Model& model, const Data& data, int joint) {
  return joint_position_t<Real>(model, body_states(data), joint);
}

Real joint_velocity(const Model& model, const Data& data, int joint) {
  return joint_velocity_t<Real>(model, body_states(data), joint);
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
        const BodyState<Real> c = body_state(model, body_states(data), j.body);
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
        const BodyState<Real> p = body_state(model, body_states(data), j.parent), c = body_state(model, body_states(data), j.body);
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
