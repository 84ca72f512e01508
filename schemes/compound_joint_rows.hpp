// Constraint rows and actuator forces of a compound joint (several hinge/slide
// joints in one body, core/compound_joint.hpp), for schemes/assembly.cpp.
#pragma once

#include <vector>

#include "core/compound_joint.hpp"
#include "core/constraint_problem.hpp"

namespace contactlab {

// The 6 - k lock rows of the group into rows[0 .. 6 - k): each the relative
// twist paired with a wrench orthogonal to every joint twist, bias
// alpha_h * (wrench . pose error) (the pose error of the child against F0 M(q),
// q read from the pose). body_a / body_b: the parent and child as the problem
// sees them (-1 = world or fixed). Returns the largest error component (rad or m).
template <class T>
Real compound_lock_rows_t(const Model& model, const BodyStatesT<T>& s, JointGroup group, int body_a, int body_b,
                          Real alpha_h, ConstraintRowT<T>* rows, T* bias);

// The row whose value is sign * d/dt q_i for one joint of a compound (its
// servo, damping, armature and limit rows).
template <class T>
void compound_coordinate_row_t(const Model& model, const BodyStatesT<T>& s, int joint, int body_a, int body_b,
                               Real sign, ConstraintRowT<T>& row);

// A generalised force `tau` on one joint's coordinate as body wrenches
// (force, torque about the com; world) added to wrench (6 nb): child +, parent -.
template <class T>
void add_compound_joint_force_t(const Model& model, const BodyStatesT<T>& s, int joint, const T& tau,
                                std::vector<T>& wrench);

}  // namespace contactlab
