// Several hinge/slide joints in one body (MJCF), in maximal coordinates.
//
// MuJoCo applies a body's joints one after another, each in the body frame as
// the earlier joints left it: with the reference pose F0 (qpos0) on the parent,
// the child is at F0 M_1(q_1) ... M_k(q_k), M_i a rotation about joint i's axis
// through its anchor (hinge) or a translation along its axis (slide), axis and
// anchor in body coordinates. The joints of one body are consecutive in
// model.joints (the reader's order, MuJoCo's); each keeps its own coordinate,
// limit, damping, armature and actuators. The motion of the child relative to
// the parent is restricted to the span of the k joint twists: 6 - k lock rows.
//
// Supported: up to three hinges (consecutive axes not parallel; with three,
// a middle hinge whose range stays 5 degrees from gimbal lock) and up to three
// slides (axes independent) in any order. Coordinates are read back from the
// relative pose in closed form, so hinge angles are known in (-pi, pi] only,
// and of three hinges' two solutions the one whose middle angle is nearer 0.
#pragma once

#include <string>
#include <vector>

#include "core/kinematics.hpp"

namespace contactlab {

constexpr int kMaxCompoundJoints = 6;  // three hinges and three slides

// The joints of one body: ids first .. first + count - 1.
struct JointGroup {
  int first = -1, count = 0;
};
// The group of `joint`'s body (count 1 for a body with one joint).
JointGroup joint_group(const Model& model, int joint);
inline bool is_compound(const Model& model, int joint) { return joint_group(model, joint).count > 1; }

// Why a group cannot be a compound joint ("" when it can): ball/free joints
// among several, more than three hinges, parallel consecutive hinge axes,
// three hinges that reach gimbal lock, dependent slides.
std::string compound_unsupported(const Model& model, JointGroup group);

// The compound joint at the current state. Twists are (angular; linear at
// `point`), wrenches (force; torque about `point`), all world frame; a wrench
// W acts on a twist V by W . V = f . v + tau . w.
template <class T>
struct CompoundFrameT {
  int count = 0;
  T q[kMaxCompoundJoints];                     // joint coordinates read from the relative pose
  Vec3T<T> point = Vec3T<T>::Zero();            // the child's origin
  Vec6T<T> twist[kMaxCompoundJoints];           // joint i's unit twist at q
  Vec6T<T> coord_wrench[kMaxCompoundJoints];    // coord_wrench[i] . twist[j] = delta_ij, in the twists' span
  Vec6T<T> lock_wrench[6];                      // 6 - count unit wrenches with lock_wrench . twist[j] = 0
  Vec6T<T> error = Vec6T<T>::Zero();            // (rotation vector; displacement of the origin) from F0 M(q) to the child
};
template <class T>
void compound_frame_t(const Model& model, const BodyStatesT<T>& s, JointGroup group, CompoundFrameT<T>& out);

// Relative twist of the child w.r.t. the parent at `point` (angular; linear).
template <class T>
Vec6T<T> compound_relative_twist_t(const Model& model, const BodyStatesT<T>& s, JointGroup group, const Vec3T<T>& point);

// Coordinate and rate of one joint of a compound (joint_position_t / joint_velocity_t).
template <class T>
T compound_joint_position_t(const Model& model, const BodyStatesT<T>& s, int joint);
template <class T>
T compound_joint_velocity_t(const Model& model, const BodyStatesT<T>& s, int joint);

// W_i' . V for joint i of a compound: the rate at which its coordinate rate
// q_i' = W_i . V changes as the joints' twists turn, at fixed relative twist
// V (= -sum_j q_j' W_i . t_j', from W_i . t_j = delta_ij). Rows linearised at
// a step's start miss it; an inertia on q_i (armature) must add it, or a
// compound whose coordinate basis turns (three hinges, oblique hinges) gains
// or loses the armature's momentum.
template <class T>
T compound_basis_drift_t(const Model& model, const BodyStatesT<T>& s, int joint);

// Forward kinematics of a group from qpos/qvel: the child's origin, orientation,
// origin velocity and angular velocity from the parent's.
void compound_forward(const Model& model, JointGroup group, const std::vector<Real>& qpos, const std::vector<Real>& qvel,
                      const Vec3& o_p, const Quat& q_p, const Vec3& v_p, const Vec3& w_p, Vec3& o, Quat& q, Vec3& v,
                      Vec3& w);

}  // namespace contactlab
