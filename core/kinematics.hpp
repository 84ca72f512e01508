// MJCF generalised coordinates <-> maximal-coordinate state.
//
// set_generalized_state (core/data.hpp) runs forward kinematics; the functions
// here read joint coordinates back from a maximal state. Conventions are
// MuJoCo 2.2's: free qpos = (origin position, quat wxyz), qvel = (origin linear
// velocity in world, angular velocity in body axes); ball qpos = quat of the
// child relative to its reference pose, qvel = relative angular velocity in the
// child's axes; hinge angle (rad) about the axis through the anchor; slide
// displacement (m) along the axis.
#pragma once

#include <vector>

#include "core/data.hpp"
#include "core/dual.hpp"
#include "core/model.hpp"

namespace contactlab {

// The bodies' state as the scalar-templated kernels read it: Data's vectors
// for T = Real (body_states), a perturbed copy in dual numbers for the exact
// pull-back (adjoints/step_problem.hpp).
template <class T>
struct BodyStatesT {
  const std::vector<Vec3T<T>>& x;  // (nb) centre of mass, world
  const std::vector<QuatT<T>>& q;  // (nb) orientation
  const std::vector<Vec3T<T>>& v;  // (nb) centre-of-mass velocity, world
  const std::vector<Vec3T<T>>& w;  // (nb) angular velocity, world
};
inline BodyStatesT<Real> body_states(const Data& d) { return {d.x_W, d.q_WB, d.v_W, d.w_W}; }

// Pose of a geom in the world (geom_world_pose of core/data.hpp) for any scalar.
template <class T>
void geom_world_pose_t(const Model& model, const BodyStatesT<T>& s, int geom, Vec3T<T>& pos_W, Mat3T<T>& R_WG) {
  const Geom& g = model.geoms[geom];
  if (g.body < 0) {
    pos_W = g.pos_B.template cast<T>();
    R_WG = g.quat_BG.toRotationMatrix().template cast<T>();
    return;
  }
  const QuatT<T>& q = s.q[g.body];
  const Vec3T<T> origin = s.x[g.body] - q * model.bodies[g.body].com_B.template cast<T>();
  pos_W = origin + q * g.pos_B.template cast<T>();
  R_WG = (q * g.quat_BG.template cast<T>()).toRotationMatrix();
}

// joint_position / joint_velocity below for any scalar (instantiated for Real and Dual).
template <class T>
T joint_position_t(const Model& model, const BodyStatesT<T>& s, int joint);
template <class T>
T joint_velocity_t(const Model& model, const BodyStatesT<T>& s, int joint);

// qpos at the reference configuration: free joints at their body's pose,
// ball joints at identity, hinge/slide at their ref (MJCF, default 0).  Size model.nq.
std::vector<Real> reference_qpos(const Model& model);

// Hinge angle in (-pi, pi] (angles are only known modulo 2 pi from a pose) or
// slide displacement, from the bodies' relative pose, plus the joint's ref
// (MuJoCo's qpos; a hinge's sum wrapped to (-pi, pi] again). Only the component about
// / along the axis is read, so a violated joint still gives a coordinate.
// Throws std::invalid_argument for other joint types.
Real joint_position(const Model& model, const Data& data, int joint);
// Time derivative of joint_position for the current twists: exact for any
// rigid motion of the two bodies for a slide, and for a hinge whose relative
// rotation is about its axis (otherwise the relative angular velocity along the axis).
Real joint_velocity(const Model& model, const Data& data, int joint);

// Inverse of set_generalized_state (quaternions with w >= 0, hinge angles wrapped
// to (-pi, pi]). qpos/qvel are resized to nq/nv.
void get_generalized_state(const Model& model, const Data& data, std::vector<Real>& qpos, std::vector<Real>& qvel);

// Joint id of each body (-1 for fixed bodies, and for moving bodies a
// programmatic model left without a joint: these keep their reference pose in
// set_generalized_state). Size nb.
std::vector<int> joint_of_body(const Model& model);

}  // namespace contactlab
