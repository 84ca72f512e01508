// Cylinder pairs. Sphere- and capsule-cylinder use the exact signed distance
// to the solid cylinder. Box- and cylinder-cylinder are feature sampled (see
// the comments on those routines for exactly what is approximated).
#include <algorithm>
#include <cmath>

#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

namespace {

constexpr int kRimSamples = 8;  // points per cap rim in the sampled routines

struct CylFrame {
  Vec3 c_W;       // centre
  Vec3 axis_W;    // local z in world
  Mat3 R;         // axes (columns), world
  Real r, h;      // radius, half-length
  GeomPose pose;
};

CylFrame cyl_frame(const Geom& g, const GeomPose& p) {
  return CylFrame{p.pos_W, p.R_WG.col(2), p.R_WG, g.size.x(), g.size.y(), p};
}

// Point of the cap rim (cap = +1 or -1) at angle theta in the geom's xy axes.
Vec3 rim_sample(const CylFrame& c, Real cap, Real theta) {
  return c.c_W + cap * c.h * c.axis_W + c.r * (std::cos(theta) * c.R.col(0) + std::sin(theta) * c.R.col(1));
}

// Feeds `add` the kRimSamples points of each cap rim and, per cap, the rim
// point found by a golden-section search of `dist` (signed distance to the
// other shape) over the arc between the neighbours of the best sample: a rim
// crossing an edge or a curved side between two samples is found too.
template <class Dist, class Add>
void add_rim_points(const CylFrame& c, Real margin, const Dist& dist, const Add& add) {
  const Real step = 2 * kPi / kRimSamples;
  for (int cap = -1; cap <= 1; cap += 2) {
    int best = 0;
    Real best_d = 1e300;
    for (int k = 0; k < kRimSamples; ++k) {
      const Vec3 p_W = rim_sample(c, cap, step * k);
      add(p_W);
      const Real d = dist(p_W);
      if (d < best_d) { best_d = d; best = k; }
    }
    // The distance is 1-Lipschitz: nothing on the arc (chord < r step) can be
    // within the margin if the best sample is that much beyond it.
    if (best_d >= margin + c.r * step) continue;
    const Real theta0 = step * (best - 1);
    const Real s = minimize_convex_01([&](Real u) { return dist(rim_sample(c, cap, theta0 + 2 * step * u)); });
    add(rim_sample(c, cap, theta0 + 2 * step * s));
  }
}

// The cylinder's support line towards -w_W (w: outward normal of a face of
// the other shape): the segment joining the two caps' rim points furthest
// along -w. False when the axis is parallel to w (the cap is flat against the
// face and the rim samples cover it).
bool support_line(const CylFrame& c, const Vec3& w_W, Segment& line) {
  Vec3 u_W = -(w_W - w_W.dot(c.axis_W) * c.axis_W);
  const Real len = u_W.norm();
  if (len < 1e-6) return false;
  u_W /= len;
  line = Segment{c.c_W - c.h * c.axis_W + c.r * u_W, 2 * c.h * c.axis_W};
  return true;
}

}  // namespace

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
int capsule_flat_on_cylinder(const CylFrame& cy, const Segment& seg, Real radius, const Vec3& normal_W,
                             const PairContext& ctx) {
  const Mat3& R = cy.R;
  const Vec3 q0 = R.transpose() * (seg.p0_W - cy.c_W);  // segment start, cylinder axes
  const Vec3 dq = R.transpose() * seg.d_W;
  const Vec3 n_local = R.transpose() * normal_W;
  const Real len = dq.norm();
  if (len <= kTinyLength) return 0;
  Real lo = 0, hi = 1;
  Vec3 cap_pt[2], cyl_pt[2], n_out[2];  // (2) capsule point, cylinder point, outward normal; cylinder axes
  Real gap[2];
  if (std::abs(n_local.z()) > 1 - 1e-6) {
    // On a cap.
    if (std::abs(dq.z()) > kFlatSin * len || !clip_to_disc(q0, dq, cy.r, lo, hi)) return 0;
    const Real sgn = n_local.z() < 0 ? -1 : 1;
    for (int k = 0; k < 2; ++k) {
      const Vec3 s = q0 + (k == 0 ? lo : hi) * dq;
      n_out[k] = Vec3(0, 0, sgn);
      gap[k] = sgn * s.z() - cy.h - radius;
      cap_pt[k] = s - radius * n_out[k];
      cyl_pt[k] = Vec3(s.x(), s.y(), sgn * cy.h);
    }
  } else if (std::abs(n_local.z()) < 1e-6) {
    // Along the side.
    if (std::hypot(dq.x(), dq.y()) > kFlatSin * len || !clip_to_slab(q0.z(), dq.z(), cy.h, lo, hi)) return 0;
    for (int k = 0; k < 2; ++k) {
      const Vec3 s = q0 + (k == 0 ? lo : hi) * dq;
      const Real rho = std::hypot(s.x(), s.y());
      if (rho <= kTinyLength) return 0;
      n_out[k] = Vec3(s.x() / rho, s.y() / rho, 0);
      gap[k] = rho - cy.r - radius;
      cap_pt[k] = s - radius * n_out[k];
      cyl_pt[k] = Vec3(n_out[k].x() * cy.r, n_out[k].y() * cy.r, s.z());
    }
  } else {
    return 0;  // closest feature is the rim
  }
  if ((hi - lo) * len < kMinSpread || !(gap[0] < ctx.margin) || !(gap[1] < ctx.margin)) return 0;
  int count = 0;
  for (int k = 0; k < 2; ++k)  // normal from capsule (first) to cylinder: against the outward normal
    count += emit(ctx, cy.c_W + R * (0.5 * (cap_pt[k] + cyl_pt[k])), -(R * n_out[k]), gap[k]);
  return count;
}

}  // namespace

int collide_capsule_cylinder(const Geom& cap, const GeomPose& pc, const Geom& cyl, const GeomPose& py,
                             const PairContext& ctx) {
  const CylFrame cy = cyl_frame(cyl, py);
  const Real r = cap.size.x();
  const Segment seg = axis_segment(pc, cap.size.y());
  // The closest (or deepest) axis point minimises the convex signed distance.
  const Real t = minimize_convex_01([&](Real s) { return point_cylinder(seg.at(s), py, cy.r, cy.h).dist; });
  const Vec3 c_W = seg.at(t);
  const PointQuery q = point_cylinder(c_W, py, cy.r, cy.h);
  if (!(q.dist - r < ctx.margin)) return 0;
  if (const int n = capsule_flat_on_cylinder(cy, seg, r, q.normal_W, ctx)) return n;
  return emit_ball_vs_query(ctx, q, c_W, r, /*shape_first=*/false);
}

// Box-cylinder (wheels on boxes). Approximation: contacts are found at sampled
// features, not by an exact convex-convex distance:
//  1. cylinder points against the box:
//     - 8 points on each cap rim plus, per cap, the rim point of least signed
//       distance to the box found by a local search next to the best sample:
//       a cap flat on a face, a rim digging into a face or crossing an edge;
//     - for each box face, the cylinder's support line towards that face (the
//       line a wheel rests on) clipped to the face's rectangle, measured to
//       that face's plane: exact for a cylinder side lying on a face, for any
//       roll angle and also when the cylinder overhangs the face;
//  2. box points against the cylinder:
//     - the 8 corners, by signed distance to the cylinder;
//     - an edge (nearly) parallel to the axis (a wheel climbing over a box
//       edge): the two ends of its part between the cap planes, measured
//       radially to the side, so the line contact gets two exact points;
//     - any other edge: its point closest to (or deepest in) the cylinder, by
//       minimising the signed distance along it (an edge crossing under the
//       side, or passing through the cylinder);
//  3. the axis segment's closest (or deepest) point to the box, as for a
//     capsule: exact for the side against an edge or corner, and the one
//     contact of a cylinder piercing a plate (depth estimated as below).
// Reference direction: of the box face axes, the cylinder axis and the line
// from the box to the nearest axis point, the one of least overlap, as in a
// separating-axis test. A sample that penetrates the other shape is measured
// to that shape's support plane along the reference (slab_query), so the
// manifold shares one normal and no depth exceeds that least overlap;
// samples outside keep their exact signed distance.
// Approximate: the depths of penetrating samples (exact when the reference is
// the face or the side the sample is pushed out of, e.g. a cap on a face or a
// wheel on a face or an edge); the rim search is local (one arc per cap, next
// to the best sample), so of two separate rim crossings on one cap only the
// deeper is refined (the other keeps the sample error, up to
// r (1 - cos(pi/8)) ~ 0.08 r). At most 4 points are kept: the deepest and the
// most spread.
int collide_box_cylinder(const Geom& box, const GeomPose& pb, const Geom& cyl, const GeomPose& py,
                         const PairContext& ctx) {
  const CylFrame cy = cyl_frame(cyl, py);
  const Vec3& half = box.size;
  const Mat3& Rb = pb.R_WG;
  // Bounding spheres first: most pairs the broad phase passes are apart.
  if ((cy.c_W - pb.pos_W).norm() >= half.norm() + std::hypot(cy.r, cy.h) + ctx.margin) return 0;
  // The axis point closest to (or deepest in) the box, as for a capsule.
  const Segment axis = axis_segment(py, cy.h);
  const Real t_axis = minimize_convex_01([&](Real s) { return point_box(axis.at(s), pb, half).dist; });
  const Vec3 axis_pt_W = axis.at(t_axis);
  const PointQuery axis_q = point_box(axis_pt_W, pb, half);

  // Reference direction (box to cylinder): of the box face axes, the cylinder
  // axis and the line from the box to the nearest axis point (side against an
  // edge or corner), the one of least overlap (separating-axis style).
  const Vec3 d_W = cy.c_W - pb.pos_W;
  auto overlap_along = [&](const Vec3& L) {
    return box_support_radius(Rb, half, L) + cylinder_support_radius(cy.axis_W, cy.r, cy.h, L) -
           std::abs(d_W.dot(L));
  };
  Vec3 ref_W = cy.axis_W;
  Real best_overlap = overlap_along(ref_W);
  for (int i = 0; i < 4; ++i) {
    const Vec3 L = i < 3 ? Vec3(Rb.col(i)) : axis_q.normal_W;
    if (i == 3 && !(axis_q.dist > 0)) break;  // axis inside the box: no such line
    const Real overlap = overlap_along(L);
    if (overlap < best_overlap) { best_overlap = overlap; ref_W = L; }
  }
  // Apart by at least the margin along some axis: no contact.
  if (best_overlap <= -ctx.margin) return 0;
  if (ref_W.dot(d_W) < 0) ref_W = -ref_W;
  // Support planes along the reference: the box's top towards the cylinder,
  // the cylinder's bottom towards the box (see slab_query).
  const Real box_top = ref_W.dot(pb.pos_W) + box_support_radius(Rb, half, ref_W);
  const Real cyl_bottom = -ref_W.dot(cy.c_W) + cylinder_support_radius(cy.axis_W, cy.r, cy.h, ref_W);
  CandidateSet set;
  // Cylinder point against the box: normal from the box (first) outward.
  auto add_cyl_point = [&](const Vec3& p_W) {
    PointQuery q = point_box(p_W, pb, half);
    if (q.dist < 0) q = slab_query(p_W, ref_W, box_top);
    set.add(0.5 * (p_W + q.surface_W), q.normal_W, q.dist, ctx.margin);
  };
  // Box point against the cylinder: normal from the box towards the cylinder,
  // i.e. against the cylinder's outward normal.
  auto add_box_point = [&](const Vec3& p_W) {
    PointQuery q = point_cylinder(p_W, py, cy.r, cy.h);
    if (q.dist < 0) q = slab_query(p_W, -ref_W, cyl_bottom);
    set.add(0.5 * (p_W + q.surface_W), -q.normal_W, q.dist, ctx.margin);
  };

  add_rim_points(cy, ctx.margin, [&](const Vec3& p_W) { return point_box(p_W, pb, half).dist; }, add_cyl_point);
  for (int face = 0; face < 6; ++face) {
    const int ax = face / 2;
    const Vec3 w_W = (face % 2 == 0 ? 1 : -1) * Rb.col(ax);  // outward face normal
    Segment line;
    if (!support_line(cy, w_W, line)) continue;
    const Vec3 q0 = Rb.transpose() * (line.p0_W - pb.pos_W);
    const Vec3 dq = Rb.transpose() * line.d_W;
    Real lo = 0, hi = 1;
    bool hit = true;
    for (int j = 0; j < 3 && hit; ++j)
      if (j != ax) hit = clip_to_slab(q0(j), dq(j), half(j), lo, hi);
    if (!hit) continue;
    for (int e = 0; e < 2; ++e) {
      if (e == 1 && !(hi > lo)) break;
      const Vec3 p_W = line.at(e == 0 ? lo : hi);
      const Real height = w_W.dot(p_W - pb.pos_W);
      // A point past the box's mid-plane has gone through: this face is no
      // longer its way out (and the signed distance of the rim samples covers it).
      if (height < 0) continue;
      const Real gap = height - half(ax);
      set.add(p_W - 0.5 * gap * w_W, w_W, gap, ctx.margin);
    }
  }

  // The axis point against the box: the side against an edge or corner when
  // the closest box point lies square to the axis inside the axial range
  // (exact there), and the one contact of a cylinder piercing a plate, where
  // no rim point and no box feature lies inside the other shape (depth: the
  // axis point's plus the reach of the cross-section along the normal).
  {
    const PointQuery q = axis_q.dist < 0 ? slab_query(axis_pt_W, ref_W, box_top) : axis_q;
    // Outside the box, only an interior minimiser has its normal square to
    // the axis (stationarity), i.e. touches the side and not beyond a cap;
    // the test is on the normal since the search stops a hair from an end.
    if (q.dist < 0 || std::abs(q.normal_W.dot(cy.axis_W)) < 1e-3) {
      const Real reach = cylinder_support_radius(cy.axis_W, cy.r, 0, q.normal_W);  // cross-section along n
      set.add(0.5 * (q.surface_W + axis_pt_W - reach * q.normal_W), q.normal_W, q.dist - reach, ctx.margin);
    }
  }
  for (int k = 0; k < 8; ++k)
    add_box_point(pb.pos_W + Rb * Vec3((k & 1) ? half.x() : -half.x(), (k & 2) ? half.y() : -half.y(),
                                       (k & 4) ? half.z() : -half.z()));
  for (int ax = 0; ax < 3; ++ax) {
    const int a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    for (int k = 0; k < 4; ++k) {
      Vec3 mid = Vec3::Zero();  // edge midpoint, box axes
      mid(a1) = (k & 1) ? half(a1) : -half(a1);
      mid(a2) = (k & 2) ? half(a2) : -half(a2);
      const Segment edge{pb.pos_W + Rb * mid - half(ax) * Rb.col(ax), 2 * half(ax) * Rb.col(ax)};
      if (edge.d_W.squaredNorm() <= kTinyLength * kTinyLength) continue;  // flat box: the corners cover it
      if (parallel_sin2(edge, axis) < kFlatSin * kFlatSin) {
        // Along the side: ends of the part between the cap planes, radially.
        Real lo = 0, hi = 1;
        if (!clip_to_slab(cy.axis_W.dot(edge.p0_W - cy.c_W), cy.axis_W.dot(edge.d_W), cy.h, lo, hi)) continue;
        for (int e = 0; e < 2; ++e) {
          if (e == 1 && !(hi > lo)) break;
          const Vec3 p_W = edge.at(e == 0 ? lo : hi);
          const Vec3 on_axis_W = cy.c_W + cy.axis_W.dot(p_W - cy.c_W) * cy.axis_W;
          const Vec3 radial_W = p_W - on_axis_W;
          const Real rho = radial_W.norm();
          if (rho <= kTinyLength) continue;
          const Vec3 u_W = radial_W / rho;  // cylinder's outward normal there
          const Real gap = rho - cy.r;
          set.add(0.5 * (p_W + on_axis_W + cy.r * u_W), -u_W, gap, ctx.margin);
        }
      } else {
        // The cylinder lies within r of its axis: farther edges cannot touch.
        Real te = 0, ta = 0;
        closest_params(edge, axis, te, ta);
        if ((edge.at(te) - axis.at(ta)).norm() >= cy.r + ctx.margin) continue;
        te = minimize_convex_01([&](Real s) { return point_cylinder(edge.at(s), py, cy.r, cy.h).dist; });
        if (te > 0 && te < 1) add_box_point(edge.at(te));  // the ends are corners, added above
      }
    }
  }
  return emit_reduced(ctx, set, 4);
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
int collide_cylinder_cylinder(const Geom& c1, const GeomPose& p1, const Geom& c2, const GeomPose& p2,
                              const PairContext& ctx) {
  const CylFrame A = cyl_frame(c1, p1);
  const CylFrame B = cyl_frame(c2, p2);
  const Segment sa = axis_segment(p1, A.h), sb = axis_segment(p2, B.h);
  const Vec3 d_W = B.c_W - A.c_W;
  // Bounding spheres first: most pairs the broad phase passes are apart.
  if (d_W.norm() >= std::hypot(A.r, A.h) + std::hypot(B.r, B.h) + ctx.margin) return 0;
  // Reference direction (A to B): of the two axes and the line joining the
  // closest axis points, the one of least overlap (separating-axis style).
  auto overlap_along = [&](const Vec3& L) {
    return cylinder_support_radius(A.axis_W, A.r, A.h, L) + cylinder_support_radius(B.axis_W, B.r, B.h, L) -
           std::abs(d_W.dot(L));
  };
  Vec3 ref_W = A.axis_W;
  Real best_overlap = overlap_along(ref_W);
  {
    const Real ob = overlap_along(B.axis_W);
    if (ob < best_overlap) { best_overlap = ob; ref_W = B.axis_W; }
    // Parallel axes have no unique closest pair: use the perpendicular offset.
    Vec3 join_W = d_W - d_W.dot(A.axis_W) * A.axis_W;
    if (parallel_sin2(sa, sb) >= 1e-8) {
      Real ta = 0, tb = 0;
      closest_params(sa, sb, ta, tb);
      join_W = sb.at(tb) - sa.at(ta);
    }
    if (join_W.norm() > kTinyLength) {
      const Vec3 L = join_W.normalized();
      const Real os = overlap_along(L);
      if (os < best_overlap) { best_overlap = os; ref_W = L; }
    }
  }
  // Apart by at least the margin along some axis: no contact.
  if (best_overlap <= -ctx.margin) return 0;
  if (ref_W.dot(d_W) < 0) ref_W = -ref_W;
  // Support planes along the reference (see slab_query): A's top towards B,
  // B's bottom towards A.
  const Real a_top = ref_W.dot(A.c_W) + cylinder_support_radius(A.axis_W, A.r, A.h, ref_W);
  const Real b_bottom = -ref_W.dot(B.c_W) + cylinder_support_radius(B.axis_W, B.r, B.h, ref_W);
  CandidateSet set;
  // Point of A against B: normal from A to B is against B's outward normal.
  auto add_a_point = [&](const Vec3& p_W) {
    PointQuery q = point_cylinder(p_W, B.pose, B.r, B.h);
    if (q.dist < 0) q = slab_query(p_W, -ref_W, b_bottom);
    set.add(0.5 * (p_W + q.surface_W), -q.normal_W, q.dist, ctx.margin);
  };
  auto add_b_point = [&](const Vec3& p_W) {
    PointQuery q = point_cylinder(p_W, A.pose, A.r, A.h);
    if (q.dist < 0) q = slab_query(p_W, ref_W, a_top);
    set.add(0.5 * (p_W + q.surface_W), q.normal_W, q.dist, ctx.margin);
  };

  auto dist_to_b = [&](const Vec3& p_W) { return point_cylinder(p_W, B.pose, B.r, B.h).dist; };
  auto dist_to_a = [&](const Vec3& p_W) { return point_cylinder(p_W, A.pose, A.r, A.h).dist; };
  add_rim_points(A, ctx.margin, dist_to_b, add_a_point);
  add_rim_points(B, ctx.margin, dist_to_a, add_b_point);
  // Support lines of one cylinder clipped to the other's cap discs.
  for (int which = 0; which < 2; ++which) {
    const CylFrame& S = which == 0 ? A : B;  // supplies the line
    const CylFrame& T = which == 0 ? B : A;  // supplies the caps
    for (int cap = 0; cap < 2; ++cap) {
      Segment line;
      if (!support_line(S, (cap == 0 ? 1 : -1) * T.axis_W, line)) continue;
      const Vec3 q0 = T.R.transpose() * (line.p0_W - T.c_W);
      const Vec3 dq = T.R.transpose() * line.d_W;
      Real lo = 0, hi = 1;
      if (!clip_to_disc(q0, dq, T.r, lo, hi)) continue;
      // Measured to the cap's plane (the clipped ends lie on the rim, where
      // the signed distance would pick the side).
      const Vec3 w_W = (cap == 0 ? 1 : -1) * T.axis_W;  // outward cap normal of T
      for (int e = 0; e < 2; ++e) {
        if (e == 1 && !(hi > lo)) break;
        const Vec3 p_W = line.at(e == 0 ? lo : hi);
        const Real height = w_W.dot(p_W - T.c_W);
        if (height < 0) continue;  // through T's mid-plane: not this cap's contact
        const Real gap = height - T.h;
        // Normal from A to B: out of T's cap when T is A, into it when T is B.
        set.add(p_W - 0.5 * gap * w_W, which == 0 ? Vec3(-w_W) : w_W, gap, ctx.margin);
      }
    }
  }
  // One axis inside the other cylinder (a rod through a disc): nothing else
  // need be inside. Depth: the axis point's, plus the reach of the
  // cross-section along the normal.
  for (int which = 0; which < 2; ++which) {
    const CylFrame& S = which == 0 ? A : B;  // supplies the axis
    const CylFrame& T = which == 0 ? B : A;
    const Segment axis = which == 0 ? sa : sb;
    const Real t = minimize_convex_01([&](Real u) { return point_cylinder(axis.at(u), T.pose, T.r, T.h).dist; });
    const Vec3 c_W = axis.at(t);
    if (!(point_cylinder(c_W, T.pose, T.r, T.h).dist < 0)) continue;
    const PointQuery q = which == 0 ? slab_query(c_W, -ref_W, b_bottom) : slab_query(c_W, ref_W, a_top);
    const Real reach = cylinder_support_radius(S.axis_W, S.r, 0, q.normal_W);
    const Vec3 n_W = which == 0 ? Vec3(-q.normal_W) : q.normal_W;  // A to B
    set.add(0.5 * (q.surface_W + c_W - reach * q.normal_W), n_W, q.dist - reach, ctx.margin);
  }
  // Side against side: two balls on the axes, valid where the segment joining
  // the axis points is perpendicular to both (inside both axial ranges).
  // Only where the side is the shallower way out: the overlap along either
  // axis must be at least the side depth, else (e.g. coaxial cylinders
  // pressed cap to cap) the axis points say nothing about the contact.
  const Real max_side_depth = std::min(overlap_along(A.axis_W), overlap_along(B.axis_W));
  auto add_side = [&](const Vec3& a_W, const Vec3& b_W) {
    const Vec3 ab_W = b_W - a_W;
    const Real dist = ab_W.norm();
    if (A.r + B.r - dist > max_side_depth) return;
    const Vec3 n_W = dist > kTinyLength ? Vec3(ab_W / dist) : Vec3(Vec3::UnitZ());
    set.add(0.5 * ((a_W + A.r * n_W) + (b_W - B.r * n_W)), n_W, dist - A.r - B.r, ctx.margin);
  };
  const Real len_a = sa.d_W.norm();
  if (parallel_sin2(sa, sb) < 1e-8) {
    if (len_a > kTinyLength) {
      const Real u0 = clamp01(sa.d_W.dot(sb.at(0) - sa.p0_W) / (len_a * len_a));
      const Real u1 = clamp01(sa.d_W.dot(sb.at(1) - sa.p0_W) / (len_a * len_a));
      const Real lo = std::min(u0, u1), hi = std::max(u0, u1);
      if ((hi - lo) * len_a > kMinSpread) {
        for (const Real u : {lo, hi}) {
          const Vec3 a_W = sa.at(u);
          add_side(a_W, sb.at(closest_param(sb, a_W)));
        }
      }
    }
  } else {
    Real ta = 0, tb = 0;
    closest_params(sa, sb, ta, tb);
    if (ta > 0 && ta < 1 && tb > 0 && tb < 1) add_side(sa.at(ta), sb.at(tb));
  }
  return emit_reduced(ctx, set, 4);
}

}  // namespace collision_detail
}  // namespace contactlab
