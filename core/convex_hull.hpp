// A convex polytope in a geom's frame: the collision shape of a mesh geom
// (MuJoCo collides meshes as their convex hulls). Plain data, built once at
// load by geometry/convex_hull.hpp (qhull) and shared, immutable, by every
// copy of the Model.
#pragma once

#include <array>
#include <vector>

#include "core/math.hpp"

namespace contactlab {

struct ConvexHull {
  std::vector<Vec3> vertices;                // hull vertices only (interior points dropped), geom frame, m
  // Faces are planes n . x = offset with outward unit normals; each one's
  // vertex loop is counter-clockwise about its normal. Coplanar facets are
  // merged, so a cube has six quadrilateral faces.
  std::vector<Vec3> face_normals;
  std::vector<Real> face_offsets;            // m
  std::vector<int> face_begin;               // face f's loop: face_loop[face_begin[f] .. face_begin[f+1])
  std::vector<int> face_loop;                // vertex ids
  std::vector<std::array<int, 2>> edges;     // each undirected edge once
  std::vector<int> edge_dir;                 // per edge: its direction in edge_dirs
  std::vector<Vec3> edge_dirs;               // unit, one per class of parallel edges (sign arbitrary)
  Real bounding_radius = 0;                  // max |vertex|: the hull lies in this ball about the geom origin, m
  int max_face_vertices = 0;                 // longest loop (sizes the clipping buffers)

  int num_faces() const { return static_cast<int>(face_normals.size()); }
  int face_size(int f) const { return face_begin[f + 1] - face_begin[f]; }
  const Vec3& face_vertex(int f, int k) const { return vertices[face_loop[face_begin[f] + k]]; }
};

}  // namespace contactlab
