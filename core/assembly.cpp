#include "core/assembly.hpp"

#include <algorithm>
#include <cmath>

#include "core/kinematics.hpp"
#include "geometry/collision.hpp"

namespace contactlab {

namespace {

// A body index as the problem sees it: fixed bodies and the world are -1
// (infinite mass: they take no part in J M^-1 J^T).
int moving(const Model& model, int body) { return (body >= 0 && !model.bodies[body].fixed) ? body : -1; }

// Writes rows in order and keeps the three groups' counters honest.
struct RowWriter {
  ConstraintProblem& p;
  int next = 0;
  // A row constraining the velocity of a point pair along `dir`:
  // d/dt (p_b - p_a) . dir, with lever arms r_* = point - com.
  void point_row(int body_a, const Vec3& r_a, int body_b, const Vec3& r_b, const Vec3& dir) {
    ConstraintRow& row = p.rows[next++];
    row.body_a = body_a;
    row.body_b = body_b;
    row.J_a << -dir, -r_a.cross(dir);
    row.J_b << dir, r_b.cross(dir);
  }
  // A row constraining the relative angular velocity (w_b - w_a) . dir.
  void angular_row(int body_a, int body_b, const Vec3& dir) {
    ConstraintRow& row = p.rows[next++];
    row.body_a = body_a;
    row.body_b = body_b;
    row.J_a << Vec3::Zero(), -dir;
    row.J_b << Vec3::Zero(), dir;
  }
};

// One-sided bias for unilateral rows: full closure of a positive gap within the
// step, a fraction gamma of a penetration (MATH.md A.2).
Real unilateral_bias(Real gap, Real h, Real gamma, Real slop) {
  const Real d = (gap >= 0 ? 1.0 : -1.0) * std::max(Real(0), std::abs(gap) - slop);
  const Real xi = d / h;
  return gamma * std::min(Real(0), xi) + std::max(Real(0), xi);
}

int rows_of_joint(JointType t) {
  switch (t) {
    case JointType::Free: return 0;
    case JointType::Ball: return 3;
    case JointType::Hinge: return 5;
    case JointType::Slide: return 5;
    case JointType::Weld: return 6;
  }
  return 0;
}

// Joint-space servo/damping/armature data of a scalar joint (hinge or slide).
struct ServoTerms {
  Real stiffness = 0;   // k_p, per unit joint coordinate
  Real damping = 0;     // k_d + joint damping
  Real q_ref = 0, qd_ref = 0;
};

ServoTerms servo_terms(const Model& model, const Data& data, int joint) {
  ServoTerms s;
  s.damping = model.joints[joint].damping;
  for (size_t a = 0; a < model.actuators.size(); ++a) {
    const Actuator& act = model.actuators[a];
    if (act.joint != joint) continue;
    const Real g = act.gear[0];
    const Real u = clamped_control(act, data.ctrl[a]);
    // An actuator of length g q and force g * gain * (u - g q): in joint units the
    // gain is scaled by g^2 and the target by 1/g.
    if (act.type == ActuatorType::Position && g != 0) {
      s.stiffness += act.kp * g * g;
      s.q_ref = u / g;
      s.damping += act.kv * g * g;
    } else if (act.type == ActuatorType::Velocity && g != 0) {
      s.damping += act.kp * g * g;
      s.qd_ref = u / g;
    }
  }
  return s;
}

bool is_scalar(JointType t) { return t == JointType::Hinge || t == JointType::Slide; }

}  // namespace

Mat3 body_rotation(const Data& data, int body) {
  return body >= 0 ? data.q_WB[body].toRotationMatrix() : Mat3::Identity();
}

Vec3 body_point_W(const Model& model, const Data& data, int body, const Vec3& p_B) {
  if (body < 0) return p_B;
  return data.x_W[body] + data.q_WB[body] * (p_B - model.bodies[body].com_B);
}

Real clamped_control(const Actuator& actuator, Real ctrl) {
  return actuator.ctrl_limited ? std::clamp(ctrl, actuator.ctrl_lo, actuator.ctrl_hi) : ctrl;
}

void detect_contacts(const Model& model, Data& data, Real margin) {
  data.contacts.clear();
  const int ng = static_cast<int>(model.geoms.size());
  for (int i = 0; i < ng; ++i) {
    const Geom& gi = model.geoms[i];
    for (int j = i + 1; j < ng; ++j) {
      const Geom& gj = model.geoms[j];
      if (gi.body == gj.body) continue;
      if (!((gi.contype & gj.conaffinity) || (gj.contype & gi.conaffinity))) continue;
      if (moving(model, gi.body) < 0 && moving(model, gj.body) < 0) continue;
      const int bi = gi.body, bj = gj.body;
      // Parent-child exclusion (MuJoCo): a body does not collide with its parent,
      // unless the parent is the world.
      if (bi >= 0 && bj >= 0 && (model.bodies[bi].parent == bj || model.bodies[bj].parent == bi)) continue;
      if (model.bodies_excluded(bi, bj)) continue;
      if (!pair_supported(gi.type, gj.type)) continue;
      GeomPose pi, pj;
      geom_world_pose(model, data, i, pi.pos_W, pi.R_WG);
      geom_world_pose(model, data, j, pj.pos_W, pj.R_WG);
      // Cheap bounding-sphere rejection for finite shapes.
      auto radius = [](const Geom& g) {
        switch (g.type) {
          case GeomType::Sphere: return g.size.x();
          case GeomType::Capsule: return g.size.x() + g.size.y();
          case GeomType::Cylinder: return std::sqrt(g.size.x() * g.size.x() + g.size.y() * g.size.y());
          case GeomType::Box: return g.size.norm();
          case GeomType::Plane: return Real(-1);
        }
        return Real(-1);
      };
      const Real ri = radius(gi), rj = radius(gj);
      const Real m = margin + std::max(gi.margin, gj.margin);
      if (ri >= 0 && rj >= 0 && (pi.pos_W - pj.pos_W).norm() > ri + rj + m) continue;
      collide_geoms(gi, pi, i, gj, pj, j, m, data.contacts);
    }
  }
}

void compute_free_velocity(const Model& model, Data& data, Real h, bool gyroscopic) {
  const int nb = model.num_bodies();
  ConstraintProblem& p = data.problem;
  p.inv_mass.resize(nb);
  p.inv_inertia_W.resize(nb);
  data.u_free.resize(6 * nb);
  std::vector<Real>& wrench = data.scratch6;  // (6 nb) external force, torque per body, world frame
  wrench.assign(6 * nb, 0.0);

  // Motor forces (explicit); servos are implicit rows (see assemble_problem).
  for (size_t a = 0; a < model.actuators.size(); ++a) {
    const Actuator& act = model.actuators[a];
    if (act.type != ActuatorType::Motor) continue;
    const Joint& jt = model.joints[act.joint];
    const Real u = clamped_control(act, data.ctrl[a]);
    const int c = jt.body, par = jt.parent;
    if (jt.type == JointType::Free) {
      Eigen::Map<Vec3>(&wrench[6 * c]) += act.gear.head<3>() * u;
      Eigen::Map<Vec3>(&wrench[6 * c + 3]) += data.q_WB[c] * (act.gear.tail<3>() * u);
      continue;
    }
    const Vec3 axis_W = body_rotation(data, par) * jt.axis_parent;
    const Real tau = act.gear[0] * u;
    if (jt.type == JointType::Hinge) {
      Eigen::Map<Vec3>(&wrench[6 * c + 3]) += tau * axis_W;
      if (par >= 0) Eigen::Map<Vec3>(&wrench[6 * par + 3]) -= tau * axis_W;
    } else if (jt.type == JointType::Slide) {
      const Vec3 anchor = body_point_W(model, data, c, jt.anchor_B);
      Eigen::Map<Vec3>(&wrench[6 * c]) += tau * axis_W;
      Eigen::Map<Vec3>(&wrench[6 * c + 3]) += (anchor - data.x_W[c]).cross(tau * axis_W);
      if (par >= 0) {
        Eigen::Map<Vec3>(&wrench[6 * par]) -= tau * axis_W;
        Eigen::Map<Vec3>(&wrench[6 * par + 3]) -= (anchor - data.x_W[par]).cross(tau * axis_W);
      }
    }
  }

  for (int b = 0; b < nb; ++b) {
    const Body& body = model.bodies[b];
    Eigen::Map<Vec3> v(&data.u_free[6 * b]), w(&data.u_free[6 * b + 3]);
    if (body.fixed) {
      p.inv_mass[b] = 0;
      p.inv_inertia_W[b].setZero();
      v.setZero();
      w.setZero();
      continue;
    }
    const Mat3 R = data.q_WB[b].toRotationMatrix();
    const Mat3 I_W = R * body.inertia_B * R.transpose();
    p.inv_mass[b] = 1.0 / body.mass;
    p.inv_inertia_W[b] = R * body.inertia_B.inverse() * R.transpose();
    Vec3 torque = Eigen::Map<const Vec3>(&wrench[6 * b + 3]);
    if (gyroscopic) torque -= data.w_W[b].cross(I_W * data.w_W[b]);
    v = data.v_W[b] + h * (model.options.gravity + p.inv_mass[b] * Eigen::Map<const Vec3>(&wrench[6 * b]));
    w = data.w_W[b] + h * (p.inv_inertia_W[b] * torque);
  }
}

Real assemble_problem(const Model& model, Data& data, Real h, const RowBiasOptions& bias) {
  // ---- count rows ----
  int bilateral = 0, limits = 0;
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    if (moving(model, jt.body) < 0) continue;
    bilateral += rows_of_joint(jt.type);
    if (is_scalar(jt.type)) {
      const ServoTerms s = servo_terms(model, data, static_cast<int>(j));
      if (jt.armature + h * s.damping + h * h * s.stiffness > 0) bilateral += 1;
      if (jt.limited) limits += 2;
    } else if (jt.type == JointType::Ball && jt.armature + h * jt.damping > 0) {
      bilateral += 3;
    }
  }
  for (const Equality& eq : model.equalities) bilateral += eq.type == EqualityType::Connect ? 3 : 6;
  const int nc = static_cast<int>(data.contacts.size());
  ConstraintProblem& p = data.problem;
  p.resize(model.num_bodies(), bilateral, limits, nc);
  std::vector<Real>& bias_v = data.scratch_m;  // (m) bias and restitution per row
  bias_v.assign(p.num_rows(), 0.0);

  RowWriter w{p};
  Real violation = 0;
  const Real alpha_h = bias.baumgarte / h;

  // Point coincidence along the world axes: p_b(q) - p_a(q) = 0.
  auto point_rows = [&](int a, const Vec3& pa_W, int b, const Vec3& pb_W) {
    const Vec3 err = pb_W - pa_W;
    const Vec3 ra = a >= 0 ? Vec3(pa_W - data.x_W[a]) : Vec3::Zero();
    const Vec3 rb = b >= 0 ? Vec3(pb_W - data.x_W[b]) : Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      bias_v[w.next] = alpha_h * err[k];
      w.point_row(moving(model, a), ra, moving(model, b), rb, Vec3::Unit(k));
    }
    violation = std::max(violation, err.cwiseAbs().maxCoeff());
  };
  // Orientation lock: R_b = R_a R_rel. Error as the world rotation vector of R_b (R_a R_rel)^T.
  auto weld_rotation_rows = [&](int a, int b, const Quat& rel) {
    const Quat qa = a >= 0 ? data.q_WB[a] : Quat::Identity();
    const Quat qb = b >= 0 ? data.q_WB[b] : Quat::Identity();
    const Vec3 err = quaternion_log(qb * (qa * rel).conjugate());
    for (int k = 0; k < 3; ++k) {
      bias_v[w.next] = alpha_h * err[k];
      w.angular_row(moving(model, a), moving(model, b), Vec3::Unit(k));
    }
    violation = std::max(violation, err.cwiseAbs().maxCoeff());
  };

  // ---- joints ----
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    const int c = jt.body, par = jt.parent;
    if (moving(model, c) < 0 || jt.type == JointType::Free) continue;
    const Vec3 pc = body_point_W(model, data, c, jt.anchor_B);
    const Vec3 pp = body_point_W(model, data, par, jt.anchor_parent);
    const Vec3 axis_W = body_rotation(data, par) * jt.axis_parent;
    switch (jt.type) {
      case JointType::Ball:
        point_rows(par, pp, c, pc);
        break;
      case JointType::Weld:
        point_rows(par, pp, c, pc);
        weld_rotation_rows(par, c, jt.rel_quat0);
        break;
      case JointType::Hinge: {
        point_rows(par, pp, c, pc);
        // Axis alignment: the small rotation a_p x a_c carrying the parent's axis
        // onto the child's; its rate is the relative angular velocity across the axis.
        const Vec3 axis_c = data.q_WB[c] * jt.axis_B;
        const Vec3 mis = axis_W.cross(axis_c);
        Vec3 t1, t2;
        tangent_basis(axis_W, t1, t2);
        for (const Vec3& t : {t1, t2}) {
          bias_v[w.next] = alpha_h * t.dot(mis);
          w.angular_row(moving(model, par), moving(model, c), t);
        }
        violation = std::max(violation, mis.norm());
        break;
      }
      case JointType::Slide: {
        weld_rotation_rows(par, c, jt.rel_quat0);
        // Anchor stays on the parent's axis line: (p_c - p_p) . t = 0 for t _|_ axis.
        const Vec3 d = pc - pp;
        Vec3 t1, t2;
        tangent_basis(axis_W, t1, t2);
        const Vec3 rc = pc - data.x_W[c];
        const Vec3 ra = par >= 0 ? Vec3(pc - data.x_W[par]) : Vec3::Zero();
        for (const Vec3& t : {t1, t2}) {
          bias_v[w.next] = alpha_h * t.dot(d);
          w.point_row(moving(model, par), ra, moving(model, c), rc, t);
          violation = std::max(violation, std::abs(t.dot(d)));
        }
        break;
      }
      case JointType::Free: break;
    }
  }
  // ---- loop closures ----
  for (const Equality& eq : model.equalities) {
    const Vec3 p1 = body_point_W(model, data, eq.body1, eq.anchor1);
    const Vec3 p2 = body_point_W(model, data, eq.body2, eq.anchor2);
    point_rows(eq.body1, p1, eq.body2, p2);
    if (eq.type == EqualityType::Weld) weld_rotation_rows(eq.body1, eq.body2, eq.rel_quat);
  }
  // ---- servos, damping, armature: implicit compliant rows ----
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    const int c = jt.body, par = jt.parent;
    if (moving(model, c) < 0) continue;
    const Vec3 axis_W = body_rotation(data, par) * jt.axis_parent;
    if (is_scalar(jt.type)) {
      const ServoTerms s = servo_terms(model, data, static_cast<int>(j));
      const Real m_j = jt.armature + h * s.damping + h * h * s.stiffness;
      if (m_j <= 0) continue;
      const Real q = joint_position(model, data, static_cast<int>(j));
      const Real qd = joint_velocity(model, data, static_cast<int>(j));
      const Real qd_b = (jt.armature * qd + h * (s.stiffness * (s.q_ref - q) + s.damping * s.qd_ref)) / m_j;
      p.compliance[w.next] = 1.0 / m_j;
      bias_v[w.next] = -qd_b;
      if (jt.type == JointType::Hinge) {
        w.angular_row(moving(model, par), moving(model, c), axis_W);
      } else {
        const Vec3 pc = body_point_W(model, data, c, jt.anchor_B);
        const Vec3 ra = par >= 0 ? Vec3(pc - data.x_W[par]) : Vec3::Zero();
        w.point_row(moving(model, par), ra, moving(model, c), pc - data.x_W[c], axis_W);
      }
    } else if (jt.type == JointType::Ball) {
      const Real m_j = jt.armature + h * jt.damping;
      if (m_j <= 0) continue;
      const Vec3 w_rel = data.w_W[c] - (par >= 0 ? data.w_W[par] : Vec3::Zero());
      for (int k = 0; k < 3; ++k) {
        p.compliance[w.next] = 1.0 / m_j;
        bias_v[w.next] = -(jt.armature * w_rel[k]) / m_j;
        w.angular_row(moving(model, par), moving(model, c), Vec3::Unit(k));
      }
    }
  }
  // ---- limits: q - lo >= 0 and hi - q >= 0 ----
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    const int c = jt.body, par = jt.parent;
    if (moving(model, c) < 0 || !is_scalar(jt.type) || !jt.limited) continue;
    const Real q = joint_position(model, data, static_cast<int>(j));
    const Vec3 axis_W = body_rotation(data, par) * jt.axis_parent;
    for (int side = 0; side < 2; ++side) {
      const Real sign = side == 0 ? 1.0 : -1.0;
      const Real gap = side == 0 ? q - jt.range_lo : jt.range_hi - q;
      bias_v[w.next] = unilateral_bias(gap, h, bias.limit_baumgarte, 0);
      if (jt.type == JointType::Hinge) {
        w.angular_row(moving(model, par), moving(model, c), sign * axis_W);
      } else {
        const Vec3 pc = body_point_W(model, data, c, jt.anchor_B);
        const Vec3 ra = par >= 0 ? Vec3(pc - data.x_W[par]) : Vec3::Zero();
        w.point_row(moving(model, par), ra, moving(model, c), pc - data.x_W[c], sign * axis_W);
      }
      violation = std::max(violation, std::max(Real(0), -gap));
    }
  }
  // ---- contacts: rows [n, t1, t2] ----
  for (int k = 0; k < nc; ++k) {
    const Contact& ct = data.contacts[k];
    const int a = ct.body1, b = ct.body2;
    const Vec3 ra = a >= 0 ? Vec3(ct.point_W - data.x_W[a]) : Vec3::Zero();
    const Vec3 rb = b >= 0 ? Vec3(ct.point_W - data.x_W[b]) : Vec3::Zero();
    const int row_n = w.next;
    w.point_row(moving(model, a), ra, moving(model, b), rb, ct.normal_W);
    w.point_row(moving(model, a), ra, moving(model, b), rb, ct.tangent1_W);
    w.point_row(moving(model, a), ra, moving(model, b), rb, ct.tangent2_W);
    p.mu[k] = ct.friction;

    // Pre-step normal velocity J_n u- for the restitution law.
    Real vn_minus = 0, vn_free = 0;
    const ConstraintRow& rn = p.rows[row_n];
    auto twist = [&](const std::vector<Vec3>& lin, const std::vector<Vec3>& ang, int body) {
      Vec6 u;
      u << lin[body], ang[body];
      return u;
    };
    if (rn.body_a >= 0) {
      vn_minus += rn.J_a.dot(twist(data.v_W, data.w_W, rn.body_a));
      vn_free += rn.J_a.dot(Eigen::Map<const Vec6>(&data.u_free[6 * rn.body_a]));
    }
    if (rn.body_b >= 0) {
      vn_minus += rn.J_b.dot(twist(data.v_W, data.w_W, rn.body_b));
      vn_free += rn.J_b.dot(Eigen::Map<const Vec6>(&data.u_free[6 * rn.body_b]));
    }
    const Real e = bias.restitution_override >= 0 ? bias.restitution_override : model.restitution(ct.geom1, ct.geom2);
    const bool closes_this_step = ct.gap + h * std::min(vn_minus, vn_free) < 0;
    if (e > 0 && vn_minus < 0 && closes_this_step) {
      // Newton impact: the normal velocity after the step is at least -e v-.
      const Real xi = (ct.gap + bias.contact_slop < 0 ? ct.gap + bias.contact_slop : 0) / h;
      bias_v[row_n] = bias.contact_baumgarte * xi + e * vn_minus;
    } else {
      bias_v[row_n] = unilateral_bias(ct.gap, h, bias.contact_baumgarte, bias.contact_slop);
    }
  }

  // v_free = J u_free + bias
  p.apply_J(data.u_free.data(), p.v_free.data());
  for (int r = 0; r < p.num_rows(); ++r) p.v_free[r] += bias_v[r];
  return violation;
}

}  // namespace contactlab
