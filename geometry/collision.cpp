// Narrow-phase entry point: orders the pair, dispatches to the pair routine and
// owns the output stage every routine shares (emit, manifold reduction).
#include "geometry/collision.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

int emit(const PairContext& ctx, const Vec3& point_W, const Vec3& normal_W, Real gap) {
  if (!(gap < ctx.margin)) return 0;  // written this way round so a NaN gap is rejected too
  Contact c;
  c.geom1 = ctx.geom1;
  c.geom2 = ctx.geom2;
  c.body1 = ctx.body1;
  c.body2 = ctx.body2;
  c.point_W = point_W;
  c.normal_W = ctx.flip ? Vec3(-normal_W) : normal_W;
  tangent_basis(c.normal_W, c.tangent1_W, c.tangent2_W);
  c.gap = gap;
  c.friction = ctx.friction;
  ctx.out->push_back(c);
  return 1;
}

int emit_balls(const PairContext& ctx, const Vec3& ca_W, Real ra, const Vec3& cb_W, Real rb) {
  const Vec3 d_W = cb_W - ca_W;
  const Real dist = d_W.norm();
  const Vec3 n_W = dist > kTinyLength ? Vec3(d_W / dist) : Vec3(Vec3::UnitZ());
  const Vec3 sa_W = ca_W + ra * n_W;  // surface points of a and b
  const Vec3 sb_W = cb_W - rb * n_W;
  return emit(ctx, 0.5 * (sa_W + sb_W), n_W, dist - ra - rb);
}

int emit_ball_vs_query(const PairContext& ctx, const PointQuery& q, const Vec3& centre_W, Real radius,
                       bool shape_first) {
  const Vec3 ball_surface_W = centre_W - radius * q.normal_W;
  const Vec3 point_W = 0.5 * (q.surface_W + ball_surface_W);
  return emit(ctx, point_W, shape_first ? q.normal_W : Vec3(-q.normal_W), q.dist - radius);
}

int emit_reduced(const PairContext& ctx, const CandidateSet& set, int max_points) {
  max_points = std::max(1, std::min(max_points, 4));
  if (set.n == 0) return 0;
  // Candidates often repeat a point (a rim sample on a support line, a clipped
  // vertex on a corner), so the selection runs even for <= max_points: a
  // point that adds no spread is dropped. Scores within kMinSliver of each
  // other go to the deeper candidate, so a near-duplicate never displaces the
  // deeper (usually exact) copy.
  auto better = [&](Real score, Real best_score, int i, int best) {
    const Real tol = kMinSliver * best_score;
    if (score > best_score + tol) return true;
    return best >= 0 && score > best_score - tol && set.c[i].gap < set.c[best].gap;
  };
  int chosen[4];  // (nchosen) indices into set.c
  int nchosen = 0;
  // Deepest first: it carries the penetration the solver must resolve.
  int deepest = 0;
  for (int i = 1; i < set.n; ++i)
    if (set.c[i].gap < set.c[deepest].gap) deepest = i;
  chosen[nchosen++] = deepest;
  // Spread is measured in the contact plane of the deepest point.
  const Vec3 N = set.c[deepest].normal_W;
  auto in_plane = [&](const Vec3& v) -> Vec3 { return v - N * N.dot(v); };
  const Vec3 p1 = set.c[deepest].point_W;

  if (nchosen < max_points) {  // farthest from the deepest
    int best = -1;
    Real best_d2 = kMinSpread * kMinSpread;
    for (int i = 0; i < set.n; ++i) {
      const Real d2 = in_plane(set.c[i].point_W - p1).squaredNorm();
      if (d2 > kMinSpread * kMinSpread && better(d2, best_d2, i, best)) { best_d2 = d2; best = i; }
    }
    if (best >= 0) chosen[nchosen++] = best;
  }
  Real orientation = 1;  // sign that makes the chosen triangle counter-clockwise about N
  if (nchosen == 2 && nchosen < max_points) {  // largest triangle
    const Vec3 p2 = set.c[chosen[1]].point_W;
    // A point must stand off the current edge(s) by kMinSpread and by
    // kMinSliver of their length to count: a sliver adds no stability but
    // nearly duplicates a row of the contact problem (ill-conditioned).
    const Real base = in_plane(p2 - p1).norm();
    const Real min_area = std::max(kMinSpread, kMinSliver * base) * base;
    int best = -1;
    Real best_area = min_area;
    for (int i = 0; i < set.n; ++i) {
      const Real area = (p2 - p1).cross(set.c[i].point_W - p1).dot(N);
      if (std::abs(area) > min_area && better(std::abs(area), best_area, i, best)) {
        best_area = std::abs(area);
        best = i;
        orientation = area > 0 ? 1 : -1;
      }
    }
    if (best >= 0) chosen[nchosen++] = best;
  }
  if (nchosen == 3 && nchosen < max_points) {  // largest growth of the hull
    const Vec3 tri[3] = {set.c[chosen[0]].point_W, set.c[chosen[1]].point_W, set.c[chosen[2]].point_W};
    const Real edge = std::max({in_plane(tri[1] - tri[0]).norm(), in_plane(tri[2] - tri[1]).norm(),
                                in_plane(tri[0] - tri[2]).norm()});
    const Real min_gain = std::max(kMinSpread, kMinSliver * edge) * edge;
    int best = -1;
    Real best_gain = min_gain;
    for (int i = 0; i < set.n; ++i) {
      const Vec3& q = set.c[i].point_W;
      // Outside an edge the hull grows by the triangle (edge, q); summing over
      // the edges q sees gives the new hull area minus the old.
      Real gain = 0;
      for (int e = 0; e < 3; ++e) {
        const Vec3& a = tri[e];
        const Vec3& b = tri[(e + 1) % 3];
        const Real s = orientation * (b - a).cross(q - a).dot(N);
        if (s < 0) gain -= s;
      }
      if (gain > min_gain && better(gain, best_gain, i, best)) { best_gain = gain; best = i; }
    }
    if (best >= 0) chosen[nchosen++] = best;
  }
  int count = 0;
  for (int k = 0; k < nchosen; ++k) {
    const Candidate& c = set.c[chosen[k]];
    count += emit(ctx, c.point_W, c.normal_W, c.gap);
  }
  return count;
}

}  // namespace collision_detail

namespace {

using namespace collision_detail;

constexpr int kNumTypes = 5;
int type_index(GeomType t) { return static_cast<int>(t); }
constexpr int pair_key(GeomType a, GeomType b) { return static_cast<int>(a) * kNumTypes + static_cast<int>(b); }

}  // namespace

bool pair_supported(GeomType a, GeomType b) {
  // Every pair of the five primitives has a routine except plane-plane
  // (planes are static and infinite).
  return !(a == GeomType::Plane && b == GeomType::Plane);
}

bool pair_closed_form(GeomType a, GeomType b) {
  auto is = [&](GeomType x, GeomType y) { return (a == x && b == y) || (a == y && b == x); };
  return !(is(GeomType::Capsule, GeomType::Box) || is(GeomType::Capsule, GeomType::Cylinder) ||
           is(GeomType::Box, GeomType::Cylinder) || is(GeomType::Cylinder, GeomType::Cylinder));
}

int collide_geoms(const Geom& a, const GeomPose& pa, int id_a, const Geom& b, const GeomPose& pb, int id_b,
                  Real margin, std::vector<Contact>& out) {
  PairContext ctx;
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
  const GeomPose& p1 = ctx.flip ? pb : pa;
  const GeomPose& p2 = ctx.flip ? pa : pb;

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
    case pair_key(GeomType::Box, GeomType::Capsule): return collide_box_capsule(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Box, GeomType::Cylinder): return collide_box_cylinder(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Capsule, GeomType::Capsule): return collide_capsule_capsule(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Capsule, GeomType::Cylinder): return collide_capsule_cylinder(g1, p1, g2, p2, ctx);
    case pair_key(GeomType::Cylinder, GeomType::Cylinder): return collide_cylinder_cylinder(g1, p1, g2, p2, ctx);
    default: return 0;  // plane-plane
  }
}

}  // namespace contactlab
