// Narrow-phase entry point: orders the pair, dispatches to the pair routine and
// owns the output stage every routine shares (emit, manifold reduction).
#include "geometry/collision.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/collision_detail.hpp"
#include "geometry/convex_hull.hpp"

namespace contactlab {
namespace collision_detail {

template <class T>
int emit(const PairContextT<T>& ctx, const DeducedVec3<T>& point_W, const DeducedVec3<T>& normal_W, const DeducedScalar<T>& gap) {
  if (!(gap < T(ctx.margin))) return 0;  // written this way round so a NaN gap is rejected too
  ContactT<T> c;
  c.geom1 = ctx.geom1;
  c.geom2 = ctx.geom2;
  c.body1 = ctx.body1;
  c.body2 = ctx.body2;
  c.point_W = point_W;
  c.normal_W = ctx.flip ? Vec3T<T>(-normal_W) : normal_W;
  tangent_basis_t<T>(c.normal_W, c.tangent1_W, c.tangent2_W);
  c.gap = gap;
  c.friction = T(ctx.friction);
  ctx.out->push_back(c);
  return 1;
}

template <class T>
int emit_balls(const PairContextT<T>& ctx, const DeducedVec3<T>& ca_W, Real ra, const DeducedVec3<T>& cb_W, Real rb) {
  const Vec3T<T> d_W = cb_W - ca_W;
  const T dist = d_W.norm();
  const Vec3T<T> n_W = dist > T(kTinyLength) ? Vec3T<T>(d_W / dist) : Vec3T<T>(Vec3T<T>::UnitZ());
  const Vec3T<T> sa_W = ca_W + T(ra) * n_W;  // surface points of a and b
  const Vec3T<T> sb_W = cb_W - T(rb) * n_W;
  return emit(ctx, Vec3T<T>(T(0.5) * (sa_W + sb_W)), n_W, T(dist - T(ra) - T(rb)));
}

template <class T>
int emit_ball_vs_query(const PairContextT<T>& ctx, const PointQueryT<T>& q, const DeducedVec3<T>& centre_W, Real radius,
                       bool shape_first) {
  const Vec3T<T> ball_surface_W = centre_W - T(radius) * q.normal_W;
  const Vec3T<T> point_W = T(0.5) * (q.surface_W + ball_surface_W);
  return emit(ctx, point_W, shape_first ? q.normal_W : Vec3T<T>(-q.normal_W), T(q.dist - T(radius)));
}

// Gap difference (m) below which two candidates count as equally deep: far
// above rounding (~1e-16 m), far below any physical depth difference.
constexpr Real kGapTie = 1e-12;

template <class T, int Cap>
int emit_reduced(const PairContextT<T>& ctx, const CandidateSetT<T, Cap>& set, int max_points) {
  using std::abs;
  max_points = std::max(1, std::min(max_points, 4));
  if (set.n == 0) return 0;
  // Candidates often repeat a point (a rim sample on a support line, a clipped
  // vertex on a corner), so the selection runs even for <= max_points: a
  // point that adds no spread is dropped. Scores within kMinSliver of each
  // other go to the deeper candidate, so a near-duplicate never displaces the
  // deeper (usually exact) copy.
  // Depths equal to rounding (the same point found by two candidates, e.g. a
  // refined rim point and a support line's end) go to the later candidate
  // (i > j here; the routines add the exact features, support lines and
  // edges, after the rim points), so that rounding never switches between
  // them (their derivatives differ). Giving them to the earlier one put a
  // rim point in place of the line's end on wheeled_pallet and its forward
  // sank 2.1 cm (backward Euler, h = 0.05 s).
  auto deeper = [&](int i, int j) { return set.c[i].gap < set.c[j].gap + T(kGapTie); };
  auto better = [&](const T& score, const T& best_score, int i, int best) {
    const T tol = T(kMinSliver) * best_score;
    if (score > best_score + tol) return true;
    return best >= 0 && score > best_score - tol && deeper(i, best);
  };
  int chosen[4];  // (nchosen) indices into set.c
  int nchosen = 0;
  // Deepest first: it carries the penetration the solver must resolve.
  int deepest = 0;
  for (int i = 1; i < set.n; ++i)
    if (deeper(i, deepest)) deepest = i;
  chosen[nchosen++] = deepest;
  // Spread is measured in the contact plane of the deepest point.
  const Vec3T<T> N = set.c[deepest].normal_W;
  auto in_plane = [&](const Vec3T<T>& v) -> Vec3T<T> { return v - N * N.dot(v); };
  const Vec3T<T> p1 = set.c[deepest].point_W;

  if (nchosen < max_points) {  // farthest from the deepest
    int best = -1;
    T best_d2 = T(kMinSpread * kMinSpread);
    for (int i = 0; i < set.n; ++i) {
      const T d2 = in_plane(set.c[i].point_W - p1).squaredNorm();
      if (d2 > T(kMinSpread * kMinSpread) && better(d2, best_d2, i, best)) { best_d2 = d2; best = i; }
    }
    if (best >= 0) chosen[nchosen++] = best;
  }
  Real orientation = 1;  // sign that makes the chosen triangle counter-clockwise about N
  if (nchosen == 2 && nchosen < max_points) {  // largest triangle
    const Vec3T<T> p2 = set.c[chosen[1]].point_W;
    // A point must stand off the current edge(s) by kMinSpread and by
    // kMinSliver of their length to count: a sliver adds no stability but
    // nearly duplicates a row of the contact problem (ill-conditioned).
    const T base = in_plane(p2 - p1).norm();
    const T min_area = std::max(T(kMinSpread), T(kMinSliver) * base) * base;
    int best = -1;
    T best_area = min_area;
    for (int i = 0; i < set.n; ++i) {
      const T area = (p2 - p1).cross(set.c[i].point_W - p1).dot(N);
      if (abs(area) > min_area && better(abs(area), best_area, i, best)) {
        best_area = abs(area);
        best = i;
        orientation = area > T(0) ? 1 : -1;
      }
    }
    if (best >= 0) chosen[nchosen++] = best;
  }
  if (nchosen == 3 && nchosen < max_points) {  // largest growth of the hull
    const Vec3T<T> tri[3] = {set.c[chosen[0]].point_W, set.c[chosen[1]].point_W, set.c[chosen[2]].point_W};
    const T edge = std::max({in_plane(tri[1] - tri[0]).norm(), in_plane(tri[2] - tri[1]).norm(),
                             in_plane(tri[0] - tri[2]).norm()});
    const T min_gain = std::max(T(kMinSpread), T(kMinSliver) * edge) * edge;
    int best = -1;
    T best_gain = min_gain;
    for (int i = 0; i < set.n; ++i) {
      const Vec3T<T>& q = set.c[i].point_W;
      // Outside an edge the hull grows by the triangle (edge, q); summing over
      // the edges q sees gives the new hull area minus the old.
      T gain = T(0);
      for (int e = 0; e < 3; ++e) {
        const Vec3T<T>& a = tri[e];
        const Vec3T<T>& b = tri[(e + 1) % 3];
        const T s = T(orientation) * (b - a).cross(q - a).dot(N);
        if (s < T(0)) gain -= s;
      }
      if (gain > min_gain && better(gain, best_gain, i, best)) { best_gain = gain; best = i; }
    }
    if (best >= 0) chosen[nchosen++] = best;
  }
  int count = 0;
  for (int k = 0; k < nchosen; ++k) {
    const CandidateT<T>& c = set.c[chosen[k]];
    count += emit(ctx, c.point_W, c.normal_W, c.gap);
  }
  return count;
}

#define CONTACTLAB_EMIT_INSTANCES(T)                                                                          \
  template int emit<T>(const PairContextT<T>&, const DeducedVec3<T>&, const DeducedVec3<T>&, const DeducedScalar<T>&);                 \
  template int emit_balls<T>(const PairContextT<T>&, const DeducedVec3<T>&, Real, const DeducedVec3<T>&, Real);          \
  template int emit_ball_vs_query<T>(const PairContextT<T>&, const PointQueryT<T>&, const DeducedVec3<T>&, Real, bool); \
  template int emit_reduced<T, 96>(const PairContextT<T>&, const CandidateSetT<T, 96>&, int);                  \
  template int emit_reduced<T, 128>(const PairContextT<T>&, const CandidateSetT<T, 128>&, int);                \
  template int emit_reduced<T, 2 * kMaxHullFaceVertices + 8>(                                                 \
      const PairContextT<T>&, const CandidateSetT<T, 2 * kMaxHullFaceVertices + 8>&, int);
CONTACTLAB_EMIT_INSTANCES(Real)
CONTACTLAB_EMIT_INSTANCES(Dual)
#undef CONTACTLAB_EMIT_INSTANCES

}  // namespace collision_detail

namespace {

using namespace collision_detail;

constexpr int kNumTypes = 7;
int type_index(GeomType t) { return static_cast<int>(t); }
constexpr int pair_key(GeomType a, GeomType b) { return static_cast<int>(a) * kNumTypes + static_cast<int>(b); }

}  // namespace

bool pair_supported(GeomType a, GeomType b) {
  // Every pair has a routine except those of two static types (plane,
  // height field), which never need one. A pair a future geom type lacks
  // must be refused at load by check_pairs_supported, never skipped.
  const bool static_a = a == GeomType::Plane || a == GeomType::HField;
  const bool static_b = b == GeomType::Plane || b == GeomType::HField;
  return !(static_a && static_b);
}

bool pair_closed_form(GeomType a, GeomType b) {
  // Every routine runs over the scalar type: the searched minimisers are made
  // exact and differentiable by argmin_01_t (geometry/argmin_pullback.hpp).
  (void)a;
  (void)b;
  return true;
}

template <class T>
int collide_geoms_t(const Geom& a, const GeomPoseT<T>& pa, int id_a, const Geom& b, const GeomPoseT<T>& pb, int id_b,
                    Real margin, std::vector<ContactT<T>>& out) {
  PairContextT<T> ctx;
  ctx.geom1 = id_a;
  ctx.geom2 = id_b;
  ctx.body1 = a.body;
  ctx.body2 = b.body;
  ctx.friction = std::max(a.friction, b.friction);
  ctx.margin = std::max(margin, Real(0));
  ctx.out = &out;
  // Routines take their geoms in enum order; swap and let emit() flip the normal back.
  ctx.flip = type_index(a.type) > type_index(b.type);
  const Geom& g1 = ctx.flip ? b : a;
  const Geom& g2 = ctx.flip ? a : b;
  const GeomPoseT<T>& p1 = ctx.flip ? pb : pa;
  const GeomPoseT<T>& p2 = ctx.flip ? pa : pb;

  switch (pair_key(g1.type, g2.type)) {
    case pair_key(GeomType::Plane, GeomType::Sphere): return collide_plane_sphere(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Plane, GeomType::Box): return collide_plane_box(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Plane, GeomType::Capsule): return collide_plane_capsule(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Plane, GeomType::Cylinder): return collide_plane_cylinder(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Sphere, GeomType::Sphere): return collide_sphere_sphere(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Sphere, GeomType::Box): return collide_sphere_box(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Sphere, GeomType::Capsule): return collide_sphere_capsule(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Sphere, GeomType::Cylinder): return collide_sphere_cylinder(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Box, GeomType::Box): return collide_box_box(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Capsule, GeomType::Capsule): return collide_capsule_capsule(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Box, GeomType::Capsule): return collide_box_capsule(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Box, GeomType::Cylinder): return collide_box_cylinder(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Capsule, GeomType::Cylinder): return collide_capsule_cylinder(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Cylinder, GeomType::Cylinder): return collide_cylinder_cylinder(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Plane, GeomType::Mesh): return collide_plane_mesh(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Sphere, GeomType::Mesh): return collide_sphere_mesh(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Box, GeomType::Mesh): return collide_box_mesh(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Capsule, GeomType::Mesh): return collide_capsule_mesh(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Cylinder, GeomType::Mesh): return collide_cylinder_mesh(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Mesh, GeomType::Mesh): return collide_mesh_mesh(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Sphere, GeomType::HField):
    case pair_key(GeomType::Box, GeomType::HField):
    case pair_key(GeomType::Capsule, GeomType::HField):
    case pair_key(GeomType::Cylinder, GeomType::HField):
    case pair_key(GeomType::Mesh, GeomType::HField): return collide_geom_hfield(g1, p1, g2, p2, ctx);
    default: return 0;  // two static geoms (plane, height field): never a pair
  }
}

template int collide_geoms_t<Real>(const Geom&, const GeomPoseT<Real>&, int, const Geom&, const GeomPoseT<Real>&, int,
                                   Real, std::vector<ContactT<Real>>&);
template int collide_geoms_t<Dual>(const Geom&, const GeomPoseT<Dual>&, int, const Geom&, const GeomPoseT<Dual>&, int,
                                   Real, std::vector<ContactT<Dual>>&);

int collide_geoms(const Geom& a, const GeomPose& pa, int id_a, const Geom& b, const GeomPose& pb, int id_b,
                  Real margin, std::vector<Contact>& out) {
  return collide_geoms_t<Real>(a, pa, id_a, b, pb, id_b, margin, out);
}

}  // namespace contactlab
