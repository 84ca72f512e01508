#include "core/data.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/compound_joint.hpp"
#include "core/kinematics.hpp"

namespace contactlab {

void Data::init(const Model& model) {
  const int nb = model.num_bodies();
  x_W.resize(nb);
  q_WB.resize(nb);
  v_W.assign(nb, Vec3::Zero());
  w_W.assign(nb, Vec3::Zero());
  for (int b = 0; b < nb; ++b) {
    const Body& body = model.bodies[b];
    q_WB[b] = body.quat0_WB;
    x_W[b] = body.pos0_W + body.quat0_WB * body.com_B;  // the state holds the com
  }
  ctrl.assign(model.actuators.size(), 0.0);
  time = 0;
  step = 0;
  contacts.clear();
  contact_restitution.clear();
  contact_cache.clear();
  problem_prev_offset = -1;
  warm.valid = false;
  warm.penalty = 0;
  warm.lambda.clear();
  warm.v.clear();
  metrics = StepMetrics();
}

Vec3 Data::origin_position(const Model& model, int body) const {
  return x_W[body] - q_WB[body] * model.bodies[body].com_B;
}

Vec3 Data::origin_velocity(const Model& model, int body) const {
  return v_W[body] + w_W[body].cross(origin_position(model, body) - x_W[body]);
}

SiteState body_point_state(const Model& model, const Data& data, int body, const Vec3& point_B, const Quat& quat_B) {
  SiteState out;
  if (body < 0) {  // on the world: fixed
    out.p = point_B;
    out.q = quat_B;
    return out;
  }
  const Vec3 r = data.q_WB[body] * (point_B - model.bodies[body].com_B);  // COM to the point
  out.p = data.x_W[body] + r;
  out.q = (data.q_WB[body] * quat_B).normalized();
  out.w = data.w_W[body];
  out.v = data.v_W[body] + out.w.cross(r);
  return out;
}

SiteState site_state(const Model& model, const Data& data, int site) {
  const Site& s = model.sites[site];
  return body_point_state(model, data, s.body, s.pos_B, s.quat_BS);
}

namespace {

Quat read_quat(const std::vector<Real>& q, int adr, const char* what) {
  Quat out(q[adr], q[adr + 1], q[adr + 2], q[adr + 3]);
  const Real n = out.norm();
  if (!(n > 1e-12) || !std::isfinite(n))
    throw std::invalid_argument(std::string("set_generalized_state: zero or non-finite quaternion in qpos of ") + what);
  out.coeffs() /= n;
  return out;
}

}  // namespace

void set_generalized_state(const Model& model, const std::vector<Real>& qpos_in, const std::vector<Real>& qvel_in,
                           Data& data) {
  if (!qpos_in.empty() && static_cast<int>(qpos_in.size()) != model.nq)
    throw std::invalid_argument("set_generalized_state: qpos has " + std::to_string(qpos_in.size()) +
                                " entries, the model has nq = " + std::to_string(model.nq));
  if (!qvel_in.empty() && static_cast<int>(qvel_in.size()) != model.nv)
    throw std::invalid_argument("set_generalized_state: qvel has " + std::to_string(qvel_in.size()) +
                                " entries, the model has nv = " + std::to_string(model.nv));
  // Hinge and slide coordinates less their ref: the motion from the model's pose.
  std::vector<Real> qpos = qpos_in.empty() ? reference_qpos(model) : qpos_in;
  for (const Joint& j : model.joints)
    if (j.type == JointType::Hinge || j.type == JointType::Slide) qpos[j.qpos_adr] -= j.ref;
  const std::vector<Real> qvel = qvel_in.empty() ? std::vector<Real>(model.nv, 0.0) : qvel_in;

  const int nb = model.num_bodies();
  if (static_cast<int>(data.x_W.size()) != nb) data.init(model);
  const std::vector<int> joint_of = joint_of_body(model);
  // Body-frame origin and its velocity per body; bodies come after their parents.
  std::vector<Vec3> origin(nb), v_origin(nb);
  for (int b = 0; b < nb; ++b) {
    const Body& body = model.bodies[b];
    const int p = body.parent;
    const Vec3 o_p = p < 0 ? Vec3::Zero() : origin[p];
    const Quat q_p = p < 0 ? Quat::Identity() : data.q_WB[p];
    const Vec3 v_p = p < 0 ? Vec3::Zero() : v_origin[p];
    const Vec3 w_p = p < 0 ? Vec3::Zero() : data.w_W[p];
    const int j = joint_of[b];
    Vec3 o = Vec3::Zero(), v = Vec3::Zero(), w = Vec3::Zero();
    Quat q = Quat::Identity();
    if (j < 0) {  // fixed: the reference pose, at rest
      o = body.pos0_W;
      q = body.quat0_WB;
    } else if (is_compound(model, j)) {  // several joints, composed in MuJoCo's order
      compound_forward(model, joint_group(model, j), qpos, qvel, o_p, q_p, v_p, w_p, o, q, v, w);
    } else {
      const Joint& joint = model.joints[j];
      const Vec3 anchor_W = o_p + q_p * joint.anchor_parent;  // joint anchor carried by the parent
      switch (joint.type) {
        case JointType::Free: {
          const int a = joint.qpos_adr, d = joint.qvel_adr;
          o = Vec3(qpos[a], qpos[a + 1], qpos[a + 2]);
          q = read_quat(qpos, a + 3, "a free joint");
          v = Vec3(qvel[d], qvel[d + 1], qvel[d + 2]);
          w = q * Vec3(qvel[d + 3], qvel[d + 4], qvel[d + 5]);  // body-axes angular velocity
          break;
        }
        case JointType::Weld:
          q = q_p * joint.rel_quat0;
          o = anchor_W - q * joint.anchor_B;
          w = w_p;
          v = v_p + w_p.cross(o - o_p);
          break;
        case JointType::Hinge: {
          // Rotation about the axis through the anchor, applied in the child frame.
          const Real angle = qpos[joint.qpos_adr], rate = qvel[joint.qvel_adr];
          q = q_p * joint.rel_quat0 * Quat(Eigen::AngleAxis<Real>(angle, joint.axis_B));
          o = anchor_W - q * joint.anchor_B;
          const Vec3 axis_W = q * joint.axis_B;
          w = w_p + rate * axis_W;
          v = v_p + w_p.cross(o - o_p) + rate * axis_W.cross(o - anchor_W);
          break;
        }
        case JointType::Slide: {
          const Real s = qpos[joint.qpos_adr], rate = qvel[joint.qvel_adr];
          q = q_p * joint.rel_quat0;
          const Vec3 axis_W = q_p * joint.axis_parent;
          o = anchor_W + s * axis_W - q * joint.anchor_B;
          w = w_p;
          v = v_p + w_p.cross(o - o_p) + rate * axis_W;
          break;
        }
        case JointType::Ball: {
          const int d = joint.qvel_adr;
          q = q_p * joint.rel_quat0 * read_quat(qpos, joint.qpos_adr, "a ball joint");
          o = anchor_W - q * joint.anchor_B;
          const Vec3 w_rel = q * Vec3(qvel[d], qvel[d + 1], qvel[d + 2]);  // child axes
          w = w_p + w_rel;
          v = v_p + w_p.cross(o - o_p) + w_rel.cross(o - anchor_W);
          break;
        }
      }
    }
    q.normalize();
    origin[b] = o;
    v_origin[b] = v;
    data.q_WB[b] = q;
    data.w_W[b] = w;
    const Vec3 com_offset = q * body.com_B;
    data.x_W[b] = o + com_offset;
    data.v_W[b] = v + w.cross(com_offset);
  }
}

void geom_world_pose(const Model& model, const Data& data, int geom, Vec3& pos_W, Mat3& R_WG) {
  geom_world_pose_t<Real>(model, body_states(data), geom, pos_W, R_WG);
}

}  // namespace contactlab
