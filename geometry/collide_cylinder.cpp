// Cylinder pairs. Sphere- and capsule-cylinder use the exact signed distance
// to the solid cylinder. Cylinder-cylinder is feature sampled (see the comment
// on that routine for exactly what is approximated); box- and mesh-cylinder
// are in geometry/collide_convex_cylinder.cpp.
#include <algorithm>
#include <cmath>

#include "geometry/cylinder_features.hpp"

namespace contactlab {
namespace collision_detail {

template <class T>
int collide_sphere_cylinder(const Geom& sph, const GeomPoseT<T>& ps, const Geom& cyl, const GeomPoseT<T>& py,
                            const PairContextT<T>& ctx) {
  const PointQueryT<T> q = point_cylinder(ps.pos_W, py, cyl.size.x(), cyl.size.y());
  return emit_ball_vs_query(ctx, q, ps.pos_W, sph.size.x(), /*shape_first=*/false);
}
template int collide_sphere_cylinder<Real>(const Geom&, const GeomPoseT<Real>&, const Geom&, const GeomPoseT<Real>&,
                                           const PairContextT<Real>&);
template int collide_sphere_cylinder<Dual>(const Geom&, const GeomPoseT<Dual>&, const Geom&, const GeomPoseT<Dual>&,
                                           const PairContextT<Dual>&);

namespace {

// A capsule lying flat on a cap (segment across the axis) or along the side
// (segment parallel to the axis): one contact per end of the part of the
// segment over that feature. 0 unless both ends are within the margin.
template <class T>
int capsule_flat_on_cylinder(const CylFrame<T>& cy, const SegmentT<T>& seg, Real radius, const Vec3T<T>& normal_W,
                             const PairContextT<T>& ctx) {
  using std::abs;
  using std::sqrt;
  const Mat3T<T>& R = cy.R;
  const Vec3T<T> q0 = R.transpose() * (seg.p0_W - cy.c_W);  // segment start, cylinder axes
  const Vec3T<T> dq = R.transpose() * seg.d_W;
  const Vec3T<T> n_local = R.transpose() * normal_W;
  const T len = dq.norm();
  if (len <= T(kTinyLength)) return 0;
  T lo = T(0), hi = T(1);
  Vec3T<T> cap_pt[2], cyl_pt[2], n_out[2];  // (2) capsule point, cylinder point, outward normal; cylinder axes
  T gap[2];
  if (abs(n_local.z()) > T(1 - 1e-6)) {
    // On a cap.
    if (abs(dq.z()) > T(kFlatSin) * len || !clip_to_disc_t(q0, dq, cy.r, lo, hi)) return 0;
    const Real sgn = n_local.z() < T(0) ? -1 : 1;
    for (int k = 0; k < 2; ++k) {
      const Vec3T<T> s = q0 + (k == 0 ? lo : hi) * dq;
      n_out[k] = Vec3T<T>(T(0), T(0), T(sgn));
      gap[k] = T(sgn) * s.z() - T(cy.h + radius);
      cap_pt[k] = s - T(radius) * n_out[k];
      cyl_pt[k] = Vec3T<T>(s.x(), s.y(), T(sgn * cy.h));
    }
  } else if (abs(n_local.z()) < T(1e-6)) {
    // Along the side.
    if (sqrt(dq.x() * dq.x() + dq.y() * dq.y()) > T(kFlatSin) * len ||
        !clip_to_slab(q0.z(), dq.z(), cy.h, lo, hi))
      return 0;
    for (int k = 0; k < 2; ++k) {
      const Vec3T<T> s = q0 + (k == 0 ? lo : hi) * dq;
      const T rho = sqrt(s.x() * s.x() + s.y() * s.y());
      if (rho <= T(kTinyLength)) return 0;
      n_out[k] = Vec3T<T>(s.x() / rho, s.y() / rho, T(0));
      gap[k] = rho - T(cy.r + radius);
      cap_pt[k] = s - T(radius) * n_out[k];
      cyl_pt[k] = Vec3T<T>(n_out[k].x() * T(cy.r), n_out[k].y() * T(cy.r), s.z());
    }
  } else {
    return 0;  // closest feature is the rim
  }
  if ((hi - lo) * len < T(kMinSpread) || !(gap[0] < T(ctx.margin)) || !(gap[1] < T(ctx.margin))) return 0;
  int count = 0;
  for (int k = 0; k < 2; ++k)  // normal from capsule (first) to cylinder: against the outward normal
    count += emit(ctx, Vec3T<T>(cy.c_W + R * (T(0.5) * (cap_pt[k] + cyl_pt[k]))), Vec3T<T>(-(R * n_out[k])), gap[k]);
  return count;
}

}  // namespace

template <class T>
int collide_capsule_cylinder(const Geom& cap, const GeomPoseT<T>& pc, const Geom& cyl, const GeomPoseT<T>& py,
                             const PairContextT<T>& ctx) {
  const CylFrame<T> cy = cyl_frame(cyl, py);
  const Real r = cap.size.x();
  const SegmentT<T> seg = axis_segment(pc, cap.size.y());
  // The closest (or deepest) axis point minimises the convex signed distance.
  const T t = argmin_01_t<T>([&](const T& s) { return point_cylinder<T>(seg.at(s), py, cy.r, cy.h).dist; },
                             2 * cap.size.y());
  const Vec3T<T> c_W = seg.at(t);
  const PointQueryT<T> q = point_cylinder<T>(c_W, py, cy.r, cy.h);
  if (!(q.dist - T(r) < T(ctx.margin))) return 0;
  if (const int n = capsule_flat_on_cylinder(cy, seg, r, q.normal_W, ctx)) return n;
  return emit_ball_vs_query(ctx, q, c_W, r, /*shape_first=*/false);
}

// Cylinder-cylinder. Approximation, by sampled features like box-cylinder:
//  - 8 rim points per cap of each cylinder against the other, plus one per cap
//    refined by a local search (signed distance), as in box-cylinder,
//  - each cylinder's support line towards each cap face of the other, clipped
//    to that cap's disc and measured to its plane (a cylinder lying on
//    another's cap),
//  - side against side from the closest points of the two axes when they fall
//    inside both axial ranges; for parallel axes both ends of the overlap
//    (cylinders lying side by side);
//  - each axis's deepest point inside the other cylinder (a rod through a
//    disc).
// Penetrating samples are measured to the other cylinder's support plane
// along the reference direction (of the two axes and the line between the
// axes, the one of least overlap), as in box-cylinder, with the same
// approximations. At most 4 points are kept.
template <class T>
int collide_cylinder_cylinder(const Geom& c1, const GeomPoseT<T>& p1, const Geom& c2, const GeomPoseT<T>& p2,
                              const PairContextT<T>& ctx) {
  using std::abs;
  const Real margin = ctx.margin;
  const CylFrame<T> A = cyl_frame(c1, p1);
  const CylFrame<T> B = cyl_frame(c2, p2);
  const SegmentT<T> sa = axis_segment(p1, A.h), sb = axis_segment(p2, B.h);
  const Vec3T<T> d_W = B.c_W - A.c_W;
  // Bounding spheres first: most pairs the broad phase passes are apart.
  if (value_of(d_W.norm()) >= std::hypot(A.r, A.h) + std::hypot(B.r, B.h) + margin) return 0;
  // Reference direction (A to B): of the two axes and the line joining the
  // closest axis points, the one of least overlap (separating-axis style).
  auto overlap_along = [&](const Vec3T<T>& L) {
    return T(cylinder_support_radius_t(A.axis_W, A.r, A.h, L) + cylinder_support_radius_t(B.axis_W, B.r, B.h, L) -
             abs(d_W.dot(L)));
  };
  Vec3T<T> ref_W = A.axis_W;
  T best_overlap = overlap_along(ref_W);
  {
    const T ob = overlap_along(B.axis_W);
    if (ob < best_overlap) { best_overlap = ob; ref_W = B.axis_W; }
    // Parallel axes have no unique closest pair: use the perpendicular offset.
    Vec3T<T> join_W = d_W - d_W.dot(A.axis_W) * A.axis_W;
    if (parallel_sin2(sa, sb) >= T(1e-8)) {
      T ta = T(0), tb = T(0);
      closest_params(sa, sb, ta, tb);
      join_W = sb.at(tb) - sa.at(ta);
    }
    if (join_W.norm() > T(kTinyLength)) {
      const Vec3T<T> L = join_W / join_W.norm();
      const T os = overlap_along(L);
      if (os < best_overlap) { best_overlap = os; ref_W = L; }
    }
  }
  // Apart by at least the margin along some axis: no contact.
  if (best_overlap <= T(-margin)) return 0;
  if (ref_W.dot(d_W) < T(0)) ref_W = -ref_W;
  // Support planes along the reference (see slab_query): A's top towards B,
  // B's bottom towards A.
  const T a_top = ref_W.dot(A.c_W) + cylinder_support_radius_t(A.axis_W, A.r, A.h, ref_W);
  const T b_bottom = -ref_W.dot(B.c_W) + cylinder_support_radius_t(B.axis_W, B.r, B.h, ref_W);
  CandidateSetT<T> set;
  // Point of A against B: normal from A to B is against B's outward normal.
  auto add_a_point = [&](const Vec3T<T>& p_W) {
    PointQueryT<T> q = point_cylinder<T>(p_W, B.pose, B.r, B.h);
    if (q.dist < T(0)) q = slab_query_t(p_W, Vec3T<T>(-ref_W), b_bottom);
    set.add(T(0.5) * (p_W + q.surface_W), Vec3T<T>(-q.normal_W), q.dist, margin);
  };
  auto add_b_point = [&](const Vec3T<T>& p_W) {
    PointQueryT<T> q = point_cylinder<T>(p_W, A.pose, A.r, A.h);
    if (q.dist < T(0)) q = slab_query_t(p_W, ref_W, a_top);
    set.add(T(0.5) * (p_W + q.surface_W), q.normal_W, q.dist, margin);
  };

  auto dist_to_b = [&](const Vec3T<T>& p_W) { return point_cylinder<T>(p_W, B.pose, B.r, B.h).dist; };
  auto dist_to_a = [&](const Vec3T<T>& p_W) { return point_cylinder<T>(p_W, A.pose, A.r, A.h).dist; };
  add_rim_points(A, margin, dist_to_b, add_a_point);
  add_rim_points(B, margin, dist_to_a, add_b_point);
  // Support lines of one cylinder clipped to the other's cap discs.
  for (int which = 0; which < 2; ++which) {
    const CylFrame<T>& S = which == 0 ? A : B;  // supplies the line
    const CylFrame<T>& C = which == 0 ? B : A;  // supplies the caps
    for (int cap = 0; cap < 2; ++cap) {
      const Vec3T<T> w_W = T(cap == 0 ? 1 : -1) * C.axis_W;  // outward cap normal of C
      SegmentT<T> line;
      if (!support_line(S, w_W, line)) continue;
      const Vec3T<T> q0 = C.R.transpose() * (line.p0_W - C.c_W);
      const Vec3T<T> dq = C.R.transpose() * line.d_W;
      T lo = T(0), hi = T(1);
      if (!clip_to_disc_t(q0, dq, C.r, lo, hi)) continue;
      // Measured to the cap's plane (the clipped ends lie on the rim, where
      // the signed distance would pick the side).
      for (int e = 0; e < 2; ++e) {
        if (e == 1 && !(hi > lo)) break;
        const Vec3T<T> p_W = line.at(e == 0 ? lo : hi);
        const T height = w_W.dot(p_W - C.c_W);
        if (height < T(0)) continue;  // through C's mid-plane: not this cap's contact
        const T gap = height - T(C.h);
        // Normal from A to B: out of C's cap when C is A, into it when C is B.
        set.add(Vec3T<T>(p_W - T(0.5) * gap * w_W), which == 0 ? Vec3T<T>(-w_W) : w_W, gap, margin);
      }
    }
  }
  // One axis inside the other cylinder (a rod through a disc): nothing else
  // need be inside. Depth: the axis point's, plus the reach of the
  // cross-section along the normal.
  for (int which = 0; which < 2; ++which) {
    const CylFrame<T>& S = which == 0 ? A : B;  // supplies the axis
    const CylFrame<T>& C = which == 0 ? B : A;
    const SegmentT<T>& axis = which == 0 ? sa : sb;
    const T t = argmin_01_t<T>([&](const T& u) { return point_cylinder<T>(axis.at(u), C.pose, C.r, C.h).dist; },
                               2 * S.h);
    const Vec3T<T> c_W = axis.at(t);
    if (!(point_cylinder<T>(c_W, C.pose, C.r, C.h).dist < T(0))) continue;
    const PointQueryT<T> q =
        which == 0 ? slab_query_t(c_W, Vec3T<T>(-ref_W), b_bottom) : slab_query_t(c_W, ref_W, a_top);
    const T reach = cylinder_support_radius_t(S.axis_W, S.r, 0, q.normal_W);
    const Vec3T<T> n_W = which == 0 ? Vec3T<T>(-q.normal_W) : q.normal_W;  // A to B
    set.add(T(0.5) * (q.surface_W + c_W - reach * q.normal_W), n_W, T(q.dist - reach), margin);
  }
  // Side against side: two balls on the axes, valid where the segment joining
  // the axis points is perpendicular to both (inside both axial ranges).
  // Only where the side is the shallower way out: the overlap along either
  // axis must be at least the side depth, else (e.g. coaxial cylinders
  // pressed cap to cap) the axis points say nothing about the contact.
  const T max_side_depth = std::min(overlap_along(A.axis_W), overlap_along(B.axis_W));
  auto add_side = [&](const Vec3T<T>& a_W, const Vec3T<T>& b_W) {
    const Vec3T<T> ab_W = b_W - a_W;
    const T dist = ab_W.norm();
    if (T(A.r + B.r) - dist > max_side_depth) return;
    const Vec3T<T> n_W = dist > T(kTinyLength) ? Vec3T<T>(ab_W / dist) : Vec3T<T>(Vec3T<T>::UnitZ());
    set.add(T(0.5) * ((a_W + T(A.r) * n_W) + (b_W - T(B.r) * n_W)), n_W, T(dist - T(A.r + B.r)), margin);
  };
  const T len_a = sa.d_W.norm();
  if (parallel_sin2(sa, sb) < T(1e-8)) {
    if (len_a > T(kTinyLength)) {
      const T u0 = clamp01(T(sa.d_W.dot(sb.at(T(0)) - sa.p0_W) / (len_a * len_a)));
      const T u1 = clamp01(T(sa.d_W.dot(sb.at(T(1)) - sa.p0_W) / (len_a * len_a)));
      const T lo = std::min(u0, u1), hi = std::max(u0, u1);
      if ((hi - lo) * len_a > T(kMinSpread)) {
        for (const T& u : {lo, hi}) {
          const Vec3T<T> a_W = sa.at(u);
          add_side(a_W, sb.at(closest_param(sb, a_W)));
        }
      }
    }
  } else {
    T ta = T(0), tb = T(0);
    closest_params(sa, sb, ta, tb);
    if (ta > T(0) && ta < T(1) && tb > T(0) && tb < T(1)) add_side(sa.at(ta), sb.at(tb));
  }
  return emit_reduced(ctx, set, 4);
}

#define CONTACTLAB_CYLINDER_INSTANCES(T)                                                                          \
  template int collide_capsule_cylinder<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,   \
                                           const PairContextT<T>&);                                              \
  template int collide_cylinder_cylinder<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,  \
                                            const PairContextT<T>&);
CONTACTLAB_CYLINDER_INSTANCES(Real)
CONTACTLAB_CYLINDER_INSTANCES(Dual)
#undef CONTACTLAB_CYLINDER_INSTANCES

}  // namespace collision_detail
}  // namespace contactlab
