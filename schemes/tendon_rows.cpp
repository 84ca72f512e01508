#include "schemes/tendon_rows.hpp"

#include <algorithm>
#include <stdexcept>

namespace contactlab {

namespace {

// The row's slot for `body` (claiming a free one); null for the world.
template <class T>
Vec6T<T>* slot(ConstraintRowT<T>& row, int body) {
  if (body < 0) return nullptr;
  if (row.body_a == body) return &row.J_a;
  if (row.body_b == body) return &row.J_b;
  if (row.body_a < 0) {
    row.body_a = body;
    return &row.J_a;
  }
  if (row.body_b < 0) {
    row.body_b = body;
    return &row.J_b;
  }
  throw std::invalid_argument("a tendon or equality row involves more than two moving bodies");
}

template <class T>
void clear(ConstraintRowT<T>& row) {
  row.body_a = row.body_b = -1;
  row.J_a.setZero();
  row.J_b.setZero();
}

// row += coef * d q_joint / dt, as joint_velocity_t reads it: a hinge's rate is
// (w_c - w_p) . axis; a slide's the anchor's velocity on the child relative to
// the parent point under it, along the parent's axis.
template <class T>
void add_joint_rate(const Model& model, const BodyStatesT<T>& s, int joint, Real coef, ConstraintRowT<T>& row) {
  const Joint& j = model.joints[joint];
  const int c = model.moving_body(j.body), p = model.moving_body(j.parent);
  const QuatT<T> qp = j.parent >= 0 ? s.q[j.parent] : QuatT<T>(QuatT<T>::Identity());
  const Vec3T<T> axis = T(coef) * (qp * j.axis_parent.template cast<T>());
  Vec6T<T> jc, jp;
  if (j.type == JointType::Hinge) {
    jc << Vec3T<T>::Zero(), axis;
    jp << Vec3T<T>::Zero(), -axis;
  } else {
    const Vec3T<T> anchor = s.x[j.body] + s.q[j.body] * (j.anchor_B - model.bodies[j.body].com_B).template cast<T>();
    const Vec3T<T> rc = anchor - s.x[j.body];
    const Vec3T<T> rp = j.parent >= 0 ? Vec3T<T>(anchor - s.x[j.parent]) : Vec3T<T>(Vec3T<T>::Zero());
    jc << axis, rc.cross(axis);
    jp << -axis, -rp.cross(axis);
  }
  if (Vec6T<T>* a = slot(row, c)) *a += jc;
  if (Vec6T<T>* b = slot(row, p)) *b += jp;
}

template <class T>
void add_tendon_rate(const Model& model, const BodyStatesT<T>& s, int tendon, Real scale, ConstraintRowT<T>& row) {
  for (const TendonTerm& t : model.tendons[tendon].terms) add_joint_rate(model, s, t.joint, scale * t.coef, row);
}

template <class T>
T tendon_length(const Model& model, const BodyStatesT<T>& s, int tendon) {
  T length = T(0);
  for (const TendonTerm& t : model.tendons[tendon].terms)
    length += T(t.coef) * joint_position_t<T>(model, s, t.joint);
  return length;
}

}  // namespace

template <class T>
T tendon_length_row(const Model& model, const BodyStatesT<T>& s, int tendon, ConstraintRowT<T>& row) {
  clear(row);
  add_tendon_rate(model, s, tendon, 1.0, row);
  return tendon_length(model, s, tendon);
}

template <class T>
T scalar_equality_row(const Model& model, const BodyStatesT<T>& s, int equality, ConstraintRowT<T>& row) {
  const ScalarEquality& eq = model.scalar_equalities[equality];
  // x and its rate row, scaled, for a joint or a tendon.
  // MuJoCo's polynomial couples the changes from the model's pose (qpos0):
  // x - x0, with x0 a joint's ref, or the tendon's length at qpos0.
  const auto value = [&](int id) {
    if (!eq.tendons) return T(joint_position_t<T>(model, s, id) - T(model.joints[id].ref));
    Real length0 = 0;
    for (const TendonTerm& t : model.tendons[id].terms) length0 += t.coef * model.joints[t.joint].ref;
    return T(tendon_length(model, s, id) - T(length0));
  };
  const auto add_rate = [&](int id, const T& scale, ConstraintRowT<T>& r) {
    ConstraintRowT<T> unit;
    clear(unit);
    if (eq.tendons)
      add_tendon_rate(model, s, id, 1.0, unit);
    else
      add_joint_rate(model, s, id, 1.0, unit);
    if (Vec6T<T>* a = slot(r, unit.body_a)) *a += scale * unit.J_a;
    if (Vec6T<T>* b = slot(r, unit.body_b)) *b += scale * unit.J_b;
  };
  clear(row);
  T c = value(eq.first) - T(eq.polycoef[0]);
  add_rate(eq.first, T(1.0), row);
  if (eq.second >= 0) {
    // poly(x) - c0 = sum_k c_k x^k and its derivative.
    const T x = value(eq.second);
    T p = T(0), dp = T(0), x_km1 = T(1.0);
    for (int k = 1; k <= 4; ++k) {
      dp += T(k * eq.polycoef[k]) * x_km1;
      x_km1 = x_km1 * x;
      p += T(eq.polycoef[k]) * x_km1;
    }
    c -= p;
    add_rate(eq.second, T(-dp), row);
  }
  return c;
}

int tendon_bilateral_rows(const Model& model) {
  int n = static_cast<int>(model.scalar_equalities.size());
  for (const Tendon& t : model.tendons)
    if (t.stiffness > 0 || t.damping > 0) ++n;
  return n;
}

int tendon_limit_rows(const Model& model) {
  int n = 0;
  for (const Tendon& t : model.tendons)
    if (t.limited) n += 2;
  return n;
}

template Real tendon_length_row<Real>(const Model&, const BodyStatesT<Real>&, int, ConstraintRowT<Real>&);
template Dual tendon_length_row<Dual>(const Model&, const BodyStatesT<Dual>&, int, ConstraintRowT<Dual>&);
template Real scalar_equality_row<Real>(const Model&, const BodyStatesT<Real>&, int, ConstraintRowT<Real>&);
template Dual scalar_equality_row<Dual>(const Model&, const BodyStatesT<Dual>&, int, ConstraintRowT<Dual>&);

}  // namespace contactlab
