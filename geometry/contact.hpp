// A contact point produced by the narrow phase.
// Convention: the normal n_W points from geom1 (body1) towards geom2 (body2);
// gap < 0 means penetration. (n, t1, t2) is a right-handed orthonormal frame.
#pragma once

#include "core/math.hpp"

namespace contactlab {

struct Contact {
  int geom1 = -1, geom2 = -1;   // geom ids
  int body1 = -1, body2 = -1;   // body ids, -1 = world
  Vec3 point_W = Vec3::Zero();  // contact point (midway between the two surfaces), world frame
  Vec3 normal_W = Vec3::UnitZ();
  Vec3 tangent1_W = Vec3::UnitX();
  Vec3 tangent2_W = Vec3::UnitY();
  Real gap = 0;                 // signed distance along the normal, m
  Real friction = 0;            // combined: the larger of the two geoms' (as MuJoCo)
};

}  // namespace contactlab
