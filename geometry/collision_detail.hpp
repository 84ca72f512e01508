// Private to the narrow phase: the contact emitter, the distance queries the
// pair routines share, and the pair routines that collision.cpp dispatches to.
// Not part of the library's interface; include only from geometry/*.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/dual.hpp"
#include "geometry/collision.hpp"

namespace contactlab {
namespace collision_detail {

// Below this length a direction is undefined and a fixed one (+z) is used, so
// coincident centres never produce NaN.
constexpr Real kTinyLength = 1e-12;
// Manifold points closer than this (m) to the points (or the edges between
// them) already kept add nothing to stability and are dropped by the
// reduction. Well above the precision of the 1D searches (~1e-9 m).
constexpr Real kMinSpread = 1e-5;
// ... and a point standing off the line of two kept points by less than this
// fraction of their distance (a sliver triangle).
constexpr Real kMinSliver = 1e-2;
// Sine of the angle under which a segment counts as parallel to a face or an
// axis for the two-point "lying flat" manifolds. Every point emitted on that
// path still carries its own exact gap, so the tolerance only decides when a
// second point appears, not how accurate it is.
constexpr Real kFlatSin = 0.05;
// The separating-axis tests' preference for face axes over edge axes (and
// for the first shape's faces over the second's) when separations are nearly
// equal, shared by box-box and hull-hull: switching the reference feature
// between steps makes resting stacks jitter. An edge axis must beat the best
// face by kEdgeBiasAbs (m) plus kEdgeBiasRel of the separation; the second
// shape's face the first's by kFaceBiasAbs plus kFaceBiasRel.
constexpr Real kEdgeBiasAbs = 1e-5;
constexpr Real kEdgeBiasRel = 0.05;
constexpr Real kFaceBiasAbs = 1e-7;
constexpr Real kFaceBiasRel = 1e-3;

// Who the contacts belong to. Pair routines are written for one type order
// (GeomType enum order: first <= second); when the caller passed the pair the
// other way round, `flip` makes emit() negate the normal so geom1 stays the
// caller's `a`. Everything below is over the scalar T of the poses (Real for
// the forward, Dual for the exact pull-back); the closed-form routines are
// instantiated for both, the searching and sampling ones for Real only.
// T deduced from the context or pose arguments only, so that Eigen
// expressions convert at the call (as for the non-template functions before).
template <class T>
using DeducedVec3 = typename NoDeduce<Vec3T<T>>::type;  // a Vec3T<T> whose T comes from elsewhere
template <class T>
using DeducedScalar = typename NoDeduce<T>::type;

template <class T>
struct PairContextT {
  int geom1 = -1, geom2 = -1;
  int body1 = -1, body2 = -1;
  Real friction = 0;
  Real margin = 0;
  bool flip = false;
  std::vector<ContactT<T>>* out = nullptr;
};
using PairContext = PairContextT<Real>;

// Appends one contact when gap < margin. normal_W: unit, from the routine's
// first geom towards its second. point_W: midway between the two surfaces.
template <class T>
int emit(const PairContextT<T>& ctx, const DeducedVec3<T>& point_W, const DeducedVec3<T>& normal_W, const DeducedScalar<T>& gap);

// Contact between two balls (centres, radii); capsule pairs reduce to this
// once the closest points of their segments are known. Normal from a to b.
template <class T>
int emit_balls(const PairContextT<T>& ctx, const DeducedVec3<T>& ca_W, Real ra, const DeducedVec3<T>& cb_W, Real rb);

// Result of a signed-distance query of a point against a solid shape.
template <class T>
struct PointQueryT {
  T dist = T(0);                          // signed distance to the surface, < 0 inside, m
  Vec3T<T> surface_W = Vec3T<T>::Zero();  // closest surface point (inside: on the face of least penetration)
  Vec3T<T> normal_W = Vec3T<T>::UnitZ();  // unit outward normal of the shape at surface_W
};
using PointQuery = PointQueryT<Real>;

// Box with half-extents `half` along the pose's axes.
template <class T>
PointQueryT<T> point_box(const DeducedVec3<T>& p_W, const GeomPoseT<T>& box, const Vec3& half);
// Solid cylinder along the pose's local z: radius, half-length.
template <class T>
PointQueryT<T> point_cylinder(const DeducedVec3<T>& p_W, const GeomPoseT<T>& cyl, Real radius, Real half_len);

// A point that penetrates the other shape in a sampled routine is measured
// against that shape's support plane for the pair's reference direction n
// (unit, out of the other shape towards the point's shape): dist = n . p -
// offset, with offset = the other shape's largest extent along n. Every point
// of a manifold so shares the normal n, and no depth exceeds the overlap
// along n (nearest-face normals would give a sideways normal to a point near
// an edge, and the least-penetration depth can jump between faces).
inline PointQuery slab_query(const Vec3& p_W, const Vec3& n_W, Real offset) {
  PointQuery q;
  q.dist = n_W.dot(p_W) - offset;
  q.surface_W = p_W - q.dist * n_W;
  q.normal_W = n_W;
  return q;
}

// Half-width of a shape's projection on the unit axis L (separating-axis tests).
template <class T>
T box_support_radius(const Mat3T<T>& R_WG, const Vec3& half, const Vec3T<T>& L_W) {
  using std::abs;
  return T(half.x()) * abs(R_WG.col(0).dot(L_W)) + T(half.y()) * abs(R_WG.col(1).dot(L_W)) +
         T(half.z()) * abs(R_WG.col(2).dot(L_W));
}
inline Real cylinder_support_radius(const Vec3& axis_W, Real radius, Real half_len, const Vec3& L_W) {
  const Real al = std::min(Real(1), std::abs(axis_W.dot(L_W)));
  return half_len * al + radius * std::sqrt(1 - al * al);
}

// Contact of a ball (centre, radius) with a shape already queried at that
// centre (q). shape_first: the shape is the routine's first geom (normal from
// shape to ball), else the ball is (normal from ball to shape).
template <class T>
int emit_ball_vs_query(const PairContextT<T>& ctx, const PointQueryT<T>& q, const DeducedVec3<T>& centre_W, Real radius,
                       bool shape_first);

// A capsule's or cylinder's axis as the segment p0 + t d, t in [0, 1].
template <class T>
struct SegmentT {
  Vec3T<T> p0_W = Vec3T<T>::Zero();
  Vec3T<T> d_W = Vec3T<T>::Zero();
  Vec3T<T> at(const T& t) const { return p0_W + t * d_W; }
};
using Segment = SegmentT<Real>;
template <class T>
SegmentT<T> axis_segment(const GeomPoseT<T>& pose, Real half_len) {
  const Vec3T<T> axis_W = pose.R_WG.col(2);
  return SegmentT<T>{pose.pos_W - T(half_len) * axis_W, T(2 * half_len) * axis_W};
}

template <class T>
T clamp01(const T& x) {
  return std::min(T(1), std::max(T(0), x));
}

// Parameter in [0, 1] of the point of segment s closest to p.
template <class T>
T closest_param(const SegmentT<T>& s, const DeducedVec3<T>& p_W);
// Parameters (in [0, 1]) of the closest points of two segments; for parallel
// segments one valid pair (callers that need the overlap handle it themselves).
template <class T>
void closest_params(const SegmentT<T>& s0, const SegmentT<T>& s1, T& t0, T& t1);
// Squared sine of the angle between two segments: 0 when parallel (or when
// either is degenerate, which callers treat the same way).
template <class T>
T parallel_sin2(const SegmentT<T>& s0, const SegmentT<T>& s1);

// Shrinks [lo, hi] to the t where |x0 + t dx| <= half (one slab of a box, in
// local coordinates). Returns false when the range becomes empty.
template <class T>
bool clip_to_slab(const T& x0, const T& dx, Real half, T& lo, T& hi);
// Shrinks [lo, hi] to the t where the local-xy part of q0 + t dq lies within
// `radius` of the z axis (a cylinder's infinite extension). False when empty.
bool clip_to_disc(const Vec3& q0, const Vec3& dq, Real radius, Real& lo, Real& hi);

// Minimiser on [0, 1] of a convex function (golden-section search). The signed
// distance to a convex solid is convex, so along a segment this finds the
// segment point closest to (or deepest in) a box or cylinder.
template <class F>
Real minimize_convex_01(const F& f) {
  const Real g = 0.6180339887498949;  // (sqrt 5 - 1) / 2
  Real lo = 0, hi = 1;
  Real x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  Real f1 = f(x1), f2 = f(x2);
  // 0.618^45 ~ 4e-10 of the segment: far below any contact tolerance.
  for (int it = 0; it < 45; ++it) {
    if (f1 <= f2) {
      hi = x2; x2 = x1; f2 = f1;
      x1 = hi - g * (hi - lo); f1 = f(x1);
    } else {
      lo = x1; x1 = x2; f1 = f2;
      x2 = lo + g * (hi - lo); f2 = f(x2);
    }
  }
  // The search only approaches the ends; take them exactly when they are no
  // worse, so a minimum at an end is reported at the end.
  Real t = 0.5 * (lo + hi), ft = f(t);
  const Real f0 = f(Real(0)), fend = f(Real(1));
  if (f0 <= ft) { t = 0; ft = f0; }
  if (fend <= ft) t = 1;
  return t;
}

// Candidate contacts of the multi-point routines, before reduction.
template <class T>
struct CandidateT {
  Vec3T<T> point_W = Vec3T<T>::Zero();
  Vec3T<T> normal_W = Vec3T<T>::UnitZ();  // from the routine's first geom to its second
  T gap = T(0);
};
// Cap: the capacity (96 for the primitive routines, more for hull faces).
template <class T, int Cap = 96>
struct CandidateSetT {
  static constexpr int kCapacity = Cap;
  CandidateT<T> c[kCapacity];     // (n) fixed storage: no allocation in the step
  int n = 0;
  // Keeps only candidates below the margin; silently drops beyond capacity
  // (the routines generate at most ~80).
  void add(const Vec3T<T>& point_W, const Vec3T<T>& normal_W, const T& gap, Real margin) {
    if (!(gap < T(margin)) || n >= kCapacity) return;
    c[n].point_W = point_W;
    c[n].normal_W = normal_W;
    c[n].gap = gap;
    ++n;
  }
};
using Candidate = CandidateT<Real>;
using CandidateSet = CandidateSetT<Real>;
// Emits at most max_points (<= 4) of the candidates: the deepest, then the
// points that spread the manifold most (farthest, then largest area).
template <class T, int Cap>
int emit_reduced(const PairContextT<T>& ctx, const CandidateSetT<T, Cap>& set, int max_points = 4);

// Pair routines. Argument order is GeomType enum order; the normal points
// from the first geom to the second. Closed form (templated on the scalar):
template <class T>
int collide_plane_sphere(const Geom& plane, const GeomPoseT<T>& pp, const Geom& sph, const GeomPoseT<T>& ps,
                         const PairContextT<T>& ctx);
template <class T>
int collide_plane_box(const Geom& plane, const GeomPoseT<T>& pp, const Geom& box, const GeomPoseT<T>& pb,
                      const PairContextT<T>& ctx);
template <class T>
int collide_plane_capsule(const Geom& plane, const GeomPoseT<T>& pp, const Geom& cap, const GeomPoseT<T>& pc,
                          const PairContextT<T>& ctx);
template <class T>
int collide_plane_cylinder(const Geom& plane, const GeomPoseT<T>& pp, const Geom& cyl, const GeomPoseT<T>& py,
                           const PairContextT<T>& ctx);
template <class T>
int collide_sphere_sphere(const Geom& s1, const GeomPoseT<T>& p1, const Geom& s2, const GeomPoseT<T>& p2,
                          const PairContextT<T>& ctx);
template <class T>
int collide_sphere_capsule(const Geom& sph, const GeomPoseT<T>& ps, const Geom& cap, const GeomPoseT<T>& pc,
                           const PairContextT<T>& ctx);
template <class T>
int collide_capsule_capsule(const Geom& c1, const GeomPoseT<T>& p1, const Geom& c2, const GeomPoseT<T>& p2,
                            const PairContextT<T>& ctx);
template <class T>
int collide_sphere_box(const Geom& sph, const GeomPoseT<T>& ps, const Geom& box, const GeomPoseT<T>& pb,
                       const PairContextT<T>& ctx);
template <class T>
int collide_box_box(const Geom& b1, const GeomPoseT<T>& p1, const Geom& b2, const GeomPoseT<T>& p2,
                    const PairContextT<T>& ctx);
template <class T>
int collide_sphere_cylinder(const Geom& sph, const GeomPoseT<T>& ps, const Geom& cyl, const GeomPoseT<T>& py,
                            const PairContextT<T>& ctx);
// Located by search, made exact and differentiable by argmin_01_t
// (geometry/argmin_pullback.hpp); templated on the scalar too:
template <class T>
int collide_box_capsule(const Geom& box, const GeomPoseT<T>& pb, const Geom& cap, const GeomPoseT<T>& pc,
                        const PairContextT<T>& ctx);
template <class T>
int collide_capsule_cylinder(const Geom& cap, const GeomPoseT<T>& pc, const Geom& cyl, const GeomPoseT<T>& py,
                             const PairContextT<T>& ctx);
template <class T>
int collide_box_cylinder(const Geom& box, const GeomPoseT<T>& pb, const Geom& cyl, const GeomPoseT<T>& py,
                         const PairContextT<T>& ctx);
template <class T>
int collide_cylinder_cylinder(const Geom& c1, const GeomPoseT<T>& p1, const Geom& c2, const GeomPoseT<T>& p2,
                              const PairContextT<T>& ctx);

// Convex hulls (GeomType::Mesh; geometry/collide_hull.cpp), closed form:
template <class T>
int collide_plane_mesh(const Geom& plane, const GeomPoseT<T>& pp, const Geom& mesh, const GeomPoseT<T>& pm,
                       const PairContextT<T>& ctx);
template <class T>
int collide_sphere_mesh(const Geom& sph, const GeomPoseT<T>& ps, const Geom& mesh, const GeomPoseT<T>& pm,
                        const PairContextT<T>& ctx);
template <class T>
int collide_box_mesh(const Geom& box, const GeomPoseT<T>& pb, const Geom& mesh, const GeomPoseT<T>& pm,
                     const PairContextT<T>& ctx);
template <class T>
int collide_capsule_mesh(const Geom& cap, const GeomPoseT<T>& pc, const Geom& mesh, const GeomPoseT<T>& pm,
                         const PairContextT<T>& ctx);
template <class T>
int collide_mesh_mesh(const Geom& m1, const GeomPoseT<T>& p1, const Geom& m2, const GeomPoseT<T>& p2,
                      const PairContextT<T>& ctx);
// Height fields (geometry/collide_hfield.cpp), any moving shape first:
template <class T>
int collide_geom_hfield(const Geom& shape, const GeomPoseT<T>& ps, const Geom& hf, const GeomPoseT<T>& ph,
                        const PairContextT<T>& ctx);
// Feature sampled as box-cylinder (geometry/collide_convex_cylinder.cpp):
template <class T>
int collide_cylinder_mesh(const Geom& cyl, const GeomPoseT<T>& py, const Geom& mesh, const GeomPoseT<T>& pm,
                          const PairContextT<T>& ctx);

}  // namespace collision_detail
}  // namespace contactlab
