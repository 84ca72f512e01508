// MuJoCo's inertia-box fluid model (option density, viscosity; its model
// when no geom sets fluidshape): each moving body is replaced by the box of
// the same mass and principal inertia, and feels, in its principal axes,
//   viscous (Stokes):  torque -pi d^3 mu w,  force -3 pi d mu v,  d = mean box side
//   quadratic drag:    force_i  -rho/2 b_j b_k |v_i| v_i,
//                      torque_i -rho/64 b_i (b_j^4 + b_k^4) |w_i| w_i
// at its centre of mass, with v, w the centre-of-mass velocity and the angular
// velocity (MuJoCo 2.2's mj_inertiaBoxFluidModel; docs/mjcf.md, "Forces and rows").
// Explicit, like motors: added to the free-motion wrench (schemes/assembly.cpp).
#pragma once

#include <vector>

#include "core/kinematics.hpp"
#include "core/model.hpp"

namespace contactlab {

// The equivalent box's full side lengths along the body's principal axes
// R_BI (columns, body frame) for a mass m and principal moments I:
// b_i = sqrt(6 (I_j + I_k - I_i) / m).
struct FluidBox {
  Vec3 sides = Vec3::Zero();
  Mat3 R_BI = Mat3::Identity();
};
FluidBox fluid_box(const Body& body);

// Adds each moving body's fluid force and torque (world frame) to `wrench`
// (6 per body: force, torque). Nothing when density and viscosity are 0.
template <class T>
void add_fluid_wrenches_t(const Model& model, const BodyStatesT<T>& s, std::vector<T>& wrench);

}  // namespace contactlab
