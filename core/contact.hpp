// A contact point produced by the narrow phase.
// Convention: the normal n_W points from geom1 (body1) towards geom2 (body2);
// gap < 0 means penetration. (n, t1, t2) is a right-handed orthonormal frame.
#pragma once

#include "core/math.hpp"

namespace contactlab {

// Over any scalar T (Contact: T = Real; dual numbers in the exact pull-back).
template <class T>
struct ContactT {
  int geom1 = -1, geom2 = -1;           // geom ids
  int body1 = -1, body2 = -1;           // body ids, -1 = world
  Vec3T<T> point_W = Vec3T<T>::Zero();  // contact point (midway between the two surfaces), world frame
  Vec3T<T> normal_W = Vec3T<T>::UnitZ();
  Vec3T<T> tangent1_W = Vec3T<T>::UnitX();
  Vec3T<T> tangent2_W = Vec3T<T>::UnitY();
  T gap = T(0);                         // signed distance along the normal, m
  T friction = T(0);                    // combined: the larger of the two geoms' (as MuJoCo)
};
using Contact = ContactT<Real>;

}  // namespace contactlab
