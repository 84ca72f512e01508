#include "core/compound_joint.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

namespace contactlab {

JointGroup joint_group(const Model& model, int joint) {
  const int n = static_cast<int>(model.joints.size());
  const int body = model.joints[joint].body;
  int first = joint, last = joint;
  while (first > 0 && model.joints[first - 1].body == body) --first;
  while (last + 1 < n && model.joints[last + 1].body == body) ++last;
  return {first, last - first + 1};
}

std::string compound_unsupported(const Model& model, JointGroup g) {
  int hinges = 0, slides = 0;
  bool slide_after_hinge_after_slide = false, seen_slide = false, hinge_after_slide = false;
  Vec3 hinge_axis[3], slide_axis[3];
  int hinge_joint[3];
  for (int i = 0; i < g.count; ++i) {
    const Joint& j = model.joints[g.first + i];
    if (j.type == JointType::Hinge) {
      if (hinges == 3) return "more than three hinge joints in one body (not supported; nest bodies instead)";
      hinge_joint[hinges] = g.first + i;
      hinge_axis[hinges++] = j.axis_B;
      if (seen_slide) hinge_after_slide = true;
    } else if (j.type == JointType::Slide) {
      if (slides == 3) return "more than three slide joints in one body";
      if (hinge_after_slide) slide_after_hinge_after_slide = true;
      slide_axis[slides++] = j.axis_B;
      seen_slide = true;
    } else {
      return std::string("a ") + to_string(j.type) +
             " joint together with other joints in one body (only hinge and slide joints combine)";
    }
  }
  for (int i = 0; i + 1 < hinges; ++i)
    if (hinge_axis[i].cross(hinge_axis[i + 1]).norm() < 1e-6)
      return "two parallel hinge axes in one body (not supported)";
  if (hinges == 3) {
    // Three rotations lose a degree of freedom where the first axis meets the
    // third as the second turns it (gimbal lock): the middle hinge's range
    // must keep them 5 degrees apart (its whole turn when it is unlimited).
    const Joint& mid = model.joints[hinge_joint[1]];
    const Real lo = mid.limited ? mid.range_lo : -kPi, hi = mid.limited ? mid.range_hi : kPi;
    Real closest = kPi;
    for (int k = 0; k <= 720; ++k) {
      const Real q = lo + (hi - lo) * k / 720.0;
      const Vec3 a3 = Quat(Eigen::AngleAxis<Real>(q, hinge_axis[1])) * hinge_axis[2];
      closest = std::min(closest, std::acos(std::min<Real>(1, std::abs(a3.dot(hinge_axis[0])))));
    }
    if (closest < 5 * kPi / 180)
      return "three hinges in one body whose middle hinge's range reaches gimbal lock (first and third axes "
             "within " + std::to_string(closest * 180 / kPi).substr(0, 4) +
             " degrees; limit the middle hinge to keep them 5 degrees apart)";
  }
  // Slides split by a hinge would turn relative to each other and may become dependent.
  if (slide_after_hinge_after_slide) return "slide joints separated by a hinge joint in one body (not supported)";
  Mat3 A = Mat3::Zero();
  for (int i = 0; i < slides; ++i) A.col(i) = slide_axis[i];
  const Real sv = Eigen::JacobiSVD<Mat3>(A).singularValues()[slides > 0 ? slides - 1 : 0];
  if (slides > 0 && sv < 1e-6) return "linearly dependent slide axes in one body";
  return "";
}

namespace {

template <class T>
QuatT<T> axis_rotation(const Vec3& axis, const T& angle) {
  return QuatT<T>(Eigen::AngleAxis<T>(angle, axis.template cast<T>()));
}

// The composed motion F0^-1 C = M_1(q_1) ... M_k(q_k) in reference coordinates,
// with each joint's axis and anchor as the earlier joints carry them.
template <class T>
struct ChainT {
  QuatT<T> R = QuatT<T>::Identity();
  Vec3T<T> t = Vec3T<T>::Zero();
  Vec3T<T> axis[kMaxCompoundJoints], anchor[kMaxCompoundJoints];
};

template <class T>
void compose_chain(const Model& model, JointGroup g, const T* q, ChainT<T>& c) {
  c.R = QuatT<T>::Identity();
  c.t.setZero();
  for (int i = 0; i < g.count; ++i) {
    const Joint& j = model.joints[g.first + i];
    c.axis[i] = c.R * j.axis_B.template cast<T>();
    c.anchor[i] = c.t + c.R * j.anchor_B.template cast<T>();
    if (j.type == JointType::Hinge) {
      c.R = c.R * axis_rotation<T>(j.axis_B, q[i]);
      c.R.normalize();
      c.t = c.anchor[i] - c.R * j.anchor_B.template cast<T>();
    } else {
      c.t += c.axis[i] * q[i];
    }
  }
}

// Twist angle of a unit quaternion about a unit axis, in (-pi, pi].
template <class T>
T twist_angle(QuatT<T> d, const Vec3& axis) {
  using std::atan2;
  if (d.w() < T(0)) d.coeffs() = -d.coeffs();
  return T(2.0) * atan2(d.vec().dot(axis.template cast<T>()), d.w());
}

// Solves the small SPD system G x = b in place (n <= kMaxCompoundJoints; G is
// a Gram matrix of independent vectors, so no pivoting).
template <class T>
void solve_spd(T G[kMaxCompoundJoints][kMaxCompoundJoints], T* b, int n) {
  for (int k = 0; k < n; ++k) {
    for (int r = k + 1; r < n; ++r) {
      const T f = G[r][k] / G[k][k];
      for (int c = k; c < n; ++c) G[r][c] -= f * G[k][c];
      b[r] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    T acc = b[k];
    for (int c = k + 1; c < n; ++c) acc -= G[k][c] * b[c];
    b[k] = acc / G[k][k];
  }
}

// Joint coordinates of the relative motion (R_D, t_D): hinge angles from the
// rotation (one: its twist angle; two: the first turns the second axis onto
// R_D a_2, the second is the remaining twist; three: Davenport's angles, the
// second from a_1 . R_D a_3 = a_1 . R(a_2, q_2) a_3, of its two roots the one
// nearer 0, then the first turns R(a_2, q_2) a_3 onto R_D a_3 and the third
// is the remaining twist), then slides by least squares on the translation
// left by the hinges.
template <class T>
void solve_coordinates(const Model& model, JointGroup g, const QuatT<T>& RD, const Vec3T<T>& tD, T* q) {
  using std::atan2;
  int hinge[3], nh = 0;
  for (int i = 0; i < g.count; ++i) {
    q[i] = T(0);
    if (model.joints[g.first + i].type == JointType::Hinge) hinge[nh++] = i;
  }
  if (nh == 1) q[hinge[0]] = twist_angle(RD, model.joints[g.first + hinge[0]].axis_B);
  if (nh == 2) {
    const Vec3& a1 = model.joints[g.first + hinge[0]].axis_B;
    const Vec3& a2 = model.joints[g.first + hinge[1]].axis_B;
    const Vec3T<T> A1 = a1.template cast<T>();
    const Vec3T<T> u = (a2 - a1 * a1.dot(a2)).template cast<T>();
    const Vec3T<T> Ra2 = RD * a2.template cast<T>();
    const Vec3T<T> v = Ra2 - A1 * A1.dot(Ra2);
    q[hinge[0]] = atan2(A1.dot(u.cross(v)), u.dot(v));
    q[hinge[1]] = twist_angle<T>(axis_rotation<T>(a1, -q[hinge[0]]) * RD, a2);
  }
  if (nh == 3) {
    using std::abs;
    using std::sqrt;
    const Vec3& a1 = model.joints[g.first + hinge[0]].axis_B;
    const Vec3& a2 = model.joints[g.first + hinge[1]].axis_B;
    const Vec3& a3 = model.joints[g.first + hinge[2]].axis_B;
    // a1 . R(a2, q) a3 = A cos q + B sin q + D (Rodrigues)
    const Real A = a1.dot(a3) - a1.dot(a2) * a2.dot(a3), B = a1.dot(a2.cross(a3)), D = a1.dot(a2) * a2.dot(a3);
    const Vec3T<T> A1 = a1.template cast<T>();
    const Vec3T<T> Ra3 = RD * a3.template cast<T>();
    const Real r = std::sqrt(A * A + B * B);
    T c = (A1.dot(Ra3) - T(D)) / T(r);
    if (c > T(1)) c = T(1);
    if (c < T(-1)) c = T(-1);
    const T half = atan2(sqrt(T(1) - c * c), c);  // acos(c)
    const Real phi = std::atan2(B, A);
    const auto wrap = [](T x) {
      while (x > T(kPi)) x = x - T(2 * kPi);
      while (x <= T(-kPi)) x = x + T(2 * kPi);
      return x;
    };
    const T plus = wrap(T(phi) + half), minus = wrap(T(phi) - half);
    q[hinge[1]] = abs(plus) <= abs(minus) ? plus : minus;
    const Vec3T<T> w = axis_rotation<T>(a2, q[hinge[1]]) * a3.template cast<T>();
    const Vec3T<T> u = w - A1 * A1.dot(w), v = Ra3 - A1 * A1.dot(Ra3);
    q[hinge[0]] = atan2(A1.dot(u.cross(v)), u.dot(v));
    q[hinge[2]] = twist_angle<T>(axis_rotation<T>(a2, -q[hinge[1]]) * axis_rotation<T>(a1, -q[hinge[0]]) * RD, a3);
  }
  ChainT<T> c;
  compose_chain(model, g, q, c);  // slides at 0: t is the hinges' translation
  int slide[3], ns = 0;
  for (int i = 0; i < g.count; ++i)
    if (model.joints[g.first + i].type == JointType::Slide) slide[ns++] = i;
  if (ns == 0) return;
  T G[kMaxCompoundJoints][kMaxCompoundJoints], b[kMaxCompoundJoints];
  const Vec3T<T> rest = tD - c.t;
  for (int r = 0; r < ns; ++r) {
    b[r] = c.axis[slide[r]].dot(rest);
    for (int k = 0; k < ns; ++k) G[r][k] = c.axis[slide[r]].dot(c.axis[slide[k]]);
  }
  solve_spd(G, b, ns);
  for (int r = 0; r < ns; ++r) q[slide[r]] = b[r];
}

template <class T>
struct Pose {
  Vec3T<T> origin = Vec3T<T>::Zero();
  QuatT<T> q = QuatT<T>::Identity();
};

template <class T>
Pose<T> origin_pose(const Model& model, const BodyStatesT<T>& s, int b) {
  Pose<T> p;
  if (b < 0) return p;
  p.q = s.q[b];
  p.origin = s.x[b] - s.q[b] * model.bodies[b].com_B.template cast<T>();
  return p;
}

// The reference frame F0 carried by the parent.
template <class T>
Pose<T> reference_frame(const Model& model, JointGroup g, const Pose<T>& parent) {
  const Joint& j = model.joints[g.first];
  const Vec3 o0 = j.anchor_parent - j.rel_quat0 * j.anchor_B;  // child origin in the parent at qpos0
  Pose<T> f;
  f.q = parent.q * j.rel_quat0.template cast<T>();
  f.origin = parent.origin + parent.q * o0.template cast<T>();
  return f;
}

// Twist in (angular; linear) coordinates as a plain 6-vector.
template <class T>
Vec6T<T> stack(const Vec3T<T>& top, const Vec3T<T>& bottom) {
  Vec6T<T> out;
  out << top, bottom;
  return out;
}

}  // namespace

template <class T>
void compound_frame_t(const Model& model, const BodyStatesT<T>& s, JointGroup g, CompoundFrameT<T>& out) {
  const Joint& j0 = model.joints[g.first];
  const Pose<T> parent = origin_pose(model, s, j0.parent), child = origin_pose(model, s, j0.body);
  const Pose<T> ref = reference_frame(model, g, parent);
  QuatT<T> RD = ref.q.conjugate() * child.q;
  RD.normalize();
  const Vec3T<T> tD = ref.q.conjugate() * (child.origin - ref.origin);
  out.count = g.count;
  solve_coordinates(model, g, RD, tD, out.q);
  ChainT<T> c;
  compose_chain(model, g, out.q, c);

  out.point = child.origin;
  // Joint twists at the child's origin, world frame.
  for (int i = 0; i < g.count; ++i) {
    const Vec3T<T> axis_W = ref.q * c.axis[i];
    if (model.joints[g.first + i].type == JointType::Hinge) {
      const Vec3T<T> anchor_W = ref.origin + ref.q * c.anchor[i];
      out.twist[i] = stack<T>(axis_W, axis_W.cross(out.point - anchor_W));
    } else {
      out.twist[i] = stack<T>(Vec3T<T>::Zero(), axis_W);
    }
  }
  // Pose error of the child against F0 M(q).
  const QuatT<T> ideal_q = ref.q * c.R;
  const Vec3T<T> ideal_origin = ref.origin + ref.q * c.t;
  out.error = stack<T>(quaternion_log_t<T>(child.q * ideal_q.conjugate()), child.origin - ideal_origin);

  // A wrench (f; tau) pairs with a twist (w; v) as f.v + tau.w: in swapped
  // coordinates (tau; f) that is the Euclidean product, where the dual basis
  // and the orthogonal complement are plain linear algebra.
  T G[kMaxCompoundJoints][kMaxCompoundJoints];
  for (int i = 0; i < g.count; ++i) {
    for (int k = 0; k < g.count; ++k) G[i][k] = out.twist[i].dot(out.twist[k]);
  }
  for (int i = 0; i < g.count; ++i) {
    T Gi[kMaxCompoundJoints][kMaxCompoundJoints], e[kMaxCompoundJoints];
    for (int r = 0; r < g.count; ++r) {
      e[r] = T(r == i ? 1.0 : 0.0);
      for (int k = 0; k < g.count; ++k) Gi[r][k] = G[r][k];
    }
    solve_spd(Gi, e, g.count);
    Vec6T<T> swapped = Vec6T<T>::Zero();
    for (int k = 0; k < g.count; ++k) swapped += out.twist[k] * e[k];
    out.coord_wrench[i] = stack<T>(swapped.template tail<3>(), swapped.template head<3>());
  }
  // Orthonormal complement by Gram-Schmidt: the twists, then greedily the unit
  // vector with the largest remainder (well conditioned whatever the axes).
  Vec6T<T> basis[6];
  int nb = 0;
  for (int i = 0; i < g.count; ++i) {
    Vec6T<T> r = out.twist[i];
    for (int k = 0; k < nb; ++k) r -= basis[k] * basis[k].dot(r);
    basis[nb++] = r / r.norm();
  }
  for (int n = 0; n < 6 - g.count; ++n) {
    Vec6T<T> best = Vec6T<T>::Zero();
    T best_norm = T(-1);
    for (int m = 0; m < 6; ++m) {
      Vec6T<T> r = Vec6T<T>::Unit(m);
      for (int k = 0; k < nb; ++k) r -= basis[k] * basis[k].dot(r);
      const T rn = r.norm();
      if (rn > best_norm) {
        best_norm = rn;
        best = r;
      }
    }
    basis[nb++] = best / best_norm;
    const Vec6T<T>& sw = basis[nb - 1];
    out.lock_wrench[n] = stack<T>(sw.template tail<3>(), sw.template head<3>());
  }
}

template <class T>
Vec6T<T> compound_relative_twist_t(const Model& model, const BodyStatesT<T>& s, JointGroup g, const Vec3T<T>& point) {
  const Joint& j0 = model.joints[g.first];
  auto twist_at = [&](int b) {
    if (b < 0) return Vec6T<T>(Vec6T<T>::Zero());
    return stack<T>(s.w[b], s.v[b] + s.w[b].cross(point - s.x[b]));
  };
  return twist_at(j0.body) - twist_at(j0.parent);
}

namespace {
template <class T>
T pair(const Vec6T<T>& wrench, const Vec6T<T>& twist) {
  return wrench.template head<3>().dot(twist.template tail<3>()) + wrench.template tail<3>().dot(twist.template head<3>());
}
}  // namespace

template <class T>
T compound_joint_position_t(const Model& model, const BodyStatesT<T>& s, int joint) {
  const JointGroup g = joint_group(model, joint);
  CompoundFrameT<T> f;
  compound_frame_t(model, s, g, f);
  return f.q[joint - g.first];
}

template <class T>
T compound_joint_velocity_t(const Model& model, const BodyStatesT<T>& s, int joint) {
  const JointGroup g = joint_group(model, joint);
  CompoundFrameT<T> f;
  compound_frame_t(model, s, g, f);
  return pair<T>(f.coord_wrench[joint - g.first], compound_relative_twist_t(model, s, g, f.point));
}

template <class T>
T compound_basis_drift_t(const Model& model, const BodyStatesT<T>& s, int joint) {
  const JointGroup g = joint_group(model, joint);
  CompoundFrameT<T> f;
  compound_frame_t(model, s, g, f);
  const Joint& j0 = model.joints[g.first];
  const Pose<T> ref = reference_frame(model, g, origin_pose(model, s, j0.parent));
  ChainT<T> c;
  compose_chain(model, g, f.q, c);
  const Vec6T<T> V = compound_relative_twist_t(model, s, g, f.point);
  const Vec6T<T>& W = f.coord_wrench[joint - g.first];
  const Vec3T<T> w_p = j0.parent >= 0 ? s.w[j0.parent] : Vec3T<T>(Vec3T<T>::Zero());
  const Vec3T<T> p_dot = s.v[j0.body] + s.w[j0.body].cross(f.point - s.x[j0.body]);
  Vec3T<T> axis[kMaxCompoundJoints], anchor[kMaxCompoundJoints];
  T rate[kMaxCompoundJoints];
  // Velocity of a point carried by the frame of joint j (the parent's motion
  // and the joints before j).
  const auto carried = [&](const Vec3T<T>& r, int j) {
    Vec3T<T> u = j0.parent >= 0 ? Vec3T<T>(s.v[j0.parent] + w_p.cross(r - s.x[j0.parent])) : Vec3T<T>(Vec3T<T>::Zero());
    for (int i = 0; i < j; ++i)
      u += rate[i] * (model.joints[g.first + i].type == JointType::Hinge ? Vec3T<T>(axis[i].cross(r - anchor[i])) : axis[i]);
    return u;
  };
  Vec3T<T> omega = w_p;  // angular velocity of the frame carrying joint j
  T drift = T(0);
  for (int j = 0; j < g.count; ++j) {
    rate[j] = pair<T>(f.coord_wrench[j], V);
    axis[j] = ref.q * c.axis[j];
    const Vec3T<T> axis_dot = omega.cross(axis[j]);
    Vec6T<T> t_dot;
    if (model.joints[g.first + j].type == JointType::Hinge) {
      anchor[j] = ref.origin + ref.q * c.anchor[j];
      const Vec3T<T> anchor_dot = carried(anchor[j], j);
      t_dot = stack<T>(axis_dot, axis_dot.cross(f.point - anchor[j]) + axis[j].cross(p_dot - anchor_dot));
      omega += rate[j] * axis[j];
    } else {
      anchor[j] = Vec3T<T>::Zero();
      t_dot = stack<T>(Vec3T<T>::Zero(), axis_dot);
    }
    drift -= rate[j] * pair<T>(W, t_dot);
  }
  // The relative twist V at the moving point p from the bodies' centre-of-mass
  // velocities, which the rows hold: at fixed (v, w) it changes by
  // w_c x (p' - v_c) - w_p x (p' - v_p) in its linear part.
  Vec3T<T> v_dot = s.w[j0.body].cross(p_dot - s.v[j0.body]);
  if (j0.parent >= 0) v_dot -= w_p.cross(p_dot - s.v[j0.parent]);
  drift += pair<T>(W, stack<T>(Vec3T<T>::Zero(), v_dot));
  return drift;
}

void compound_forward(const Model& model, JointGroup g, const std::vector<Real>& qpos, const std::vector<Real>& qvel,
                      const Vec3& o_p, const Quat& q_p, const Vec3& v_p, const Vec3& w_p, Vec3& o, Quat& q, Vec3& v,
                      Vec3& w) {
  Real coords[kMaxCompoundJoints];
  for (int i = 0; i < g.count; ++i) coords[i] = qpos[model.joints[g.first + i].qpos_adr];
  ChainT<Real> c;
  compose_chain(model, g, coords, c);
  Pose<Real> parent;
  parent.origin = o_p;
  parent.q = q_p;
  const Pose<Real> ref = reference_frame(model, g, parent);
  q = ref.q * c.R;
  o = ref.origin + ref.q * c.t;
  w = w_p;
  v = v_p + w_p.cross(o - o_p);
  for (int i = 0; i < g.count; ++i) {
    const Joint& j = model.joints[g.first + i];
    const Real rate = qvel[j.qvel_adr];
    const Vec3 axis_W = ref.q * c.axis[i];
    if (j.type == JointType::Hinge) {
      w += rate * axis_W;
      v += rate * axis_W.cross(o - (ref.origin + ref.q * c.anchor[i]));
    } else {
      v += rate * axis_W;
    }
  }
}

#define CONTACTLAB_COMPOUND_INSTANTIATE(T)                                                                       \
  template void compound_frame_t<T>(const Model&, const BodyStatesT<T>&, JointGroup, CompoundFrameT<T>&);       \
  template Vec6T<T> compound_relative_twist_t<T>(const Model&, const BodyStatesT<T>&, JointGroup, const Vec3T<T>&); \
  template T compound_joint_position_t<T>(const Model&, const BodyStatesT<T>&, int);                             \
  template T compound_joint_velocity_t<T>(const Model&, const BodyStatesT<T>&, int);                             \
  template T compound_basis_drift_t<T>(const Model&, const BodyStatesT<T>&, int);
CONTACTLAB_COMPOUND_INSTANTIATE(Real)
CONTACTLAB_COMPOUND_INSTANTIATE(Dual)
#undef CONTACTLAB_COMPOUND_INSTANTIATE

}  // namespace contactlab
