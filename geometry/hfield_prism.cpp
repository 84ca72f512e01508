#include "geometry/hfield_prism.hpp"

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace collision_detail {

HFieldPrism::HFieldPrism() {
  hull_.vertices.assign(6, Vec3::Zero());
  hull_.face_normals.assign(5, Vec3::UnitZ());
  hull_.face_offsets.assign(5, 0);
  // Loops counter-clockwise about each outward normal: the triangle as given,
  // the floor reversed, each wall (b, a, a', b') for its edge a -> b.
  hull_.face_begin = {0, 3, 6, 10, 14, 18};
  hull_.face_loop = {0, 1, 2, 3, 5, 4, 1, 0, 3, 4, 2, 1, 4, 5, 0, 2, 5, 3};
  hull_.edges = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}};
  hull_.edge_dir = {0, 1, 2, 3, 4, 5, 6, 6, 6};
  hull_.edge_dirs.assign(7, Vec3::UnitZ());
  hull_.max_face_vertices = 4;
}

void HFieldPrism::set(const HeightField& h, int row, int col, int tri) {
  const Vec3 a = h.vertex(row, col), b = h.vertex(row + 1, col + 1);
  const Vec3 c = tri == 0 ? h.vertex(row + 1, col) : h.vertex(row, col + 1);
  // Counter-clockwise about +z: (i, j), (i+1, j+1), (i, j+1) and (i, j), (i+1, j), (i+1, j+1).
  Vec3* v = hull_.vertices.data();
  if (tri == 0) {
    v[0] = a, v[1] = b, v[2] = c;
  } else {
    v[0] = a, v[1] = c, v[2] = b;
  }
  const Real floor_z = -std::max(h.base, kMinPrismDepth);
  for (int k = 0; k < 3; ++k) v[k + 3] = Vec3(v[k].x(), v[k].y(), floor_z);
  top_z_ = std::max({v[0].z(), v[1].z(), v[2].z()});
  low_z_ = std::min({v[0].z(), v[1].z(), v[2].z()});

  const Vec3 up = (v[1] - v[0]).cross(v[2] - v[0]).normalized();
  hull_.face_normals[0] = up;
  hull_.face_offsets[0] = up.dot(v[0]);
  hull_.face_normals[1] = -Vec3::UnitZ();
  hull_.face_offsets[1] = -floor_z;
  for (int e = 0; e < 3; ++e) {
    const Vec3& p = v[e];
    const Vec3& q = v[(e + 1) % 3];
    const Vec3 out = (q - p).cross(Vec3::UnitZ()).normalized();  // right of a counter-clockwise edge
    hull_.face_normals[2 + e] = out;
    hull_.face_offsets[2 + e] = out.dot(p);
    hull_.edge_dirs[e] = (q - p).normalized();
    hull_.edge_dirs[3 + e] = Vec3(q.x() - p.x(), q.y() - p.y(), 0).normalized();
  }
  Real r2 = 0;
  for (const Vec3& p : hull_.vertices) r2 = std::max(r2, p.squaredNorm());
  hull_.bounding_radius = std::sqrt(r2);
}

}  // namespace collision_detail
}  // namespace contactlab
