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

template <class T>
int collide_sphere_sphere(const Geom& s1, const GeomPoseT<T>& p1, const Geom& s2, const GeomPoseT<T>& p2,
                          const PairContextT<T>& ctx) {
  return emit_balls(ctx, p1.pos_W, s1.size.x(), p2.pos_W, s2.size.x());
}

template <class T>
int collide_sphere_capsule(const Geom& sph, const GeomPoseT<T>& ps, const Geom& cap, const GeomPoseT<T>& pc,
                           const PairContextT<T>& ctx) {
  const SegmentT<T> seg = axis_segment(pc, cap.size.y());
  return emit_balls(ctx, ps.pos_W, sph.size.x(), Vec3T<T>(seg.at(closest_param(seg, ps.pos_W))), cap.size.x());
}

template <class T>
int collide_capsule_capsule(const Geom& c1, const GeomPoseT<T>& p1, const Geom& c2, const GeomPoseT<T>& p2,
                            const PairContextT<T>& ctx) {
  const Real r1 = c1.size.x(), r2 = c2.size.x();
  const SegmentT<T> s1 = axis_segment(p1, c1.size.y());
  const SegmentT<T> s2 = axis_segment(p2, c2.size.y());
  const T len1 = s1.d_W.norm();
  if (len1 > T(kTinyLength) && s2.d_W.norm() > T(kTinyLength) && parallel_sin2(s1, s2) < T(kParallelSin2)) {
    // Overlap of segment 2 projected on segment 1, in s1's parameter.
    const T u0 = clamp01(T(s1.d_W.dot(s2.at(T(0)) - s1.p0_W) / (len1 * len1)));
    const T u1 = clamp01(T(s1.d_W.dot(s2.at(T(1)) - s1.p0_W) / (len1 * len1)));
    const T lo = std::min(u0, u1), hi = std::max(u0, u1);
    if ((hi - lo) * len1 > T(kMinSpread)) {
      // Lying on each other: one point per end of the shared interval, so the
      // pair resists rolling about the normal's perpendicular.
      const Vec3T<T> a_lo = s1.at(lo), a_hi = s1.at(hi);
      const Vec3T<T> b_lo = s2.at(closest_param(s2, a_lo)), b_hi = s2.at(closest_param(s2, a_hi));
      // Emit both only if both are in range; otherwise the single closest pair below.
      if ((b_lo - a_lo).norm() - T(r1) - T(r2) < T(ctx.margin) && (b_hi - a_hi).norm() - T(r1) - T(r2) < T(ctx.margin)) {
        return emit_balls(ctx, a_lo, r1, b_lo, r2) + emit_balls(ctx, a_hi, r1, b_hi, r2);
      }
    }
  }
  T t1 = T(0), t2 = T(0);
  closest_params(s1, s2, t1, t2);
  return emit_balls(ctx, Vec3T<T>(s1.at(t1)), r1, Vec3T<T>(s2.at(t2)), r2);
}

#define CONTACTLAB_ROUND_INSTANCES(T)                                                                          \
  template int collide_sphere_sphere<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,       \
                                        const PairContextT<T>&);                                                  \
  template int collide_sphere_capsule<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,      \
                                         const PairContextT<T>&);                                                 \
  template int collide_capsule_capsule<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,     \
                                          const PairContextT<T>&);
CONTACTLAB_ROUND_INSTANCES(Real)
CONTACTLAB_ROUND_INSTANCES(Dual)
#undef CONTACTLAB_ROUND_INSTANCES

}  // namespace collision_detail
}  // namespace contactlab
