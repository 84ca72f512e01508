#include "schemes/assembly.hpp"

#include <algorithm>
#include <cmath>

#include "core/kinematics.hpp"
#include "geometry/broad_phase.hpp"
#include "geometry/collision.hpp"
#include "geometry/pair_filter.hpp"
#include "schemes/compound_joint_rows.hpp"
#include "schemes/fluid_forces.hpp"
#include "schemes/tendon_rows.hpp"

namespace contactlab {

namespace {

// Rows take bodies as Model::moving_body gives them: fixed bodies and the
// world are -1 (infinite mass: they take no part in J M^-1 J^T).

template <class T>
T clamped_control_t(const Actuator& actuator, const T& ctrl) {
  return actuator.ctrl_limited ? std::clamp(ctrl, T(actuator.ctrl_lo), T(actuator.ctrl_hi)) : ctrl;
}

template <class T>
Mat3T<T> body_rotation_t(const BodyStatesT<T>& s, int body) {
  return body >= 0 ? Mat3T<T>(s.q[body].toRotationMatrix()) : Mat3T<T>(Mat3T<T>::Identity());
}

template <class T>
Vec3T<T> body_point_t(const Model& model, const BodyStatesT<T>& s, int body, const Vec3& p_B) {
  if (body < 0) return p_B.template cast<T>();
  return s.x[body] + s.q[body] * (p_B - model.bodies[body].com_B).template cast<T>();
}

// Writes rows in order and keeps the three groups' counters honest.
template <class T>
struct RowWriter {
  std::vector<ConstraintRowT<T>>& rows;
  int next = 0;
  // A row constraining the velocity of a point pair along `dir`:
  // d/dt (p_b - p_a) . dir, with lever arms r_* = point - com.
  void point_row(int body_a, const Vec3T<T>& r_a, int body_b, const Vec3T<T>& r_b, const Vec3T<T>& dir) {
    ConstraintRowT<T>& row = rows[next++];
    row.body_a = body_a;
    row.body_b = body_b;
    row.J_a << -dir, -r_a.cross(dir);
    row.J_b << dir, r_b.cross(dir);
  }
  // A row constraining the relative angular velocity (w_b - w_a) . dir.
  void angular_row(int body_a, int body_b, const Vec3T<T>& dir) {
    ConstraintRowT<T>& row = rows[next++];
    row.body_a = body_a;
    row.body_b = body_b;
    row.J_a << Vec3T<T>::Zero(), -dir;
    row.J_b << Vec3T<T>::Zero(), dir;
  }
};

// One-sided bias for unilateral rows: full closure of a positive gap within the
// step, a fraction gamma of a penetration (MATH.md A.2).
// Written so that its smooth cases stay smooth over dual numbers, where a
// branch point picks one side's derivative: without slop the dead band is
// empty (d = gap; backward Euler closes gaps to exactly 0, where the general
// form's max(0, |gap|) would give derivative 0), and with full closure
// (gamma = 1) the bias is d/h on both sides.
template <class T>
T unilateral_bias(const T& gap, Real h, Real gamma, Real slop) {
  using std::abs;
  const T d = slop == 0 ? gap : T(T(gap >= T(0) ? 1.0 : -1.0) * std::max(T(0), abs(gap) - T(slop)));
  const T xi = d / T(h);
  if (gamma == 1) return xi;
  return T(gamma) * std::min(T(0), xi) + std::max(T(0), xi);
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

// Joint-space servo/spring/damping/armature data of a scalar joint (hinge or slide).
// Every term is a force k (target - q) + d (target velocity - qd): their sum is
// drive - stiffness q - damping qd, with drive = sum k target + d target velocity.
template <class T>
struct ServoTerms {
  Real stiffness = 0;   // k_p g^2 of position servos + joint stiffness, per unit joint coordinate
  Real damping = 0;     // k_d g^2 + velocity gains g^2 + joint damping
  T drive = T(0);       // sum of stiffness * target position and damping * target velocity
};

template <class T>
ServoTerms<T> servo_terms(const Model& model, const std::vector<T>& ctrl, int joint) {
  ServoTerms<T> s;
  const Joint& jt = model.joints[joint];
  s.damping = jt.damping;
  // The joint spring (MJCF stiffness toward springref), implicit like a servo.
  s.stiffness = jt.stiffness;
  s.drive = T(jt.stiffness * jt.springref);
  for (size_t a = 0; a < model.actuators.size(); ++a) {
    const Actuator& act = model.actuators[a];
    if (act.joint != joint) continue;
    const Real g = act.gear[0];
    const T u = clamped_control_t(act, ctrl[a]);
    // An actuator of length g q and force g * gain * (u - g q): in joint units the
    // gain is scaled by g^2 and the target by 1/g.
    if (act.type == ActuatorType::Position && g != 0) {
      s.stiffness += act.kp * g * g;
      s.drive += T(act.kp * g) * u;
      s.damping += act.kv * g * g;
    } else if (act.type == ActuatorType::Velocity && g != 0) {
      s.damping += act.kp * g * g;
      s.drive += T(act.kp * g) * u;
    }
  }
  return s;
}

bool is_scalar(JointType t) { return t == JointType::Hinge || t == JointType::Slide; }

}  // namespace

Mat3 body_rotation(const Data& data, int body) { return body_rotation_t<Real>(body_states(data), body); }

Vec3 body_point_W(const Model& model, const Data& data, int body, const Vec3& p_B) {
  return body_point_t<Real>(model, body_states(data), body, p_B);
}

Real clamped_control(const Actuator& actuator, Real ctrl) { return clamped_control_t<Real>(actuator, ctrl); }

namespace {

// The narrow phase on the broad phase's pairs, with the poses it stored.
void collide_candidate_pairs(const Model& model, Data& data, Real margin) {
  data.contacts.clear();
  const BroadPhaseScratch& bp = data.broad_phase;
  for (const GeomPair& p : bp.pairs) {
    const Geom& g1 = model.geoms[p.geom1];
    const Geom& g2 = model.geoms[p.geom2];
    const GeomPose pose1{bp.pos_W[p.geom1], bp.R_WG[p.geom1]};
    const GeomPose pose2{bp.pos_W[p.geom2], bp.R_WG[p.geom2]};
    collide_geoms(g1, pose1, p.geom1, g2, pose2, p.geom2, pair_margin(g1, g2, margin), data.contacts);
  }
}

}  // namespace

void detect_contacts(const Model& model, Data& data, Real margin) {
  find_candidate_pairs(model, data, margin, data.broad_phase);
  collide_candidate_pairs(model, data, margin);
}

void detect_contacts_all_pairs(const Model& model, Data& data, Real margin) {
  find_candidate_pairs_all(model, data, margin, data.broad_phase);
  collide_candidate_pairs(model, data, margin);
}

namespace {

// A generalised force tau on a hinge or slide joint (N m or N), as equal and
// opposite wrenches on its child and parent (world frame).
template <class T>
void add_joint_force_t(const Model& model, const BodyStatesT<T>& s, int joint, const T& tau, std::vector<T>& wrench) {
  if (is_compound(model, joint)) {
    add_compound_joint_force_t<T>(model, s, joint, tau, wrench);
    return;
  }
  const Joint& jt = model.joints[joint];
  const int c = jt.body, par = jt.parent;
  const Vec3T<T> axis_W = body_rotation_t(s, par) * jt.axis_parent.template cast<T>();
  if (jt.type == JointType::Hinge) {
    Eigen::Map<Vec3T<T>>(&wrench[6 * c + 3]) += tau * axis_W;
    if (par >= 0) Eigen::Map<Vec3T<T>>(&wrench[6 * par + 3]) -= tau * axis_W;
  } else if (jt.type == JointType::Slide) {
    const Vec3T<T> anchor = body_point_t(model, s, c, jt.anchor_B);
    Eigen::Map<Vec3T<T>>(&wrench[6 * c]) += tau * axis_W;
    Eigen::Map<Vec3T<T>>(&wrench[6 * c + 3]) += (anchor - s.x[c]).cross(tau * axis_W);
    if (par >= 0) {
      Eigen::Map<Vec3T<T>>(&wrench[6 * par]) -= tau * axis_W;
      Eigen::Map<Vec3T<T>>(&wrench[6 * par + 3]) -= (anchor - s.x[par]).cross(tau * axis_W);
    }
  }
}

}  // namespace

template <class T>
void free_velocity_t(const Model& model, const BodyStatesT<T>& s, const std::vector<T>& ctrl, Real h, bool gyroscopic,
                     FreeVelocityT<T>& out) {
  const int nb = model.num_bodies();
  out.inv_mass.resize(nb);
  out.inv_inertia_W.resize(nb);
  out.u_free.resize(6 * nb);
  std::vector<T>& wrench = out.wrench;  // (6 nb) external force, torque per body, world frame
  wrench.assign(6 * nb, T(0.0));

  // Motor forces (explicit); servos are implicit rows (see assemble_problem).
  for (size_t a = 0; a < model.actuators.size(); ++a) {
    const Actuator& act = model.actuators[a];
    if (act.type != ActuatorType::Motor) continue;
    const T u = clamped_control_t(act, ctrl[a]);
    const T tau = T(act.gear[0]) * u;
    if (act.tendon >= 0) {  // the tendon's force on each joint: its moment arm is the coefficient
      for (const TendonTerm& term : model.tendons[act.tendon].terms)
        add_joint_force_t<T>(model, s, term.joint, T(term.coef) * tau, wrench);
      continue;
    }
    const Joint& jt = model.joints[act.joint];
    if (jt.type == JointType::Free) {
      const int c = jt.body;
      Eigen::Map<Vec3T<T>>(&wrench[6 * c]) += act.gear.head<3>().template cast<T>() * u;
      Eigen::Map<Vec3T<T>>(&wrench[6 * c + 3]) += s.q[c] * (act.gear.tail<3>().template cast<T>() * u);
      continue;
    }
    add_joint_force_t<T>(model, s, act.joint, tau, wrench);
  }
  // Fluid drag (option density, viscosity), explicit as the motors.
  add_fluid_wrenches_t<T>(model, s, wrench);

  for (int b = 0; b < nb; ++b) {
    const Body& body = model.bodies[b];
    Eigen::Map<Vec3T<T>> v(&out.u_free[6 * b]), w(&out.u_free[6 * b + 3]);
    if (body.fixed) {
      out.inv_mass[b] = T(0);
      out.inv_inertia_W[b].setZero();
      v.setZero();
      w.setZero();
      continue;
    }
    const Mat3T<T> R = s.q[b].toRotationMatrix();
    const Mat3T<T> I_W = R * body.inertia_B.template cast<T>() * R.transpose();
    out.inv_mass[b] = T(1.0 / body.mass);
    out.inv_inertia_W[b] = R * body.inertia_B.inverse().template cast<T>() * R.transpose();
    Vec3T<T> torque = Eigen::Map<const Vec3T<T>>(&wrench[6 * b + 3]);
    if (gyroscopic) torque -= s.w[b].cross(I_W * s.w[b]);
    v = s.v[b] + T(h) * (model.options.gravity.template cast<T>() + out.inv_mass[b] * Eigen::Map<const Vec3T<T>>(&wrench[6 * b]));
    w = s.w[b] + T(h) * (out.inv_inertia_W[b] * torque);
  }
}

template void free_velocity_t<Real>(const Model&, const BodyStatesT<Real>&, const std::vector<Real>&, Real, bool,
                                    FreeVelocityT<Real>&);
template void free_velocity_t<Dual>(const Model&, const BodyStatesT<Dual>&, const std::vector<Dual>&, Real, bool,
                                    FreeVelocityT<Dual>&);

void compute_free_velocity(const Model& model, Data& data, Real h, bool gyroscopic) {
  ConstraintProblem& p = data.problem;
  p.inv_mass.resize(model.num_bodies());
  p.inv_inertia_W.resize(model.num_bodies());
  data.u_free.resize(6 * model.num_bodies());
  FreeVelocityT<Real> out{data.u_free, p.inv_mass, p.inv_inertia_W, data.scratch6};
  free_velocity_t<Real>(model, body_states(data), data.ctrl, h, gyroscopic, out);
}

template <class T>
Real assemble_rows_t(const Model& model, const BodyStatesT<T>& s, const std::vector<T>& ctrl,
                     const std::vector<ContactT<T>>& contacts, const std::vector<T>& u_free, Real h,
                     const RowBiasOptions& bias, RowsT<T>& out) {
  // Positions move by h_pos v+ over the step (RowBiasOptions::position_step).
  const Real hp = h * bias.position_step;
  // ---- count rows ----
  int bilateral = 0, limits = 0;
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    if (model.moving_body(jt.body) < 0) continue;
    const JointGroup group = joint_group(model, static_cast<int>(j));
    if (group.count == 1) bilateral += rows_of_joint(jt.type);
    else if (group.first == static_cast<int>(j)) bilateral += 6 - group.count;  // compound joint's lock rows
    if (is_scalar(jt.type)) {
      const ServoTerms<T> st = servo_terms(model, ctrl, static_cast<int>(j));
      if (jt.armature + h * st.damping + h * hp * st.stiffness > 0) bilateral += 1;
      if (jt.limited) limits += 2;
    } else if (jt.type == JointType::Ball && jt.armature + h * jt.damping > 0) {
      bilateral += 3;
    }
  }
  for (const Equality& eq : model.equalities) bilateral += eq.type == EqualityType::Connect ? 3 : 6;
  bilateral += tendon_bilateral_rows(model);
  limits += tendon_limit_rows(model);
  const int nc = static_cast<int>(contacts.size());
  out.resize(model.num_bodies(), bilateral, limits, nc);
  std::vector<T>& bias_v = out.bias;  // (m) bias and restitution per row
  std::vector<T>& compliance = out.compliance;

  RowWriter<T> w{out.rows};
  Real violation = 0;
  const Real alpha_h = bias.baumgarte / hp;
  auto x_of = [&](int b) { return b >= 0 ? s.x[b] : Vec3T<T>(Vec3T<T>::Zero()); };

  // Point coincidence along the world axes: p_b(q) - p_a(q) = 0.
  auto point_rows = [&](int a, const Vec3T<T>& pa_W, int b, const Vec3T<T>& pb_W) {
    const Vec3T<T> err = pb_W - pa_W;
    const Vec3T<T> ra = a >= 0 ? Vec3T<T>(pa_W - s.x[a]) : Vec3T<T>(Vec3T<T>::Zero());
    const Vec3T<T> rb = b >= 0 ? Vec3T<T>(pb_W - s.x[b]) : Vec3T<T>(Vec3T<T>::Zero());
    for (int k = 0; k < 3; ++k) {
      bias_v[w.next] = T(alpha_h) * err[k];
      w.point_row(model.moving_body(a), ra, model.moving_body(b), rb, Vec3T<T>::Unit(k));
    }
    violation = std::max(violation, value_of(err.cwiseAbs().maxCoeff()));
  };
  // Orientation lock: R_b = R_a R_rel. Error as the world rotation vector of R_b (R_a R_rel)^T.
  auto weld_rotation_rows = [&](int a, int b, const Quat& rel) {
    const QuatT<T> qa = a >= 0 ? s.q[a] : QuatT<T>(QuatT<T>::Identity());
    const QuatT<T> qb = b >= 0 ? s.q[b] : QuatT<T>(QuatT<T>::Identity());
    const Vec3T<T> err = quaternion_log_t<T>(qb * (qa * rel.template cast<T>()).conjugate());
    for (int k = 0; k < 3; ++k) {
      bias_v[w.next] = T(alpha_h) * err[k];
      w.angular_row(model.moving_body(a), model.moving_body(b), Vec3T<T>::Unit(k));
    }
    violation = std::max(violation, value_of(err.cwiseAbs().maxCoeff()));
  };

  // ---- joints ----
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    const int c = jt.body, par = jt.parent;
    if (model.moving_body(c) < 0 || jt.type == JointType::Free) continue;
    const JointGroup group = joint_group(model, static_cast<int>(j));
    if (group.count > 1) {
      if (group.first != static_cast<int>(j)) continue;
      violation = std::max(violation, compound_lock_rows_t<T>(model, s, group, model.moving_body(par), model.moving_body(c),
                                                              alpha_h, &w.rows[w.next], &bias_v[w.next]));
      w.next += 6 - group.count;
      continue;
    }
    const Vec3T<T> pc = body_point_t(model, s, c, jt.anchor_B);
    const Vec3T<T> pp = body_point_t(model, s, par, jt.anchor_parent);
    const Vec3T<T> axis_W = body_rotation_t(s, par) * jt.axis_parent.template cast<T>();
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
        const Vec3T<T> axis_c = s.q[c] * jt.axis_B.template cast<T>();
        const Vec3T<T> mis = axis_W.cross(axis_c);
        Vec3T<T> t1, t2;
        tangent_basis_t<T>(axis_W, t1, t2);
        for (const Vec3T<T>& t : {t1, t2}) {
          bias_v[w.next] = T(alpha_h) * t.dot(mis);
          w.angular_row(model.moving_body(par), model.moving_body(c), t);
        }
        violation = std::max(violation, value_of(mis.norm()));
        break;
      }
      case JointType::Slide: {
        weld_rotation_rows(par, c, jt.rel_quat0);
        // Anchor stays on the parent's axis line: (p_c - p_p) . t = 0 for t _|_ axis.
        const Vec3T<T> d = pc - pp;
        Vec3T<T> t1, t2;
        tangent_basis_t<T>(axis_W, t1, t2);
        const Vec3T<T> rc = pc - s.x[c];
        const Vec3T<T> ra = par >= 0 ? Vec3T<T>(pc - s.x[par]) : Vec3T<T>(Vec3T<T>::Zero());
        for (const Vec3T<T>& t : {t1, t2}) {
          bias_v[w.next] = T(alpha_h) * t.dot(d);
          w.point_row(model.moving_body(par), ra, model.moving_body(c), rc, t);
          violation = std::max(violation, std::abs(value_of(t.dot(d))));
        }
        break;
      }
      case JointType::Free: break;
    }
  }
  // ---- loop closures ----
  for (const Equality& eq : model.equalities) {
    const Vec3T<T> p1 = body_point_t(model, s, eq.body1, eq.anchor1);
    const Vec3T<T> p2 = body_point_t(model, s, eq.body2, eq.anchor2);
    point_rows(eq.body1, p1, eq.body2, p2);
    if (eq.type == EqualityType::Weld) weld_rotation_rows(eq.body1, eq.body2, eq.rel_quat);
  }
  // ---- joint/tendon equalities: x1 - poly(x2) = 0 (schemes/tendon_rows.hpp) ----
  for (size_t e = 0; e < model.scalar_equalities.size(); ++e) {
    const T c = scalar_equality_row<T>(model, s, static_cast<int>(e), out.rows[w.next]);
    bias_v[w.next++] = T(alpha_h) * c;
    violation = std::max(violation, std::abs(value_of(c)));
  }
  // ---- servos, damping, armature: implicit compliant rows ----
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    const int c = jt.body, par = jt.parent;
    if (model.moving_body(c) < 0) continue;
    const Vec3T<T> axis_W = body_rotation_t(s, par) * jt.axis_parent.template cast<T>();
    if (is_scalar(jt.type)) {
      const ServoTerms<T> st = servo_terms(model, ctrl, static_cast<int>(j));
      const Real m_j = jt.armature + h * st.damping + h * hp * st.stiffness;
      if (m_j <= 0) continue;
      const T q = joint_position_t<T>(model, s, static_cast<int>(j));
      const T qd = joint_velocity_t<T>(model, s, static_cast<int>(j));
      // The armature's momentum a q' carried over the step: q' at the step's
      // end is W(q + h q') . V+, which the row (W at the start) sees as
      // W . V+ + h W' . V (core/compound_joint.hpp).
      T qd_arm = qd;
      if (bias.armature_basis_drift && jt.armature > 0 && is_compound(model, static_cast<int>(j)))
        qd_arm = qd - T(h) * compound_basis_drift_t<T>(model, s, static_cast<int>(j));
      const T qd_b = (T(jt.armature) * qd_arm + T(h) * (st.drive - T(st.stiffness) * q)) / T(m_j);
      compliance[w.next] = T(1.0 / m_j);
      bias_v[w.next] = -qd_b;
      if (is_compound(model, static_cast<int>(j))) {
        compound_coordinate_row_t<T>(model, s, static_cast<int>(j), model.moving_body(par), model.moving_body(c), 1.0,
                                     w.rows[w.next++]);
      } else if (jt.type == JointType::Hinge) {
        w.angular_row(model.moving_body(par), model.moving_body(c), axis_W);
      } else {
        const Vec3T<T> pc = body_point_t(model, s, c, jt.anchor_B);
        const Vec3T<T> ra = par >= 0 ? Vec3T<T>(pc - s.x[par]) : Vec3T<T>(Vec3T<T>::Zero());
        w.point_row(model.moving_body(par), ra, model.moving_body(c), pc - s.x[c], axis_W);
      }
    } else if (jt.type == JointType::Ball) {
      const Real m_j = jt.armature + h * jt.damping;
      if (m_j <= 0) continue;
      const Vec3T<T> w_rel = s.w[c] - (par >= 0 ? s.w[par] : Vec3T<T>(Vec3T<T>::Zero()));
      for (int k = 0; k < 3; ++k) {
        compliance[w.next] = T(1.0 / m_j);
        bias_v[w.next] = -(T(jt.armature) * w_rel[k]) / T(m_j);
        w.angular_row(model.moving_body(par), model.moving_body(c), Vec3T<T>::Unit(k));
      }
    }
  }
  // ---- tendon springs and dampers: implicit compliant rows, as the servos ----
  for (size_t t = 0; t < model.tendons.size(); ++t) {
    const Tendon& td = model.tendons[t];
    const Real m_t = h * td.damping + h * hp * td.stiffness;
    if (!(td.stiffness > 0 || td.damping > 0)) continue;
    const T length = tendon_length_row<T>(model, s, static_cast<int>(t), out.rows[w.next]);
    compliance[w.next] = T(1.0 / m_t);
    bias_v[w.next++] = -(T(h * td.stiffness) * (T(td.springlength) - length)) / T(m_t);
  }
  // ---- limits: q - lo >= 0 and hi - q >= 0 ----
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    const int c = jt.body, par = jt.parent;
    if (model.moving_body(c) < 0 || !is_scalar(jt.type) || !jt.limited) continue;
    const T q = joint_position_t<T>(model, s, static_cast<int>(j));
    const Vec3T<T> axis_W = body_rotation_t(s, par) * jt.axis_parent.template cast<T>();
    for (int side = 0; side < 2; ++side) {
      const Real sign = side == 0 ? 1.0 : -1.0;
      const T gap = side == 0 ? T(q - T(jt.range_lo)) : T(T(jt.range_hi) - q);
      bias_v[w.next] = unilateral_bias(gap, hp, bias.limit_baumgarte, 0);
      if (is_compound(model, static_cast<int>(j))) {
        compound_coordinate_row_t<T>(model, s, static_cast<int>(j), model.moving_body(par), model.moving_body(c), sign,
                                     w.rows[w.next++]);
      } else if (jt.type == JointType::Hinge) {
        w.angular_row(model.moving_body(par), model.moving_body(c), T(sign) * axis_W);
      } else {
        const Vec3T<T> pc = body_point_t(model, s, c, jt.anchor_B);
        const Vec3T<T> ra = par >= 0 ? Vec3T<T>(pc - s.x[par]) : Vec3T<T>(Vec3T<T>::Zero());
        w.point_row(model.moving_body(par), ra, model.moving_body(c), pc - s.x[c], T(sign) * axis_W);
      }
      violation = std::max(violation, std::max(Real(0), value_of(-gap)));
    }
  }
  // ---- tendon limits: L - lo >= 0 and hi - L >= 0 ----
  for (size_t t = 0; t < model.tendons.size(); ++t) {
    const Tendon& td = model.tendons[t];
    if (!td.limited) continue;
    for (int side = 0; side < 2; ++side) {
      ConstraintRowT<T>& row = out.rows[w.next];
      const T length = tendon_length_row<T>(model, s, static_cast<int>(t), row);
      const T gap = side == 0 ? T(length - T(td.range_lo)) : T(T(td.range_hi) - length);
      if (side == 1) {
        row.J_a = -row.J_a;
        row.J_b = -row.J_b;
      }
      bias_v[w.next++] = unilateral_bias(gap, hp, bias.limit_baumgarte, 0);
      violation = std::max(violation, std::max(Real(0), value_of(-gap)));
    }
  }
  // ---- contacts: rows [n, t1, t2] ----
  for (int k = 0; k < nc; ++k) {
    const ContactT<T>& ct = contacts[k];
    const int a = ct.body1, b = ct.body2;
    const Vec3T<T> ra = a >= 0 ? Vec3T<T>(ct.point_W - s.x[a]) : Vec3T<T>(Vec3T<T>::Zero());
    const Vec3T<T> rb = b >= 0 ? Vec3T<T>(ct.point_W - s.x[b]) : Vec3T<T>(Vec3T<T>::Zero());
    const int row_n = w.next;
    w.point_row(model.moving_body(a), ra, model.moving_body(b), rb, ct.normal_W);
    w.point_row(model.moving_body(a), ra, model.moving_body(b), rb, ct.tangent1_W);
    w.point_row(model.moving_body(a), ra, model.moving_body(b), rb, ct.tangent2_W);
    out.mu[k] = ct.friction;

    // Pre-step normal velocity J_n u- for the restitution law.
    T vn_minus = T(0), vn_free = T(0);
    const ConstraintRowT<T>& rn = out.rows[row_n];
    auto twist = [&](int body) {
      Vec6T<T> u;
      u << s.v[body], s.w[body];
      return u;
    };
    if (rn.body_a >= 0) {
      vn_minus += rn.J_a.dot(twist(rn.body_a));
      vn_free += rn.J_a.dot(Eigen::Map<const Vec6T<T>>(&u_free[6 * rn.body_a]));
    }
    if (rn.body_b >= 0) {
      vn_minus += rn.J_b.dot(twist(rn.body_b));
      vn_free += rn.J_b.dot(Eigen::Map<const Vec6T<T>>(&u_free[6 * rn.body_b]));
    }
    const Real e = bias.restitution_override >= 0 ? bias.restitution_override : model.restitution(ct.geom1, ct.geom2);
    const bool closes_this_step = ct.gap + T(hp) * std::min(vn_minus, vn_free) < T(0);
    if (e > 0 && vn_minus < T(0) && closes_this_step) {
      // Newton impact: the normal velocity after the step is at least -e v-,
      // plus the recovery of a penetration that existed at the start of the
      // step. With rows at a midpoint (position_step < 1) the gap is the
      // midpoint's, which the first drift may have closed: the start's gap is
      // predicted back, g - (h - h_pos) J_n u-, so the drift's own penetration
      // (which the rebound removes) is not also pushed out.
      const T g0 = bias.position_step == 1 ? ct.gap : T(ct.gap - T(h - hp) * vn_minus);
      const T xi = (g0 + T(bias.contact_slop) < T(0) ? T(g0 + T(bias.contact_slop)) : T(0)) / T(h);
      bias_v[row_n] = T(bias.contact_baumgarte) * xi + T(e) * vn_minus;
    } else {
      bias_v[row_n] = unilateral_bias(ct.gap, hp, bias.contact_baumgarte, bias.contact_slop);
    }
  }
  (void)x_of;
  return violation;
}

template Real assemble_rows_t<Real>(const Model&, const BodyStatesT<Real>&, const std::vector<Real>&,
                                    const std::vector<ContactT<Real>>&, const std::vector<Real>&, Real,
                                    const RowBiasOptions&, RowsT<Real>&);
template Real assemble_rows_t<Dual>(const Model&, const BodyStatesT<Dual>&, const std::vector<Dual>&,
                                    const std::vector<ContactT<Dual>>&, const std::vector<Dual>&, Real,
                                    const RowBiasOptions&, RowsT<Dual>&);

Real assemble_problem(const Model& model, Data& data, Real h, const RowBiasOptions& bias) {
  ConstraintProblem& p = data.problem;
  RowsT<Real> out{p.rows, p.compliance, p.mu, data.scratch_m, [&p](int nb, int bilateral, int limits, int nc) {
                    p.resize(nb, bilateral, limits, nc);
                  }};
  const Real violation =
      assemble_rows_t<Real>(model, body_states(data), data.ctrl, data.contacts, data.u_free, h, bias, out);
  // v_free = J u_free + bias
  p.apply_J(data.u_free.data(), p.v_free.data());
  for (int r = 0; r < p.num_rows(); ++r) p.v_free[r] += data.scratch_m[r];
  return violation;
}

}  // namespace contactlab
