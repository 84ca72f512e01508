// Box pairs: sphere-box and capsule-box through the exact signed distance to
// the box; box-box by the separating-axis test with face clipping.
#include <algorithm>
#include <cmath>

#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

int collide_sphere_box(const Geom& sph, const GeomPose& ps, const Geom& box, const GeomPose& pb,
                       const PairContext& ctx) {
  // point_box handles a centre inside the box by leaving through the face of
  // least penetration.
  const PointQuery q = point_box(ps.pos_W, pb, box.size);
  return emit_ball_vs_query(ctx, q, ps.pos_W, sph.size.x(), /*shape_first=*/false);
}

namespace {

// A capsule lying (nearly) flat on face `axis` of the box: one contact per end
// of the part of its segment above the face, so it rests instead of rocking
// on a single point. Returns 0 (and emits nothing) unless both ends are within
// the margin, leaving the single closest point to the caller.
int capsule_on_box_face(const GeomPose& pb, const Vec3& half, const Segment& seg, Real radius,
                        const Vec3& normal_W, const PairContext& ctx) {
  const Mat3& R = pb.R_WG;
  const Vec3 n_local = R.transpose() * normal_W;
  int axis = 0;
  n_local.cwiseAbs().maxCoeff(&axis);
  if (std::abs(n_local(axis)) < 1 - 1e-6) return 0;  // closest feature is an edge or corner
  const Real sgn = n_local(axis) < 0 ? -1 : 1;
  const Vec3 q0 = R.transpose() * (seg.p0_W - pb.pos_W);  // segment start, box axes
  const Vec3 dq = R.transpose() * seg.d_W;                 // segment vector, box axes
  const Real len = dq.norm();
  if (len <= kTinyLength || std::abs(dq(axis)) > kFlatSin * len) return 0;
  Real lo = 0, hi = 1;
  for (int j = 0; j < 3; ++j)
    if (j != axis && !clip_to_slab(q0(j), dq(j), half(j), lo, hi)) return 0;
  if ((hi - lo) * len < kMinSpread) return 0;
  Vec3 cap_pt[2], box_pt[2];  // (2) capsule and box surface points, box axes
  Real gap[2];
  const Real ends[2] = {lo, hi};
  for (int k = 0; k < 2; ++k) {
    const Vec3 s = q0 + ends[k] * dq;
    gap[k] = sgn * s(axis) - half(axis) - radius;
    if (!(gap[k] < ctx.margin)) return 0;
    cap_pt[k] = s;
    cap_pt[k](axis) -= sgn * radius;
    box_pt[k] = s;
    box_pt[k](axis) = sgn * half(axis);
  }
  const Vec3 face_n_W = sgn * R.col(axis);
  int count = 0;
  for (int k = 0; k < 2; ++k)
    count += emit(ctx, pb.pos_W + R * (0.5 * (cap_pt[k] + box_pt[k])), face_n_W, gap[k]);
  return count;
}

}  // namespace

int collide_box_capsule(const Geom& box, const GeomPose& pb, const Geom& cap, const GeomPose& pc,
                        const PairContext& ctx) {
  const Real r = cap.size.x();
  const Segment seg = axis_segment(pc, cap.size.y());
  // The closest (or deepest) axis point minimises the convex signed distance.
  const Real t = minimize_convex_01([&](Real s) { return point_box(seg.at(s), pb, box.size).dist; });
  const Vec3 c_W = seg.at(t);
  const PointQuery q = point_box(c_W, pb, box.size);
  if (!(q.dist - r < ctx.margin)) return 0;
  if (const int n = capsule_on_box_face(pb, box.size, seg, r, q.normal_W, ctx)) return n;
  return emit_ball_vs_query(ctx, q, c_W, r, /*shape_first=*/true);
}

namespace {

// Preference given to face axes over edge axes (and to box 1's faces over box
// 2's) when their separations are nearly equal: switching the reference
// feature between steps makes resting stacks jitter. An edge axis must beat
// the best face by this much (m, plus a fraction of the separation).
constexpr Real kEdgeBiasAbs = 1e-5;
constexpr Real kEdgeBiasRel = 0.05;
constexpr Real kFaceBiasAbs = 1e-7;
constexpr Real kFaceBiasRel = 1e-3;

struct BoxFrame {
  Vec3 c_W;     // centre
  Mat3 R;       // axes (columns), world
  Vec3 half;    // half-extents
};

Vec3 box_corner(const BoxFrame& b, Real s0, Real s1, Real s2) {
  return b.c_W + s0 * b.half(0) * b.R.col(0) + s1 * b.half(1) * b.R.col(1) + s2 * b.half(2) * b.R.col(2);
}

// Face contact: reference face `axis` of box `ref` (the outward side facing
// `inc`), incident face of `inc` clipped to it. Candidate normals point from
// ref to inc, negated when `ref_is_second`.
void face_contacts(const BoxFrame& ref, int axis, const BoxFrame& inc, bool ref_is_second, Real margin,
                   CandidateSet& set) {
  const Vec3 d_W = inc.c_W - ref.c_W;
  const Vec3 n_W = (d_W.dot(ref.R.col(axis)) < 0 ? -1 : 1) * ref.R.col(axis);
  const Vec3 face_c_W = ref.c_W + ref.half(axis) * n_W;
  const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  // Incident face: the face of inc whose outward normal is most against n.
  int m = 0;
  (inc.R.transpose() * n_W).cwiseAbs().maxCoeff(&m);
  const Real ms = inc.R.col(m).dot(n_W) > 0 ? -1 : 1;
  const int m1 = (m + 1) % 3, m2 = (m + 2) % 3;
  // Polygon buffers: a quad clipped by four planes has at most 8 vertices.
  Vec3 poly[8], next[8];  // (<= 8) polygon vertices, world frame
  int np = 4;
  const Real sgn1[4] = {1, -1, -1, 1}, sgn2[4] = {1, 1, -1, -1};  // counter-clockwise quad
  for (int k = 0; k < 4; ++k) {
    Vec3 local = Vec3::Zero();
    local(m) = ms;
    local(m1) = sgn1[k];
    local(m2) = sgn2[k];
    poly[k] = box_corner(inc, local(0), local(1), local(2));
  }
  // Sutherland-Hodgman against the four side planes of the reference face:
  // keep w . (p - face_c) <= e for w = +-u1, +-u2.
  for (int plane = 0; plane < 4 && np > 0; ++plane) {
    const int ax = plane < 2 ? a1 : a2;
    const Vec3 w_W = (plane % 2 == 0 ? 1 : -1) * ref.R.col(ax);
    const Real e = ref.half(ax);
    int nn = 0;
    for (int k = 0; k < np; ++k) {
      const Vec3& p = poly[k];
      const Vec3& q = poly[(k + 1) % np];
      const Real dp = w_W.dot(p - face_c_W) - e, dq = w_W.dot(q - face_c_W) - e;
      if (dp <= 0 && nn < 8) next[nn++] = p;
      if ((dp < 0) != (dq < 0) && (dp > 0 || dq > 0) && nn < 8) next[nn++] = p + (dp / (dp - dq)) * (q - p);
    }
    np = nn;
    for (int k = 0; k < np; ++k) poly[k] = next[k];
  }
  const Vec3 out_n_W = ref_is_second ? Vec3(-n_W) : n_W;
  for (int k = 0; k < np; ++k) {
    const Real gap = n_W.dot(poly[k] - face_c_W);  // height of the incident point above the face
    set.add(poly[k] - 0.5 * gap * n_W, out_n_W, gap, margin);
  }
}

}  // namespace

int collide_box_box(const Geom& b1, const GeomPose& p1, const Geom& b2, const GeomPose& p2,
                    const PairContext& ctx) {
  const BoxFrame A{p1.pos_W, p1.R_WG, b1.size};
  const BoxFrame B{p2.pos_W, p2.R_WG, b2.size};
  const Vec3 d_W = B.c_W - A.c_W;
  auto separation = [&](const Vec3& L) {
    return std::abs(d_W.dot(L)) - box_support_radius(A.R, A.half, L) - box_support_radius(B.R, B.half, L);
  };

  // Separation along an axis is a lower bound on the distance: an axis with
  // separation >= margin proves there is no contact.
  Real sa = -1e300, sb = -1e300, se = -1e300;
  int ia = 0, ib = 0, ea = -1, eb = -1;
  for (int i = 0; i < 3; ++i) {
    const Real s = separation(A.R.col(i));
    if (s >= ctx.margin) return 0;
    if (s > sa) { sa = s; ia = i; }
  }
  for (int i = 0; i < 3; ++i) {
    const Real s = separation(B.R.col(i));
    if (s >= ctx.margin) return 0;
    if (s > sb) { sb = s; ib = i; }
  }
  Vec3 edge_axis_W = Vec3::UnitZ();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      Vec3 L = A.R.col(i).cross(B.R.col(j));
      const Real len = L.norm();
      if (len < 1e-6) continue;  // parallel edges: covered by the face axes
      L /= len;
      const Real s = separation(L);
      if (s >= ctx.margin) return 0;
      if (s > se) { se = s; ea = i; eb = j; edge_axis_W = L; }
    }
  }

  const bool use_b = sb > sa + kFaceBiasAbs + kFaceBiasRel * std::abs(sa);
  const Real s_face = use_b ? sb : sa;
  CandidateSet set;
  if (ea >= 0 && se > s_face + kEdgeBiasAbs + kEdgeBiasRel * std::abs(s_face)) {
    // Edge-edge: one point midway between the closest points of the two
    // supporting edges (the edges of A and B furthest along n and -n).
    Vec3 n_W = edge_axis_W;
    if (n_W.dot(d_W) < 0) n_W = -n_W;
    Vec3 ca_W = A.c_W, cb_W = B.c_W;  // edge midpoints
    for (int k = 0; k < 3; ++k) {
      if (k != ea) ca_W += (A.R.col(k).dot(n_W) > 0 ? 1 : -1) * A.half(k) * A.R.col(k);
      if (k != eb) cb_W -= (B.R.col(k).dot(n_W) > 0 ? 1 : -1) * B.half(k) * B.R.col(k);
    }
    const Segment ea_seg{ca_W - A.half(ea) * A.R.col(ea), 2 * A.half(ea) * A.R.col(ea)};
    const Segment eb_seg{cb_W - B.half(eb) * B.R.col(eb), 2 * B.half(eb) * B.R.col(eb)};
    Real ta = 0, tb = 0;
    closest_params(ea_seg, eb_seg, ta, tb);
    // The gap is the separation the test established along n; for crossing
    // edges it equals (pb - pa) . n.
    return emit(ctx, 0.5 * (ea_seg.at(ta) + eb_seg.at(tb)), n_W, se);
  }
  if (use_b)
    face_contacts(B, ib, A, /*ref_is_second=*/true, ctx.margin, set);
  else
    face_contacts(A, ia, B, /*ref_is_second=*/false, ctx.margin, set);
  return emit_reduced(ctx, set, 4);
}

}  // namespace collision_detail
}  // namespace contactlab
