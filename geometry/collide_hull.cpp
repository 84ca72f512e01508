// Convex hulls (mesh geoms) against every other shape but the cylinder, all
// in closed form over the scalar T:
//  - plane: every hull vertex below the plane (the deepest four spread ones);
//  - sphere: the exact signed distance of its centre to the hull;
//  - capsule: its axis point deepest in (or closest to) the hull, the convex
//    minimiser made exact by argmin_01_t, plus the "lying flat" pair of
//    points on a face;
//  - box and hull: the separating-axis test over both shapes' face normals
//    and the cross products of their edge directions, then either one
//    edge-edge point or the incident face clipped against the reference face
//    (Sutherland-Hodgman), so faces rest on up to four points.
#include <algorithm>
#include <cmath>

#include "geometry/argmin_pullback.hpp"
#include "geometry/hull_query.hpp"

namespace contactlab {
namespace collision_detail {

const ConvexHull& unit_cube_hull() {
  static const ConvexHull cube = [] {
    std::vector<Vec3> c;
    for (int k = 0; k < 8; ++k) c.emplace_back((k & 1) ? 1 : -1, (k & 2) ? 1 : -1, (k & 4) ? 1 : -1);
    return build_convex_hull(c, "unit cube");
  }();
  return cube;
}

namespace {

// Candidates of a hull pair: a clipped polygon has at most the incident
// face's vertices plus one per reference edge.
constexpr int kHullCandidates = 2 * kMaxHullFaceVertices + 8;
template <class T>
using HullCandidates = CandidateSetT<T, kHullCandidates>;

// Adds a candidate; when the set is full the shallowest one gives way, so the
// deepest points always survive (a hull may put many vertices below a plane).
template <class T>
void add_keep_deepest(HullCandidates<T>& set, const Vec3T<T>& p, const Vec3T<T>& n, const T& gap, Real margin) {
  if (!(gap < T(margin))) return;
  if (set.n < set.kCapacity) {
    set.add(p, n, gap, margin);
    return;
  }
  int worst = 0;
  for (int i = 1; i < set.n; ++i)
    if (set.c[i].gap > set.c[worst].gap) worst = i;
  if (gap < set.c[worst].gap) set.c[worst] = CandidateT<T>{p, n, gap};
}

// Feature preferences: kEdgeBias*, kFaceBias* (geometry/collision_detail.hpp), as box-box.
// Edge directions closer to parallel than this (sine) give no axis: the
// face normals cover them.
constexpr Real kParallelEdges = 1e-6;

// Face axes of `ref` against `other`: the largest separation and its face.
template <class T>
T best_face(const PolytopeT<T>& ref, const PolytopeT<T>& other, int& face) {
  T best = T(-1e300);
  face = 0;
  for (int f = 0; f < ref.hull->num_faces(); ++f) {
    const Vec3T<T> n = ref.normal_W(f);
    T lo, hi;
    project(other, n, lo, hi);
    const T s = lo - ref.offset_W(f);
    if (s > best) best = s, face = f;
  }
  return best;
}

// The edge of P in direction class `cls` furthest along L (its support edge).
template <class T>
SegmentT<T> support_edge(const PolytopeT<T>& P, int cls, const Vec3T<T>& L) {
  int best = -1;
  T best_h = T(-1e300);
  for (size_t e = 0; e < P.hull->edges.size(); ++e) {
    if (P.hull->edge_dir[e] != cls) continue;
    const T h = L.dot(P.vertex_W(P.hull->edges[e][0]) + P.vertex_W(P.hull->edges[e][1]));
    if (h > best_h) best_h = h, best = static_cast<int>(e);
  }
  const Vec3T<T> a = P.vertex_W(P.hull->edges[best][0]), b = P.vertex_W(P.hull->edges[best][1]);
  return SegmentT<T>{a, Vec3T<T>(b - a)};
}

// Face contact: face `rf` of `ref`, the face of `inc` most against its
// normal clipped to it. Normals from the routine's first geom to its second
// (negated when ref is the second).
template <class T>
void clip_faces(const PolytopeT<T>& ref, int rf, const PolytopeT<T>& inc, bool ref_is_second, Real margin,
                HullCandidates<T>& set) {
  const Vec3T<T> n = ref.normal_W(rf);
  const T d = ref.offset_W(rf);
  int inf = 0;
  T most = T(1e300);
  for (int f = 0; f < inc.hull->num_faces(); ++f) {
    const T c = inc.normal_W(f).dot(n);
    if (c < most) most = c, inf = f;
  }
  Vec3T<T> buf[2][kHullCandidates];  // (np) polygon before and after one clipping plane
  int cur = 0, np = inc.hull->face_size(inf);
  for (int k = 0; k < np; ++k) buf[0][k] = inc.face_vertex_W(inf, k);
  const int m = ref.hull->face_size(rf);
  for (int e = 0; e < m && np > 0; ++e) {
    const Vec3T<T> a = ref.face_vertex_W(rf, e), b = ref.face_vertex_W(rf, (e + 1) % m);
    const Vec3T<T> w = (b - a).cross(n);  // outward side normal (the loop is counter-clockwise about n)
    const Vec3T<T>* poly = buf[cur];
    Vec3T<T>* next = buf[1 - cur];
    int nn = 0;
    for (int k = 0; k < np; ++k) {
      const Vec3T<T>& p = poly[k];
      const Vec3T<T>& q = poly[(k + 1) % np];
      const T dp = w.dot(p - a), dq = w.dot(q - a);
      if (dp <= T(0) && nn < kHullCandidates) next[nn++] = p;
      if ((dp < T(0)) != (dq < T(0)) && (dp > T(0) || dq > T(0)) && nn < kHullCandidates)
        next[nn++] = p + (dp / (dp - dq)) * (q - p);
    }
    np = nn;
    cur = 1 - cur;
  }
  const Vec3T<T> out_n = ref_is_second ? Vec3T<T>(-n) : n;
  for (int k = 0; k < np; ++k) {
    const Vec3T<T>& p = buf[cur][k];
    const T gap = n.dot(p) - d;  // height of the incident point above the reference face
    add_keep_deepest(set, Vec3T<T>(p - T(0.5) * gap * n), out_n, gap, margin);
  }
}

// Two convex polytopes; the normal points from A (the routine's first geom) to B.
template <class T>
int collide_polytopes(const PolytopeT<T>& A, const PolytopeT<T>& B, const PairContextT<T>& ctx) {
  using std::abs;
  int fa = 0, fb = 0;
  const T sa = best_face(A, B, fa);
  if (sa >= T(ctx.margin)) return 0;
  const T sb = best_face(B, A, fb);
  if (sb >= T(ctx.margin)) return 0;
  T se = T(-1e300);
  int ea = -1, eb = -1;
  Vec3T<T> edge_axis = Vec3T<T>::UnitZ();
  for (size_t i = 0; i < A.hull->edge_dirs.size(); ++i) {
    const Vec3T<T> da = A.edge_dir_W(static_cast<int>(i));
    for (size_t j = 0; j < B.hull->edge_dirs.size(); ++j) {
      Vec3T<T> L = da.cross(B.edge_dir_W(static_cast<int>(j)));
      const T len = L.norm();
      if (len < T(kParallelEdges)) continue;
      L /= len;
      T alo, ahi, blo, bhi;
      project(A, L, alo, ahi);
      project(B, L, blo, bhi);
      // Both senses of the axis: B beyond A along +L, or along -L.
      const T s_plus = blo - ahi, s_minus = alo - bhi;
      const T s = s_plus > s_minus ? s_plus : s_minus;
      if (s >= T(ctx.margin)) return 0;
      if (s > se) {
        se = s;
        ea = static_cast<int>(i);
        eb = static_cast<int>(j);
        edge_axis = s_plus > s_minus ? L : Vec3T<T>(-L);
      }
    }
  }
  const bool use_b = sb > sa + T(kFaceBiasAbs) + T(kFaceBiasRel) * abs(sa);
  const T s_face = use_b ? sb : sa;
  if (ea >= 0 && se > s_face + T(kEdgeBiasAbs) + T(kEdgeBiasRel) * abs(s_face)) {
    // Edge-edge: midway between the closest points of the support edges.
    const SegmentT<T> a_seg = support_edge(A, ea, edge_axis);
    const SegmentT<T> b_seg = support_edge(B, eb, Vec3T<T>(-edge_axis));
    T ta = T(0), tb = T(0);
    closest_params(a_seg, b_seg, ta, tb);
    return emit(ctx, T(0.5) * (a_seg.at(ta) + b_seg.at(tb)), edge_axis, se);
  }
  HullCandidates<T> set;
  if (use_b)
    clip_faces(B, fb, A, /*ref_is_second=*/true, ctx.margin, set);
  else
    clip_faces(A, fa, B, /*ref_is_second=*/false, ctx.margin, set);
  if (set.n == 0) {
    // Clipping lost every point (an incident face grazing the reference
    // face's rim): the deepest vertex of the other shape along the axis.
    const PolytopeT<T>& ref = use_b ? B : A;
    const PolytopeT<T>& inc = use_b ? A : B;
    const int rf = use_b ? fb : fa;
    const Vec3T<T> n = ref.normal_W(rf);
    int deepest = 0;
    for (int i = 1; i < inc.num_vertices(); ++i)
      if (n.dot(inc.vertex_W(i)) < n.dot(inc.vertex_W(deepest))) deepest = i;
    const Vec3T<T> p = inc.vertex_W(deepest);
    const T gap = n.dot(p) - ref.offset_W(rf);
    return emit(ctx, Vec3T<T>(p - T(0.5) * gap * n), use_b ? Vec3T<T>(-n) : n, gap);
  }
  return emit_reduced(ctx, set, 4);
}

}  // namespace

template <class T>
int collide_plane_mesh(const Geom&, const GeomPoseT<T>& pp, const Geom& mesh, const GeomPoseT<T>& pm,
                       const PairContextT<T>& ctx) {
  const PolytopeT<T> P = mesh_polytope(mesh, pm);
  const Vec3T<T> n = pp.R_WG.col(2);
  HullCandidates<T> set;
  for (int i = 0; i < P.num_vertices(); ++i) {
    const Vec3T<T> s = P.vertex_W(i);
    const T d = n.dot(s - pp.pos_W);
    add_keep_deepest(set, Vec3T<T>(s - T(0.5) * d * n), n, d, ctx.margin);
  }
  return emit_reduced(ctx, set, 4);
}

template <class T>
int collide_sphere_polytope(const Geom& sph, const GeomPoseT<T>& ps, const PolytopeT<T>& P, const PairContextT<T>& ctx) {
  const PointQueryT<T> q = point_polytope(P, ps.pos_W);
  return emit_ball_vs_query(ctx, q, ps.pos_W, sph.size.x(), /*shape_first=*/false);
}

template <class T>
int collide_sphere_mesh(const Geom& sph, const GeomPoseT<T>& ps, const Geom& mesh, const GeomPoseT<T>& pm,
                        const PairContextT<T>& ctx) {
  return collide_sphere_polytope(sph, ps, mesh_polytope(mesh, pm), ctx);
}

template <class T>
int collide_polytope_on_face(const PolytopeT<T>& shape, const PolytopeT<T>& solid, int face, const PairContextT<T>& ctx) {
  HullCandidates<T> set;
  clip_faces(solid, face, shape, /*ref_is_second=*/true, ctx.margin, set);
  return emit_reduced(ctx, set, 4);
}

template <class T>
int collide_box_mesh(const Geom& box, const GeomPoseT<T>& pb, const Geom& mesh, const GeomPoseT<T>& pm,
                     const PairContextT<T>& ctx) {
  return collide_polytopes(box_polytope(box, pb), mesh_polytope(mesh, pm), ctx);
}

template <class T>
int collide_mesh_mesh(const Geom& m1, const GeomPoseT<T>& p1, const Geom& m2, const GeomPoseT<T>& p2,
                      const PairContextT<T>& ctx) {
  return collide_polytopes(mesh_polytope(m1, p1), mesh_polytope(m2, p2), ctx);
}

template <class T>
int collide_capsule_mesh(const Geom& cap, const GeomPoseT<T>& pc, const Geom& mesh, const GeomPoseT<T>& pm,
                         const PairContextT<T>& ctx) {
  return collide_capsule_polytope(cap, pc, mesh_polytope(mesh, pm), ctx);
}

template <class T>
int collide_capsule_polytope(const Geom& cap, const GeomPoseT<T>& pc, const PolytopeT<T>& P,
                             const PairContextT<T>& ctx) {
  using std::abs;
  const Real r = cap.size.x();
  const SegmentT<T> seg = axis_segment(pc, cap.size.y());
  // The signed distance to a convex solid is convex along the axis.
  const T t = argmin_01_t<T>([&](const T& s) { return point_polytope<T>(P, seg.at(s)).dist; }, 2 * cap.size.y());
  const Vec3T<T> c_W = seg.at(t);
  int face = -1;
  const PointQueryT<T> q = point_polytope<T>(P, c_W, &face);
  if (!(q.dist - T(r) < T(ctx.margin))) return 0;
  // Lying flat on a face: the two ends of the part of the axis over the face.
  const T len = seg.d_W.norm();
  if (face >= 0 && len > T(kTinyLength)) {
    const Vec3T<T> n = P.normal_W(face);
    if (abs(seg.d_W.dot(n)) <= T(kFlatSin) * len && abs(q.normal_W.dot(n)) > T(1 - 1e-9)) {
      T lo = T(0), hi = T(1);
      const int m = P.hull->face_size(face);
      bool ok = true;
      for (int e = 0; e < m && ok; ++e) {
        const Vec3T<T> a = P.face_vertex_W(face, e), b = P.face_vertex_W(face, (e + 1) % m);
        const Vec3T<T> w = (b - a).cross(n);
        // w . (p0 + t d - a) <= 0
        const T x0 = w.dot(seg.p0_W - a), dx = w.dot(seg.d_W);
        if (abs(dx) <= T(kTinyLength)) {
          if (x0 > T(0)) ok = false;
        } else if (dx > T(0)) {
          hi = std::min(hi, T(-x0 / dx));
        } else {
          lo = std::max(lo, T(-x0 / dx));
        }
        if (lo > hi) ok = false;
      }
      if (ok && (hi - lo) * len >= T(kMinSpread)) {
        const T off = P.offset_W(face);
        const T ends[2] = {lo, hi};
        T gap[2];
        Vec3T<T> pt[2];
        bool both = true;
        for (int k = 0; k < 2; ++k) {
          const Vec3T<T> s = seg.at(ends[k]);
          const T h = n.dot(s) - off;  // axis height over the face
          gap[k] = h - T(r);
          pt[k] = s - (T(r) + T(0.5) * gap[k]) * n;
          if (!(gap[k] < T(ctx.margin))) both = false;
        }
        if (both) {
          int count = 0;
          // Normal from the capsule to the mesh: into the face.
          for (int k = 0; k < 2; ++k) count += emit(ctx, pt[k], Vec3T<T>(-n), gap[k]);
          return count;
        }
      }
    }
  }
  return emit_ball_vs_query(ctx, q, c_W, r, /*shape_first=*/false);
}

#define CONTACTLAB_HULL_INSTANCES(T)                                                                            \
  template int collide_plane_mesh<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,          \
                                     const PairContextT<T>&);                                                     \
  template int collide_sphere_mesh<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,         \
                                      const PairContextT<T>&);                                                    \
  template int collide_box_mesh<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,            \
                                   const PairContextT<T>&);                                                       \
  template int collide_capsule_mesh<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,        \
                                       const PairContextT<T>&);                                                   \
  template int collide_mesh_mesh<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,           \
                                    const PairContextT<T>&);                                                      \
  template int collide_sphere_polytope<T>(const Geom&, const GeomPoseT<T>&, const PolytopeT<T>&,                  \
                                          const PairContextT<T>&);                                                \
  template int collide_capsule_polytope<T>(const Geom&, const GeomPoseT<T>&, const PolytopeT<T>&,                 \
                                           const PairContextT<T>&);                                               \
  template int collide_polytope_on_face<T>(const PolytopeT<T>&, const PolytopeT<T>&, int, const PairContextT<T>&);
CONTACTLAB_HULL_INSTANCES(Real)
CONTACTLAB_HULL_INSTANCES(Dual)
#undef CONTACTLAB_HULL_INSTANCES

}  // namespace collision_detail
}  // namespace contactlab
