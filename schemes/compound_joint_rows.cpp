#include "schemes/compound_joint_rows.hpp"

#include <algorithm>
#include <cmath>

namespace contactlab {

namespace {

// The row pairing a wrench (f; tau about `point`) with the relative twist:
// on body b, f . v_b + ((point - x_b) x f + tau) . w_b.
template <class T>
void wrench_row(const BodyStatesT<T>& s, int body_a, int body_b, const Vec3T<T>& point, const Vec6T<T>& wrench,
                ConstraintRowT<T>& row) {
  const Vec3T<T> f = wrench.template head<3>(), tau = wrench.template tail<3>();
  row.body_a = body_a;
  row.body_b = body_b;
  row.J_a.setZero();
  row.J_b.setZero();
  if (body_b >= 0) row.J_b << f, (point - s.x[body_b]).cross(f) + tau;
  if (body_a >= 0) row.J_a << -f, -((point - s.x[body_a]).cross(f) + tau);
}

}  // namespace

template <class T>
Real compound_lock_rows_t(const Model& model, const BodyStatesT<T>& s, JointGroup group, int body_a, int body_b,
                          Real alpha_h, ConstraintRowT<T>* rows, T* bias) {
  CompoundFrameT<T> f;
  compound_frame_t(model, s, group, f);
  for (int r = 0; r < 6 - group.count; ++r) {
    wrench_row(s, body_a, body_b, f.point, f.lock_wrench[r], rows[r]);
    const Vec6T<T>& W = f.lock_wrench[r];
    bias[r] = T(alpha_h) * (W.template head<3>().dot(f.error.template tail<3>()) +
                            W.template tail<3>().dot(f.error.template head<3>()));
  }
  return value_of(f.error.cwiseAbs().maxCoeff());
}

template <class T>
void compound_coordinate_row_t(const Model& model, const BodyStatesT<T>& s, int joint, int body_a, int body_b,
                               Real sign, ConstraintRowT<T>& row) {
  const JointGroup group = joint_group(model, joint);
  CompoundFrameT<T> f;
  compound_frame_t(model, s, group, f);
  wrench_row<T>(s, body_a, body_b, f.point, T(sign) * f.coord_wrench[joint - group.first], row);
}

template <class T>
void add_compound_joint_force_t(const Model& model, const BodyStatesT<T>& s, int joint, const T& tau,
                                std::vector<T>& wrench) {
  const JointGroup group = joint_group(model, joint);
  CompoundFrameT<T> f;
  compound_frame_t(model, s, group, f);
  // The dual basis wrench does work tau on q_i and none on the other joints.
  const Vec6T<T> W = tau * f.coord_wrench[joint - group.first];
  const Vec3T<T> force = W.template head<3>(), torque = W.template tail<3>();
  const Joint& j = model.joints[joint];
  auto apply = [&](int b, const T& sign) {
    if (b < 0) return;
    Eigen::Map<Vec3T<T>>(&wrench[6 * b]) += sign * force;
    Eigen::Map<Vec3T<T>>(&wrench[6 * b + 3]) += sign * ((f.point - s.x[b]).cross(force) + torque);
  };
  apply(j.body, T(1));
  apply(j.parent, T(-1));
}

#define CONTACTLAB_COMPOUND_ROWS_INSTANTIATE(T)                                                                   \
  template Real compound_lock_rows_t<T>(const Model&, const BodyStatesT<T>&, JointGroup, int, int, Real,          \
                                        ConstraintRowT<T>*, T*);                                                  \
  template void compound_coordinate_row_t<T>(const Model&, const BodyStatesT<T>&, int, int, int, Real,            \
                                             ConstraintRowT<T>&);                                                 \
  template void add_compound_joint_force_t<T>(const Model&, const BodyStatesT<T>&, int, const T&, std::vector<T>&);
CONTACTLAB_COMPOUND_ROWS_INSTANTIATE(Real)
CONTACTLAB_COMPOUND_ROWS_INSTANTIATE(Dual)
#undef CONTACTLAB_COMPOUND_ROWS_INSTANTIATE

}  // namespace contactlab
