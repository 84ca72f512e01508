// Sphere and capsule pairs. A capsule is the set of balls centred on its axis
// segment, so every pair reduces to two balls once the closest points of the
// segments are known.
#include <algorithm>
#include <cmath>

#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

namespace {

// Below this squared sine (angle ~0.01 rad) two capsule axes count as
// parallel and the overlap of the segments gives two points. Each of them is
// an exact ball-to-capsule distance, so the threshold only affects stability.
constexpr Real kParallelSin2 = 1e-4;

}  // namespace

int collide_sphere_sphere(const Geom& s1, const GeomPose& p1, const Geom& s2, const GeomPose& p2,
                          const PairContext& ctx) {
  return emit_balls(ctx, p1.pos_W, s1.size.x(), p2.pos_W, s2.size.x());
}

int collide_sphere_capsule(const Geom& sph, const GeomPose& ps, const Geom& cap, const GeomPose& pc,
                           const PairContext& ctx) {
  const Segment seg = axis_segment(pc, cap.size.y());
  return emit_balls(ctx, ps.pos_W, sph.size.x(), seg.at(closest_param(seg, ps.pos_W)), cap.size.x());
}

int collide_capsule_capsule(const Geom& c1, const GeomPose& p1, const Geom& c2, const GeomPose& p2,
                            const PairContext& ctx) {
  const Real r1 = c1.size.x(), r2 = c2.size.x();
  const Segment s1 = axis_segment(p1, c1.size.y());
  const Segment s2 = axis_segment(p2, c2.size.y());
  const Real len1 = s1.d_W.norm();
  if (len1 > kTinyLength && s2.d_W.norm() > kTinyLength && parallel_sin2(s1, s2) < kParallelSin2) {
    // Overlap of segment 2 projected on segment 1, in s1's parameter.
    const Real u0 = clamp01(s1.d_W.dot(s2.at(0) - s1.p0_W) / (len1 * len1));
    const Real u1 = clamp01(s1.d_W.dot(s2.at(1) - s1.p0_W) / (len1 * len1));
    const Real lo = std::min(u0, u1), hi = std::max(u0, u1);
    if ((hi - lo) * len1 > kMinSpread) {
      // Lying on each other: one point per end of the shared interval, so the
      // pair resists rolling about the normal's perpendicular.
      const Vec3 a_lo = s1.at(lo), a_hi = s1.at(hi);
      const Vec3 b_lo = s2.at(closest_param(s2, a_lo)), b_hi = s2.at(closest_param(s2, a_hi));
      // Emit both only if both are in range; otherwise the single closest pair below.
      if ((b_lo - a_lo).norm() - r1 - r2 < ctx.margin && (b_hi - a_hi).norm() - r1 - r2 < ctx.margin) {
        return emit_balls(ctx, a_lo, r1, b_lo, r2) + emit_balls(ctx, a_hi, r1, b_hi, r2);
      }
    }
  }
  Real t1 = 0, t2 = 0;
  closest_params(s1, s2, t1, t2);
  return emit_balls(ctx, s1.at(t1), r1, s2.at(t2), r2);
}

}  // namespace collision_detail
}  // namespace contactlab
