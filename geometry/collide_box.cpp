// Box pairs: sphere-box and capsule-box through the exact signed distance to
// the box (capsule-box: its axis point by argmin_01_t, exact and differentiable); box-box by the separating-axis test with face clipping.
#include <algorithm>
#include <cmath>

#include "geometry/argmin_pullback.hpp"
#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

template <class T>
int collide_sphere_box(const Geom& sph, const GeomPoseT<T>& ps, const Geom& box, const GeomPoseT<T>& pb,
                       const PairContextT<T>& ctx) {
  // point_box handles a centre inside the box by leaving through the face of
  // least penetration.
  const PointQueryT<T> q = point_box(ps.pos_W, pb, box.size);
  return emit_ball_vs_query(ctx, q, ps.pos_W, sph.size.x(), /*shape_first=*/false);
}

namespace {

// A capsule lying (nearly) flat on face `axis` of the box: one contact per end
// of the part of its segment above the face, so it rests instead of rocking
// on a single point. Returns 0 (and emits nothing) unless both ends are within
// the margin, leaving the single closest point to the caller.
template <class T>
int capsule_on_box_face(const GeomPoseT<T>& pb, const Vec3& half, const SegmentT<T>& seg, Real radius,
                        const Vec3T<T>& normal_W, const PairContextT<T>& ctx) {
  using std::abs;
  const Mat3T<T>& R = pb.R_WG;
  const Vec3T<T> n_local = R.transpose() * normal_W;
  int axis = 0;
  Vec3(abs(value_of(n_local(0))), abs(value_of(n_local(1))), abs(value_of(n_local(2)))).maxCoeff(&axis);
  if (abs(n_local(axis)) < T(1 - 1e-6)) return 0;  // closest feature is an edge or corner
  const Real sgn = n_local(axis) < T(0) ? -1 : 1;
  const Vec3T<T> q0 = R.transpose() * (seg.p0_W - pb.pos_W);  // segment start, box axes
  const Vec3T<T> dq = R.transpose() * seg.d_W;                 // segment vector, box axes
  const T len = dq.norm();
  if (len <= T(kTinyLength) || abs(dq(axis)) > T(kFlatSin) * len) return 0;
  T lo = T(0), hi = T(1);
  for (int j = 0; j < 3; ++j)
    if (j != axis && !clip_to_slab(q0(j), dq(j), half(j), lo, hi)) return 0;
  if ((hi - lo) * len < T(kMinSpread)) return 0;
  Vec3T<T> cap_pt[2], box_pt[2];  // (2) capsule and box surface points, box axes
  T gap[2];
  const T ends[2] = {lo, hi};
  for (int k = 0; k < 2; ++k) {
    const Vec3T<T> s = q0 + ends[k] * dq;
    gap[k] = T(sgn) * s(axis) - T(half(axis) + radius);
    if (!(gap[k] < T(ctx.margin))) return 0;
    cap_pt[k] = s;
    cap_pt[k](axis) -= T(sgn * radius);
    box_pt[k] = s;
    box_pt[k](axis) = T(sgn * half(axis));
  }
  const Vec3T<T> face_n_W = T(sgn) * R.col(axis);
  int count = 0;
  for (int k = 0; k < 2; ++k)
    count += emit(ctx, Vec3T<T>(pb.pos_W + R * (T(0.5) * (cap_pt[k] + box_pt[k]))), face_n_W, gap[k]);
  return count;
}

}  // namespace

template <class T>
int collide_box_capsule(const Geom& box, const GeomPoseT<T>& pb, const Geom& cap, const GeomPoseT<T>& pc,
                        const PairContextT<T>& ctx) {
  const Real r = cap.size.x();
  const SegmentT<T> seg = axis_segment(pc, cap.size.y());
  // The closest (or deepest) axis point minimises the convex signed distance;
  // argmin_01_t makes it exact and differentiable.
  const T t = argmin_01_t<T>([&](const T& s) { return point_box<T>(seg.at(s), pb, box.size).dist; },
                             2 * cap.size.y());
  const Vec3T<T> c_W = seg.at(t);
  const PointQueryT<T> q = point_box<T>(c_W, pb, box.size);
  if (!(q.dist - T(r) < T(ctx.margin))) return 0;
  if (const int n = capsule_on_box_face(pb, box.size, seg, r, q.normal_W, ctx)) return n;
  return emit_ball_vs_query(ctx, q, c_W, r, /*shape_first=*/true);
}

namespace {

template <class T>
struct BoxFrame {
  Vec3T<T> c_W;  // centre
  Mat3T<T> R;    // axes (columns), world
  Vec3 half;     // half-extents
};

template <class T>
Vec3T<T> box_corner(const BoxFrame<T>& b, Real s0, Real s1, Real s2) {
  return b.c_W + T(s0 * b.half(0)) * b.R.col(0) + T(s1 * b.half(1)) * b.R.col(1) + T(s2 * b.half(2)) * b.R.col(2);
}

// Face contact: reference face `axis` of box `ref` (the outward side facing
// `inc`), incident face of `inc` clipped to it. Candidate normals point from
// ref to inc, negated when `ref_is_second`.
template <class T>
void face_contacts(const BoxFrame<T>& ref, int axis, const BoxFrame<T>& inc, bool ref_is_second, Real margin,
                   CandidateSetT<T>& set) {
  const Vec3T<T> d_W = inc.c_W - ref.c_W;
  const Vec3T<T> n_W = T(d_W.dot(ref.R.col(axis)) < T(0) ? -1 : 1) * ref.R.col(axis);
  const Vec3T<T> face_c_W = ref.c_W + T(ref.half(axis)) * n_W;
  const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  // Incident face: the face of inc whose outward normal is most against n.
  int m = 0;
  const Vec3T<T> along = inc.R.transpose() * n_W;
  Vec3 along_v(value_of(along(0)), value_of(along(1)), value_of(along(2)));
  along_v.cwiseAbs().maxCoeff(&m);
  const Real ms = inc.R.col(m).dot(n_W) > T(0) ? -1 : 1;
  const int m1 = (m + 1) % 3, m2 = (m + 2) % 3;
  // Polygon buffers: a quad clipped by four planes has at most 8 vertices.
  Vec3T<T> poly[8], next[8];  // (<= 8) polygon vertices, world frame
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
    const Vec3T<T> w_W = T(plane % 2 == 0 ? 1 : -1) * ref.R.col(ax);
    const T e = T(ref.half(ax));
    int nn = 0;
    for (int k = 0; k < np; ++k) {
      const Vec3T<T>& p = poly[k];
      const Vec3T<T>& q = poly[(k + 1) % np];
      const T dp = w_W.dot(p - face_c_W) - e, dq = w_W.dot(q - face_c_W) - e;
      if (dp <= T(0) && nn < 8) next[nn++] = p;
      if ((dp < T(0)) != (dq < T(0)) && (dp > T(0) || dq > T(0)) && nn < 8) next[nn++] = p + (dp / (dp - dq)) * (q - p);
    }
    np = nn;
    for (int k = 0; k < np; ++k) poly[k] = next[k];
  }
  const Vec3T<T> out_n_W = ref_is_second ? Vec3T<T>(-n_W) : n_W;
  for (int k = 0; k < np; ++k) {
    const T gap = n_W.dot(poly[k] - face_c_W);  // height of the incident point above the face
    set.add(Vec3T<T>(poly[k] - T(0.5) * gap * n_W), out_n_W, gap, margin);
  }
}

}  // namespace

template <class T>
int collide_box_box(const Geom& b1, const GeomPoseT<T>& p1, const Geom& b2, const GeomPoseT<T>& p2,
                    const PairContextT<T>& ctx) {
  using std::abs;
  const BoxFrame<T> A{p1.pos_W, p1.R_WG, b1.size};
  const BoxFrame<T> B{p2.pos_W, p2.R_WG, b2.size};
  const Vec3T<T> d_W = B.c_W - A.c_W;
  auto separation = [&](const Vec3T<T>& L) {
    return T(abs(d_W.dot(L)) - box_support_radius(A.R, A.half, L) - box_support_radius(B.R, B.half, L));
  };

  // Separation along an axis is a lower bound on the distance: an axis with
  // separation >= margin proves there is no contact.
  T sa = T(-1e300), sb = T(-1e300), se = T(-1e300);
  int ia = 0, ib = 0, ea = -1, eb = -1;
  for (int i = 0; i < 3; ++i) {
    const T s = separation(A.R.col(i));
    if (s >= T(ctx.margin)) return 0;
    if (s > sa) { sa = s; ia = i; }
  }
  for (int i = 0; i < 3; ++i) {
    const T s = separation(B.R.col(i));
    if (s >= T(ctx.margin)) return 0;
    if (s > sb) { sb = s; ib = i; }
  }
  Vec3T<T> edge_axis_W = Vec3T<T>::UnitZ();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      Vec3T<T> L = A.R.col(i).cross(B.R.col(j));
      const T len = L.norm();
      if (len < T(1e-6)) continue;  // parallel edges: covered by the face axes
      L /= len;
      const T s = separation(L);
      if (s >= T(ctx.margin)) return 0;
      if (s > se) { se = s; ea = i; eb = j; edge_axis_W = L; }
    }
  }

  const bool use_b = sb > sa + T(kFaceBiasAbs) + T(kFaceBiasRel) * abs(sa);
  const T s_face = use_b ? sb : sa;
  CandidateSetT<T> set;
  if (ea >= 0 && se > s_face + T(kEdgeBiasAbs) + T(kEdgeBiasRel) * abs(s_face)) {
    // Edge-edge: one point midway between the closest points of the two
    // supporting edges (the edges of A and B furthest along n and -n).
    Vec3T<T> n_W = edge_axis_W;
    if (n_W.dot(d_W) < T(0)) n_W = -n_W;
    Vec3T<T> ca_W = A.c_W, cb_W = B.c_W;  // edge midpoints
    for (int k = 0; k < 3; ++k) {
      if (k != ea) ca_W += T((A.R.col(k).dot(n_W) > T(0) ? 1 : -1) * A.half(k)) * A.R.col(k);
      if (k != eb) cb_W -= T((B.R.col(k).dot(n_W) > T(0) ? 1 : -1) * B.half(k)) * B.R.col(k);
    }
    const SegmentT<T> ea_seg{ca_W - T(A.half(ea)) * A.R.col(ea), T(2 * A.half(ea)) * A.R.col(ea)};
    const SegmentT<T> eb_seg{cb_W - T(B.half(eb)) * B.R.col(eb), T(2 * B.half(eb)) * B.R.col(eb)};
    T ta = T(0), tb = T(0);
    closest_params(ea_seg, eb_seg, ta, tb);
    // The gap is the separation the test established along n; for crossing
    // edges it equals (pb - pa) . n.
    return emit(ctx, T(0.5) * (ea_seg.at(ta) + eb_seg.at(tb)), n_W, se);
  }
  if (use_b)
    face_contacts(B, ib, A, /*ref_is_second=*/true, ctx.margin, set);
  else
    face_contacts(A, ia, B, /*ref_is_second=*/false, ctx.margin, set);
  return emit_reduced(ctx, set, 4);
}

#define CONTACTLAB_BOX_INSTANCES(T)                                                                            \
  template int collide_sphere_box<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,          \
                                     const PairContextT<T>&);                                                     \
  template int collide_box_box<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,             \
                                  const PairContextT<T>&);                                                        \
  template int collide_box_capsule<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,         \
                                      const PairContextT<T>&);
CONTACTLAB_BOX_INSTANCES(Real)
CONTACTLAB_BOX_INSTANCES(Dual)
#undef CONTACTLAB_BOX_INSTANCES

}  // namespace collision_detail
}  // namespace contactlab
