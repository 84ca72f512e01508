// Private to the narrow phase: a convex polytope placed in the world (a mesh
// geom's hull, or a box as the unit cube's hull scaled by its half-extents)
// and the exact queries on it, over the scalar T of the pose.
#pragma once

#include "core/convex_hull.hpp"
#include "geometry/collision_detail.hpp"
#include "geometry/convex_hull.hpp"

namespace contactlab {
namespace collision_detail {

// The cube [-1, 1]^3 as a hull (built once). Its normals are the axes, so a
// per-axis scale keeps them exact: a box is this hull scaled.
const ConvexHull& unit_cube_hull();

template <class T>
struct PolytopeT {
  const ConvexHull* hull = nullptr;
  Vec3 scale = Vec3::Ones();  // per-axis (ones for a mesh; half-extents for a box)
  GeomPoseT<T> pose;
  // A height field's prism (geometry/hfield_prism.hpp): point queries see
  // only its top triangle, face 0 (point_polytope below).
  bool terrain = false;

  int num_vertices() const { return static_cast<int>(hull->vertices.size()); }
  Vec3T<T> vertex_W(int i) const { return pose.pos_W + pose.R_WG * hull->vertices[i].cwiseProduct(scale).template cast<T>(); }
  Vec3T<T> normal_W(int f) const { return pose.R_WG * hull->face_normals[f].template cast<T>(); }
  // World plane offset: normal_W(f) . x = offset on face f.
  T offset_W(int f) const {
    return normal_W(f).dot(pose.pos_W) + T(hull->face_normals[f].dot(hull->face_vertex(f, 0).cwiseProduct(scale)));
  }
  Vec3T<T> face_vertex_W(int f, int k) const { return vertex_W(hull->face_loop[hull->face_begin[f] + k]); }
  Vec3T<T> edge_dir_W(int e) const { return pose.R_WG * hull->edge_dirs[e].template cast<T>(); }
};

template <class T>
PolytopeT<T> mesh_polytope(const Geom& g, const GeomPoseT<T>& pose) {
  return PolytopeT<T>{g.hull.get(), Vec3::Ones(), pose};
}
template <class T>
PolytopeT<T> box_polytope(const Geom& g, const GeomPoseT<T>& pose) {
  return PolytopeT<T>{&unit_cube_hull(), g.size, pose};
}

// Range of the polytope's projection on L.
template <class T>
void project(const PolytopeT<T>& P, const Vec3T<T>& L, T& lo, T& hi) {
  lo = hi = L.dot(P.vertex_W(0));
  for (int i = 1; i < P.num_vertices(); ++i) {
    const T x = L.dot(P.vertex_W(i));
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
}

// Signed distance of p to the solid polytope, with the closest surface point
// and the outward normal there (inside: the face of least penetration).
// `face`: the face the closest point lies in the interior of, or -1 when it
// is on an edge or a vertex.
// A terrain prism's query: the signed height s over the triangle's plane
// for a point in the triangle's column (along its normal), the distance to
// the triangle for a point beside the column above the plane, and s + d for
// one beside it below the plane (d: the in-plane distance from the column),
// which continues the height across the column's side so that the searches
// along a rim or an axis see no jump there. The prism's walls and floor are
// never a nearest feature: they lie under the neighbouring triangles, where
// the terrain is continuous. `face` is 0 in the column, -1 beside it.
template <class T>
PointQueryT<T> point_terrain_triangle(const PolytopeT<T>& P, const DeducedVec3<T>& p_W, int* face) {
  using std::sqrt;
  // The three corners placed once (the rim searches call this a few hundred
  // times per triangle).
  const Vec3T<T> v[3] = {P.face_vertex_W(0, 0), P.face_vertex_W(0, 1), P.face_vertex_W(0, 2)};
  const Vec3T<T> n = P.normal_W(0);
  const T s = n.dot(p_W - v[0]);
  const Vec3T<T> proj = p_W - s * n;
  bool inside = true;
  for (int k = 0; k < 3 && inside; ++k)
    if ((v[(k + 1) % 3] - v[k]).cross(n).dot(proj - v[k]) > T(0)) inside = false;
  PointQueryT<T> q;
  q.normal_W = n;
  q.surface_W = proj;
  if (face) *face = inside ? 0 : -1;
  if (inside) {
    q.dist = s;
    return q;
  }
  // The triangle's point nearest the projection (its rim).
  T best_d2 = T(1e300);
  for (int k = 0; k < 3; ++k) {
    const SegmentT<T> seg{v[k], Vec3T<T>(v[(k + 1) % 3] - v[k])};
    const Vec3T<T> c = seg.at(closest_param(seg, proj));
    const T d2 = (proj - c).squaredNorm();
    if (d2 < best_d2) best_d2 = d2, q.surface_W = c;
  }
  const T d = sqrt(best_d2);
  if (s < T(0)) {
    q.dist = s + d;
    return q;
  }
  q.dist = sqrt(best_d2 + s * s);
  if (q.dist > T(kTinyLength)) q.normal_W = (p_W - q.surface_W) / q.dist;
  return q;
}

template <class T>
PointQueryT<T> point_polytope(const PolytopeT<T>& P, const DeducedVec3<T>& p_W, int* face = nullptr) {
  using std::sqrt;
  if (P.terrain) return point_terrain_triangle(P, p_W, face);
  const int nf = P.hull->num_faces();
  T best = T(-1e300);
  int fbest = 0;
  for (int f = 0; f < nf; ++f) {
    const T s = P.normal_W(f).dot(p_W) - P.offset_W(f);
    if (s > best) best = s, fbest = f;
  }
  PointQueryT<T> q;
  if (!(best > T(0))) {  // inside (or on the surface): leave through the nearest face
    q.dist = best;
    q.normal_W = P.normal_W(fbest);
    q.surface_W = p_W - best * q.normal_W;
    if (face) *face = fbest;
    return q;
  }
  // Outside: the closest point lies on a face that p is in front of.
  T best_d2 = T(1e300);
  int where = -1;
  Vec3T<T> closest = p_W;
  for (int f = 0; f < nf; ++f) {
    const Vec3T<T> n = P.normal_W(f);
    const T s = n.dot(p_W) - P.offset_W(f);
    if (!(s > T(0))) continue;
    const Vec3T<T> proj = p_W - s * n;
    const int m = P.hull->face_size(f);
    bool inside = true;
    for (int k = 0; k < m && inside; ++k) {
      const Vec3T<T> a = P.face_vertex_W(f, k), b = P.face_vertex_W(f, (k + 1) % m);
      if ((b - a).cross(n).dot(proj - a) > T(0)) inside = false;
    }
    if (inside) {
      if (s * s < best_d2) best_d2 = s * s, closest = proj, where = f;
      continue;
    }
    for (int k = 0; k < m; ++k) {
      const Vec3T<T> a = P.face_vertex_W(f, k), b = P.face_vertex_W(f, (k + 1) % m);
      const SegmentT<T> seg{a, Vec3T<T>(b - a)};
      const Vec3T<T> c = seg.at(closest_param(seg, p_W));
      const T d2 = (p_W - c).squaredNorm();
      if (d2 < best_d2) best_d2 = d2, closest = c, where = -1;
    }
  }
  const T d = sqrt(best_d2);
  q.dist = d;
  q.surface_W = closest;
  q.normal_W = where >= 0 ? P.normal_W(where)
                          : (d > T(kTinyLength) ? Vec3T<T>((p_W - closest) / d) : P.normal_W(fbest));
  if (face) *face = where;
  return q;
}

// Pair routines on a placed polytope (geometry/collide_hull.cpp,
// collide_convex_cylinder.cpp): the mesh routines call them with the mesh's
// hull, the height field (collide_hfield.cpp) with the prism of a triangle
// (PolytopeT::terrain). Normals point from the first shape (sphere, capsule,
// cylinder, `shape`) into the polytope.
template <class T>
int collide_sphere_polytope(const Geom& sph, const GeomPoseT<T>& ps, const PolytopeT<T>& P, const PairContextT<T>& ctx);
template <class T>
int collide_capsule_polytope(const Geom& cap, const GeomPoseT<T>& pc, const PolytopeT<T>& P,
                             const PairContextT<T>& ctx);
// `shape` against face `face` of `solid` only: the face of `shape` most
// against that face's normal clipped to it (Sutherland-Hodgman), each point
// measured along that normal. No separating-axis choice: a terrain prism's
// walls lie under the neighbouring triangles and must not push sideways.
template <class T>
int collide_polytope_on_face(const PolytopeT<T>& shape, const PolytopeT<T>& solid, int face, const PairContextT<T>& ctx);
// The box-cylinder algorithm (collide_convex_cylinder.cpp) against P. For a
// terrain prism only its triangle's face offers features (its support line,
// the rim samples and the axis point against it), and the reference
// direction is the triangle's normal.
template <class T>
int collide_cylinder_polytope(const Geom& cyl, const GeomPoseT<T>& py, const PolytopeT<T>& P,
                              const PairContextT<T>& ctx);

}  // namespace collision_detail
}  // namespace contactlab
