// Convex hull of a point set (qhull, the reentrant C library libqhull_r, as
// MuJoCo uses): the collision shape of a mesh geom. Built once at load.
#pragma once

#include <string>
#include <vector>

#include "core/convex_hull.hpp"

namespace contactlab {

// Faces with more vertices than this are refused (the clipping buffers of
// the narrow phase are fixed-size, so the step allocates nothing).
constexpr int kMaxHullFaceVertices = 128;

// The hull of `points` (coordinates in the geom frame). Refuses, with an
// std::invalid_argument naming `label` (the mesh and its file), a set with a
// non-finite coordinate, fewer than 4 points, all points on a line or in a
// plane (no volume), or a face longer than kMaxHullFaceVertices.
ConvexHull build_convex_hull(const std::vector<Vec3>& points, const std::string& label);

// The same hull's points moved: p -> R p + t (R a rotation). The mesh
// re-centring applies it to an already built hull so the topology is kept.
ConvexHull transformed_hull(const ConvexHull& hull, const Mat3& R, const Vec3& t);

}  // namespace contactlab
