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
int emit_plane_point(const PairContext& ctx, const GeomPose& plane, const Vec3& s_W) {
  const Vec3 n_W = plane.R_WG.col(2);
  const Real d = n_W.dot(s_W - plane.pos_W);
  return emit(ctx, s_W - 0.5 * d * n_W, n_W, d);
}

}  // namespace

int collide_plane_sphere(const Geom&, const GeomPose& pp, const Geom& sph, const GeomPose& ps,
                         const PairContext& ctx) {
  const Vec3 n_W = pp.R_WG.col(2);
  return emit_plane_point(ctx, pp, ps.pos_W - sph.size.x() * n_W);
}

int collide_plane_capsule(const Geom&, const GeomPose& pp, const Geom& cap, const GeomPose& pc,
                          const PairContext& ctx) {
  // Both end spheres: a capsule lying on the plane gets two points and rests.
  const Vec3 n_W = pp.R_WG.col(2);
  const Real r = cap.size.x();
  const Segment seg = axis_segment(pc, cap.size.y());
  int count = emit_plane_point(ctx, pp, seg.at(0) - r * n_W);
  count += emit_plane_point(ctx, pp, seg.at(1) - r * n_W);
  return count;
}

int collide_plane_box(const Geom&, const GeomPose& pp, const Geom& box, const GeomPose& pb,
                      const PairContext& ctx) {
  // Every corner below the margin. Only a margin larger than the box can catch
  // more than the four of one face; then the four deepest are kept.
  const Vec3 n_W = pp.R_WG.col(2);
  Vec3 corner_W[8];  // (8) box corners, world frame
  Real height[8];    // (8) signed height above the plane
  int idx[8];        // (n) corners below the margin
  int n = 0;
  for (int k = 0; k < 8; ++k) {
    const Vec3 local((k & 1) ? box.size.x() : -box.size.x(), (k & 2) ? box.size.y() : -box.size.y(),
                     (k & 4) ? box.size.z() : -box.size.z());
    corner_W[k] = pb.pos_W + pb.R_WG * local;
    height[k] = n_W.dot(corner_W[k] - pp.pos_W);
    if (height[k] < ctx.margin) idx[n++] = k;
  }
  // Insertion sort by height, deepest first (n <= 8).
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && height[idx[j]] < height[idx[j - 1]]; --j) std::swap(idx[j], idx[j - 1]);
  int count = 0;
  for (int i = 0; i < n && i < 4; ++i) count += emit_plane_point(ctx, pp, corner_W[idx[i]]);
  return count;
}

int collide_plane_cylinder(const Geom&, const GeomPose& pp, const Geom& cyl, const GeomPose& py,
                           const PairContext& ctx) {
  // Per cap, the rim point furthest along -n (the lowest). The lower cap also
  // contributes its rim points a quarter, a half and three quarters of a turn
  // from the lowest: they are far above it for a tilted or lying cylinder
  // (rejected by the margin) and level with it for a standing one, which so
  // gets four spread points and rests on its cap. The set changes smoothly as
  // a standing cylinder tilts: the extra points rise by r sin(tilt).
  const Vec3 n_W = pp.R_WG.col(2);
  const Vec3 axis_W = py.R_WG.col(2);
  const Real r = cyl.size.x(), h = cyl.size.y();
  const Real an = axis_W.dot(n_W);
  Vec3 u_W = -(n_W - an * axis_W);  // in the cap plane, pointing most downwards
  const Real ulen = u_W.norm();
  // Near-standing (tilt below ~1e-3 rad): the lowest direction is ill
  // conditioned and all rim points are equally low; use the geom's own x axis.
  u_W = ulen > 1e-3 ? Vec3(u_W / ulen) : Vec3(py.R_WG.col(0));
  const Vec3 v_W = axis_W.cross(u_W);
  const Real lower_sign = an > 0 ? -1 : 1;  // which cap is lower: -h end when the axis points up
  const Vec3 lower_W = py.pos_W + lower_sign * h * axis_W;
  const Vec3 upper_W = py.pos_W - lower_sign * h * axis_W;
  // A margin larger than the radius could admit all five; keep the best four.
  const Vec3 rim_W[5] = {lower_W + r * u_W, upper_W + r * u_W, lower_W + r * v_W, lower_W - r * u_W,
                         lower_W - r * v_W};  // (5) candidate rim points, world frame
  CandidateSet set;
  for (const Vec3& s_W : rim_W) {
    const Real d = n_W.dot(s_W - pp.pos_W);
    set.add(s_W - 0.5 * d * n_W, n_W, d, ctx.margin);
  }
  return emit_reduced(ctx, set, 4);
}

}  // namespace collision_detail
}  // namespace contactlab
