// Shapes against a plane. The plane is its geom's local z = 0 with normal +z;
// everything below it counts as penetration (one-sided, it never moves).
// Each routine reduces the shape to points s with a signed height
// d = n . (s - origin): the gap is d and the contact point is s - d/2 n,
// midway between s and its projection on the plane.
#include <cmath>
#include <utility>

#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

namespace {

// Contact of a surface point of the shape with the plane.
template <class T>
int emit_plane_point(const PairContextT<T>& ctx, const GeomPoseT<T>& plane, const Vec3T<T>& s_W) {
  const Vec3T<T> n_W = plane.R_WG.col(2);
  const T d = n_W.dot(s_W - plane.pos_W);
  return emit(ctx, Vec3T<T>(s_W - T(0.5) * d * n_W), n_W, d);
}

}  // namespace

template <class T>
int collide_plane_sphere(const Geom&, const GeomPoseT<T>& pp, const Geom& sph, const GeomPoseT<T>& ps,
                         const PairContextT<T>& ctx) {
  const Vec3T<T> n_W = pp.R_WG.col(2);
  return emit_plane_point(ctx, pp, Vec3T<T>(ps.pos_W - T(sph.size.x()) * n_W));
}

template <class T>
int collide_plane_capsule(const Geom&, const GeomPoseT<T>& pp, const Geom& cap, const GeomPoseT<T>& pc,
                          const PairContextT<T>& ctx) {
  // Both end spheres: a capsule lying on the plane gets two points and rests.
  const Vec3T<T> n_W = pp.R_WG.col(2);
  const T r = T(cap.size.x());
  const SegmentT<T> seg = axis_segment(pc, cap.size.y());
  int count = emit_plane_point(ctx, pp, Vec3T<T>(seg.at(T(0)) - r * n_W));
  count += emit_plane_point(ctx, pp, Vec3T<T>(seg.at(T(1)) - r * n_W));
  return count;
}

template <class T>
int collide_plane_box(const Geom&, const GeomPoseT<T>& pp, const Geom& box, const GeomPoseT<T>& pb,
                      const PairContextT<T>& ctx) {
  // Every corner below the margin. Only a margin larger than the box can catch
  // more than the four of one face; then the four deepest are kept.
  const Vec3T<T> n_W = pp.R_WG.col(2);
  Vec3T<T> corner_W[8];  // (8) box corners, world frame
  T height[8];           // (8) signed height above the plane
  int idx[8];            // (n) corners below the margin
  int n = 0;
  for (int k = 0; k < 8; ++k) {
    const Vec3 local((k & 1) ? box.size.x() : -box.size.x(), (k & 2) ? box.size.y() : -box.size.y(),
                     (k & 4) ? box.size.z() : -box.size.z());
    corner_W[k] = pb.pos_W + pb.R_WG * local.template cast<T>();
    height[k] = n_W.dot(corner_W[k] - pp.pos_W);
    if (height[k] < T(ctx.margin)) idx[n++] = k;
  }
  // Insertion sort by height, deepest first (n <= 8).
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && height[idx[j]] < height[idx[j - 1]]; --j) std::swap(idx[j], idx[j - 1]);
  int count = 0;
  for (int i = 0; i < n && i < 4; ++i) count += emit_plane_point(ctx, pp, corner_W[idx[i]]);
  return count;
}

template <class T>
int collide_plane_cylinder(const Geom&, const GeomPoseT<T>& pp, const Geom& cyl, const GeomPoseT<T>& py,
                           const PairContextT<T>& ctx) {
  // Per cap, the rim point furthest along -n (the lowest). The lower cap also
  // contributes its rim points a quarter, a half and three quarters of a turn
  // from the lowest: they are far above it for a tilted or lying cylinder
  // (rejected by the margin) and level with it for a standing one, which so
  // gets four spread points and rests on its cap. The set changes smoothly as
  // a standing cylinder tilts: the extra points rise by r sin(tilt).
  const Vec3T<T> n_W = pp.R_WG.col(2);
  const Vec3T<T> axis_W = py.R_WG.col(2);
  const T r = T(cyl.size.x()), h = T(cyl.size.y());
  const T an = axis_W.dot(n_W);
  Vec3T<T> u_W = -(n_W - an * axis_W);  // in the cap plane, pointing most downwards
  const T ulen = u_W.norm();
  // Near-standing (tilt below ~1e-3 rad): the lowest direction is ill
  // conditioned and all rim points are equally low; use the geom's own x axis.
  u_W = ulen > T(1e-3) ? Vec3T<T>(u_W / ulen) : Vec3T<T>(py.R_WG.col(0));
  const Vec3T<T> v_W = axis_W.cross(u_W);
  const T lower_sign = T(an > T(0) ? -1 : 1);  // which cap is lower: -h end when the axis points up
  const Vec3T<T> lower_W = py.pos_W + lower_sign * h * axis_W;
  const Vec3T<T> upper_W = py.pos_W - lower_sign * h * axis_W;
  // A margin larger than the radius could admit all five; keep the best four.
  const Vec3T<T> rim_W[5] = {lower_W + r * u_W, upper_W + r * u_W, lower_W + r * v_W, lower_W - r * u_W,
                             lower_W - r * v_W};  // (5) candidate rim points, world frame
  CandidateSetT<T> set;
  for (const Vec3T<T>& s_W : rim_W) {
    const T d = n_W.dot(s_W - pp.pos_W);
    set.add(Vec3T<T>(s_W - T(0.5) * d * n_W), n_W, d, ctx.margin);
  }
  return emit_reduced(ctx, set, 4);
}

#define CONTACTLAB_PLANE_INSTANCES(T)                                                                          \
  template int collide_plane_sphere<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,        \
                                       const PairContextT<T>&);                                                   \
  template int collide_plane_capsule<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,       \
                                        const PairContextT<T>&);                                                  \
  template int collide_plane_box<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,           \
                                    const PairContextT<T>&);                                                      \
  template int collide_plane_cylinder<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,      \
                                         const PairContextT<T>&);
CONTACTLAB_PLANE_INSTANCES(Real)
CONTACTLAB_PLANE_INSTANCES(Dual)
#undef CONTACTLAB_PLANE_INSTANCES

}  // namespace collision_detail
}  // namespace contactlab
