// Private to the narrow phase: the prism of one triangle of a height field
// (core/height_field.hpp) as a ConvexHull, so that the hull routines collide
// with it. The topology is fixed and set once; set() only moves the six
// vertices, so filling a prism allocates nothing.
//   vertices: 0-2 the triangle (counter-clockwise about +z), 3-5 below them
//             at the prism's floor;
//   faces:    0 the triangle (outward normal up), 1 the floor, 2-4 the walls
//             under edges 0-1, 1-2, 2-0;
//   edges:    0-2 the triangle's, 3-5 the floor's, 6-8 the vertical ones.
#pragma once

#include "core/convex_hull.hpp"
#include "core/height_field.hpp"

namespace contactlab {
namespace collision_detail {

// The floor lies at -base, but at least this far (m) below z = 0, so that a
// prism is never flat (MJCF allows base = 0 with zero elevations).
constexpr Real kMinPrismDepth = 1e-3;

class HFieldPrism {
 public:
  HFieldPrism();
  // Triangle `tri` (0: corners (i, j), (i+1, j+1), (i, j+1); 1: (i, j),
  // (i+1, j), (i+1, j+1)) of the cell at row j, column i, in the height
  // field's frame.
  void set(const HeightField& h, int row, int col, int tri);
  const ConvexHull& hull() const { return hull_; }
  // Highest z of the triangle (its lowest and highest, for culling).
  Real top_z() const { return top_z_; }
  Real low_z() const { return low_z_; }

 private:
  ConvexHull hull_;
  Real top_z_ = 0, low_z_ = 0;
};

}  // namespace collision_detail
}  // namespace contactlab
