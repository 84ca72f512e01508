// A convex polytope (a box, a mesh geom's hull, a terrain prism) against a
// cylinder: wheels on boxes, meshes and terrain. One algorithm over two views
// of the polytope: the box view keeps box-specific arithmetic (its face rectangles,
// corners and three edge directions), the hull view works from the hull's
// face loops, vertices and edges. What the algorithm approximates is stated
// on collide_convex_cylinder below.
#include <algorithm>
#include <cmath>

#include "geometry/cylinder_features.hpp"
#include "geometry/hull_query.hpp"

namespace contactlab {
namespace collision_detail {

namespace {

// Rounding slack (m) when a depth is compared with an overlap: far below any
// contact depth, far above the rounding of either (~1e-15 m).
constexpr Real kOverlapSlack = 1e-9;

// The box as the routine sees it.
template <class T>
struct BoxView {
  const GeomPoseT<T>& pose;
  const Vec3& half;

  bool beyond_bounds(const CylFrame<T>& cy, Real margin) const {
    return value_of((cy.c_W - pose.pos_W).norm()) >= half.norm() + std::hypot(cy.r, cy.h) + margin;
  }
  PointQueryT<T> query(const Vec3T<T>& p_W) const { return point_box<T>(p_W, pose, half); }
  // Overlap of the two projections on the unit axis L.
  T overlap(const CylFrame<T>& cy, const Vec3T<T>& L) const {
    using std::abs;
    const Vec3T<T> d_W = cy.c_W - pose.pos_W;
    return T(box_support_radius(pose.R_WG, half, L) + cylinder_support_radius_t(cy.axis_W, cy.r, cy.h, L) -
             abs(d_W.dot(L)));
  }
  // L, or -L when the cylinder lies on L's negative side.
  Vec3T<T> towards_cylinder(const CylFrame<T>& cy, const Vec3T<T>& L) const {
    return L.dot(cy.c_W - pose.pos_W) < T(0) ? Vec3T<T>(-L) : L;
  }
  T top(const Vec3T<T>& ref_W) const { return ref_W.dot(pose.pos_W) + box_support_radius(pose.R_WG, half, ref_W); }
  // The reference is chosen (below), not fixed.
  bool fixed_reference(const CylFrame<T>&, Vec3T<T>&, T&) const { return false; }
  int num_face_axes() const { return 3; }  // the reference candidates (both senses)
  Vec3T<T> face_axis(int i) const { return pose.R_WG.col(i); }
  int num_faces() const { return 6; }
  Vec3T<T> face_normal(int face) const { return T(face % 2 == 0 ? 1 : -1) * pose.R_WG.col(face / 2); }
  // Shrinks [lo, hi] to the part of `line` over the face's rectangle.
  bool clip_to_face(int face, const SegmentT<T>& line, T& lo, T& hi) const {
    const int ax = face / 2;
    const Vec3T<T> q0 = pose.R_WG.transpose() * (line.p0_W - pose.pos_W);
    const Vec3T<T> dq = pose.R_WG.transpose() * line.d_W;
    bool hit = true;
    for (int j = 0; j < 3 && hit; ++j)
      if (j != ax) hit = clip_to_slab(q0(j), dq(j), half(j), lo, hi);
    return hit;
  }
  // Height of p over the face; false for a point past the box's mid-plane
  // (it has gone through: this face is no longer its way out) or deeper
  // below the face than the shapes overlap along the reference (why: the
  // hull view's).
  bool face_gap(int face, const Vec3T<T>& p_W, const T& least_overlap, T& gap) const {
    const T height = face_normal(face).dot(p_W - pose.pos_W);
    if (height < T(0)) return false;
    gap = height - T(half(face / 2));
    return !(-gap > least_overlap + T(kOverlapSlack));
  }
  int num_vertices() const { return 8; }
  Vec3T<T> vertex(int k) const {
    return pose.pos_W + pose.R_WG * Vec3T<T>(T((k & 1) ? half.x() : -half.x()), T((k & 2) ? half.y() : -half.y()),
                                             T((k & 4) ? half.z() : -half.z()));
  }
  int num_edges() const { return 12; }
  // Edge i: along axis i / 4, at the corner offsets of bits i % 4.
  SegmentT<T> edge(int i) const {
    const int ax = i / 4, k = i % 4, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    Vec3 mid = Vec3::Zero();  // edge midpoint, box axes
    mid(a1) = (k & 1) ? half(a1) : -half(a1);
    mid(a2) = (k & 2) ? half(a2) : -half(a2);
    return SegmentT<T>{Vec3T<T>(pose.pos_W + pose.R_WG * mid.cast<T>() - T(half(ax)) * pose.R_WG.col(ax)),
                       Vec3T<T>(T(2 * half(ax)) * pose.R_WG.col(ax))};
  }
  Real edge_length(int i) const { return 2 * half(i / 4); }
};

// A hull (a mesh geom's, or a terrain prism) as the routine sees it. A
// terrain prism (P.terrain) offers only its top triangle (face 0:
// geometry/hfield_prism.hpp) and pushes only along that triangle's normal:
// its walls and floor lie under the neighbouring triangles, and contacts on
// them would push sideways where the terrain is continuous.
template <class T>
struct HullView {
  const PolytopeT<T>& P;

  bool beyond_bounds(const CylFrame<T>& cy, Real margin) const {
    return value_of((cy.c_W - P.pose.pos_W).norm()) >=
           P.hull->bounding_radius * P.scale.maxCoeff() + std::hypot(cy.r, cy.h) + margin;
  }
  PointQueryT<T> query(const Vec3T<T>& p_W) const { return point_polytope<T>(P, p_W); }
  // The projections [lo, hi] of the hull and [c - s, c + s] of the cylinder.
  void intervals(const CylFrame<T>& cy, const Vec3T<T>& L, T& below, T& above) const {
    T lo, hi;
    project(P, L, lo, hi);
    const T c = L.dot(cy.c_W), s = cylinder_support_radius_t(cy.axis_W, cy.r, cy.h, L);
    above = hi - (c - s);  // overlap with the cylinder on L's positive side
    below = (c + s) - lo;  // ... on its negative side
  }
  T overlap(const CylFrame<T>& cy, const Vec3T<T>& L) const {
    T below, above;
    intervals(cy, L, below, above);
    return std::min(below, above);
  }
  Vec3T<T> towards_cylinder(const CylFrame<T>& cy, const Vec3T<T>& L) const {
    T below, above;
    intervals(cy, L, below, above);
    return above <= below ? L : Vec3T<T>(-L);
  }
  T top(const Vec3T<T>& ref_W) const {
    T lo, hi;
    project(P, ref_W, lo, hi);
    return hi;
  }
  bool fixed_reference(const CylFrame<T>& cy, Vec3T<T>& ref_W, T& overlap) const {
    if (!P.terrain) return false;
    ref_W = P.normal_W(0);
    T below, above;
    intervals(cy, ref_W, below, above);
    overlap = above;  // the cylinder over the triangle's plane, pushed up out of it
    return true;
  }
  int num_face_axes() const { return P.hull->num_faces(); }
  Vec3T<T> face_axis(int f) const { return P.normal_W(f); }
  int num_faces() const { return P.terrain ? 1 : P.hull->num_faces(); }
  Vec3T<T> face_normal(int f) const { return P.normal_W(f); }
  // The face's polygon as half-planes: w_e . (p - a_e) <= 0 per edge.
  bool clip_to_face(int f, const SegmentT<T>& line, T& lo, T& hi) const {
    using std::abs;
    const Vec3T<T> n = P.normal_W(f);
    const int m = P.hull->face_size(f);
    for (int e = 0; e < m; ++e) {
      const Vec3T<T> a = P.face_vertex_W(f, e), b = P.face_vertex_W(f, (e + 1) % m);
      const Vec3T<T> w = (b - a).cross(n);  // outward in the face plane (counter-clockwise loop)
      const T x0 = w.dot(line.p0_W - a), dx = w.dot(line.d_W);
      if (abs(dx) <= T(kTinyLength)) {
        if (x0 > T(0)) return false;
      } else if (dx > T(0)) {
        hi = std::min(hi, T(-x0 / dx));
      } else {
        lo = std::max(lo, T(-x0 / dx));
      }
      if (lo > hi) return false;
    }
    return true;
  }
  // As the box's: height of p over the face; false past the middle of the
  // hull's extent along the face normal, or when p lies deeper below the
  // face than the shapes overlap along the reference direction. The second
  // test matters on any polytope: the support line can pass under the face
  // from a side the cylinder barely touches (the prism over a face reaches
  // under its neighbours), and measuring it to this face's plane would
  // report a depth the shapes do not have (up to 0.27 m for a wheel of
  // radius 0.2 on a box without the test; the rim points' reference slab
  // measures such points instead; tests/geometry/test_mesh_cylinder.cpp).
  bool face_gap(int f, const Vec3T<T>& p_W, const T& least_overlap, T& gap) const {
    const Vec3T<T> n = P.normal_W(f);
    T lo, hi;
    project(P, n, lo, hi);
    if (n.dot(p_W) < T(0.5) * (lo + hi)) return false;
    gap = n.dot(p_W) - P.offset_W(f);
    return !(-gap > least_overlap + T(kOverlapSlack));
  }
  // A terrain triangle's corners and edges are not features: inside the
  // cylinder they would be measured along the triangle's normal and carry the
  // cylinder's depth to a point off its lowest line (a rolling resistance
  // where the surface is smooth); its rim against the side is the axis
  // point's contact, kept where the rim is a convex ridge (collide_hfield.cpp).
  int num_vertices() const { return P.terrain ? 0 : P.num_vertices(); }
  Vec3T<T> vertex(int k) const { return P.vertex_W(k); }
  int num_edges() const { return P.terrain ? 0 : static_cast<int>(P.hull->edges.size()); }
  SegmentT<T> edge(int i) const {
    const Vec3T<T> a = P.vertex_W(P.hull->edges[i][0]);
    return SegmentT<T>{a, Vec3T<T>(P.vertex_W(P.hull->edges[i][1]) - a)};
  }
  Real edge_length(int i) const { return value_of(edge(i).d_W.norm()); }
};

// Approximation: contacts are found at sampled features, not by an exact
// convex-convex distance:
//  1. cylinder points against the polytope:
//     - 8 points on each cap rim plus, per cap, the rim point of least signed
//       distance to the polytope found by a local search next to the best
//       sample: a cap flat on a face, a rim digging into a face or crossing
//       an edge;
//     - for each face, the cylinder's support line towards that face (the
//       line a wheel rests on) clipped to the face's polygon, measured to
//       that face's plane: exact for a cylinder side lying on a face, for any
//       roll angle and also when the cylinder overhangs the face;
//  2. polytope points against the cylinder:
//     - the vertices, by signed distance to the cylinder;
//     - an edge (nearly) parallel to the axis (a wheel climbing over a box
//       edge): the two ends of its part between the cap planes, measured
//       radially to the side, so the line contact gets two exact points;
//     - any other edge: its point closest to (or deepest in) the cylinder, by
//       minimising the signed distance along it (an edge crossing under the
//       side, or passing through the cylinder);
//  3. the axis segment's closest (or deepest) point to the polytope, as for a
//     capsule: exact for the side against an edge or corner, and the one
//     contact of a cylinder piercing a plate (depth estimated as below).
// Reference direction: of the face normals, the cylinder axis and the line
// from the polytope to the nearest axis point, the one of least overlap, as
// in a separating-axis test. A sample that penetrates the other shape is
// measured to that shape's support plane along the reference (slab_query),
// so the manifold shares one normal and no depth exceeds that least overlap;
// samples outside keep their exact signed distance.
// Approximate: the depths of penetrating samples (exact when the reference is
// the face or the side the sample is pushed out of, e.g. a cap on a face or a
// wheel on a face or an edge); the rim search is local (one arc per cap, next
// to the best sample), so of two separate rim crossings on one cap only the
// deeper is refined (the other keeps the sample error, up to
// r (1 - cos(pi/8)) ~ 0.08 r). At most 4 points are kept: the deepest and the
// most spread. Normals point from the polytope to the cylinder.
template <class T, class View>
int collide_convex_cylinder(const View& X, const Geom& cyl, const GeomPoseT<T>& py, const PairContextT<T>& ctx) {
  using std::abs;
  const CylFrame<T> cy = cyl_frame(cyl, py);
  const Real margin = ctx.margin;
  // Bounding spheres first: most pairs the broad phase passes are apart.
  if (X.beyond_bounds(cy, margin)) return 0;
  // The axis point closest to (or deepest in) the polytope, as for a capsule.
  const SegmentT<T> axis = axis_segment(py, cy.h);
  const T t_axis = argmin_01_t<T>([&](const T& s) { return X.query(axis.at(s)).dist; }, 2 * cy.h);
  const Vec3T<T> axis_pt_W = axis.at(t_axis);
  const PointQueryT<T> axis_q = X.query(axis_pt_W);

  // Reference direction (polytope to cylinder): of the face axes, the
  // cylinder axis and the line from the polytope to the nearest axis point
  // (side against an edge or corner), the one of least overlap
  // (separating-axis style).
  Vec3T<T> ref_W = cy.axis_W;
  T best_overlap = T(0);
  const bool fixed = X.fixed_reference(cy, ref_W, best_overlap);
  if (!fixed) {
    best_overlap = X.overlap(cy, ref_W);
    for (int i = 0; i <= X.num_face_axes(); ++i) {
      const bool last = i == X.num_face_axes();
      if (last && !(axis_q.dist > T(0))) break;  // axis inside the polytope: no such line
      const Vec3T<T> L = last ? axis_q.normal_W : X.face_axis(i);
      const T overlap = X.overlap(cy, L);
      if (overlap < best_overlap) { best_overlap = overlap; ref_W = L; }
    }
  }
  // Apart by at least the margin along some axis: no contact.
  if (best_overlap <= T(-margin)) return 0;
  if (!fixed) ref_W = X.towards_cylinder(cy, ref_W);
  // Support planes along the reference: the polytope's top towards the
  // cylinder, the cylinder's bottom towards the polytope (see slab_query).
  const T x_top = X.top(ref_W);
  const T cyl_bottom = -ref_W.dot(cy.c_W) + cylinder_support_radius_t(cy.axis_W, cy.r, cy.h, ref_W);
  CandidateSetT<T> set;
  // Cylinder point against the polytope: normal from the polytope (first) outward.
  auto add_cyl_point = [&](const Vec3T<T>& p_W) {
    PointQueryT<T> q = X.query(p_W);
    if (q.dist < T(0)) q = slab_query_t(p_W, ref_W, x_top);
    set.add(T(0.5) * (p_W + q.surface_W), q.normal_W, q.dist, margin);
  };
  // Polytope point against the cylinder: normal from the polytope towards
  // the cylinder, i.e. against the cylinder's outward normal.
  auto add_x_point = [&](const Vec3T<T>& p_W) {
    PointQueryT<T> q = point_cylinder<T>(p_W, py, cy.r, cy.h);
    if (q.dist < T(0)) q = slab_query_t(p_W, Vec3T<T>(-ref_W), cyl_bottom);
    set.add(T(0.5) * (p_W + q.surface_W), Vec3T<T>(-q.normal_W), q.dist, margin);
  };

  add_rim_points(cy, margin, [&](const Vec3T<T>& p_W) { return X.query(p_W).dist; }, add_cyl_point);
  for (int face = 0; face < X.num_faces(); ++face) {
    const Vec3T<T> w_W = X.face_normal(face);  // outward face normal
    SegmentT<T> line;
    if (!support_line(cy, w_W, line)) continue;
    T lo = T(0), hi = T(1);
    if (!X.clip_to_face(face, line, lo, hi)) continue;
    for (int e = 0; e < 2; ++e) {
      if (e == 1 && !(hi > lo)) break;
      const Vec3T<T> p_W = line.at(e == 0 ? lo : hi);
      T gap;
      if (!X.face_gap(face, p_W, best_overlap, gap)) continue;  // the signed distance of the rim samples covers it
      set.add(Vec3T<T>(p_W - T(0.5) * gap * w_W), w_W, gap, margin);
    }
  }

  // The axis point against the polytope: the side against an edge or corner
  // when the closest polytope point lies square to the axis inside the axial
  // range (exact there), and the one contact of a cylinder piercing a plate,
  // where no rim point and no polytope feature lies inside the other shape
  // (depth: the axis point's plus the reach of the cross-section along the
  // normal).
  {
    const PointQueryT<T> q = axis_q.dist < T(0) ? slab_query_t(axis_pt_W, ref_W, x_top) : axis_q;
    // Outside the polytope, only an interior minimiser has its normal square
    // to the axis (stationarity), i.e. touches the side and not beyond a cap.
    if (q.dist < T(0) || abs(q.normal_W.dot(cy.axis_W)) < T(1e-3)) {
      const T reach = cylinder_support_radius_t(cy.axis_W, cy.r, 0, q.normal_W);  // cross-section along n
      set.add(T(0.5) * (q.surface_W + axis_pt_W - reach * q.normal_W), q.normal_W, T(q.dist - reach), margin);
    }
  }
  for (int k = 0; k < X.num_vertices(); ++k) add_x_point(X.vertex(k));
  for (int i = 0; i < X.num_edges(); ++i) {
    const Real length = X.edge_length(i);
    if (length <= kTinyLength) continue;  // a flat box: the corners cover it
    const SegmentT<T> edge = X.edge(i);
    if (parallel_sin2(edge, axis) < T(kFlatSin * kFlatSin)) {
      // Along the side: ends of the part between the cap planes, radially.
      T lo = T(0), hi = T(1);
      if (!clip_to_slab(T(cy.axis_W.dot(edge.p0_W - cy.c_W)), T(cy.axis_W.dot(edge.d_W)), cy.h, lo, hi)) continue;
      for (int e = 0; e < 2; ++e) {
        if (e == 1 && !(hi > lo)) break;
        const Vec3T<T> p_W = edge.at(e == 0 ? lo : hi);
        const Vec3T<T> on_axis_W = cy.c_W + cy.axis_W.dot(p_W - cy.c_W) * cy.axis_W;
        const Vec3T<T> radial_W = p_W - on_axis_W;
        const T rho = radial_W.norm();
        if (rho <= T(kTinyLength)) continue;
        const Vec3T<T> u_W = radial_W / rho;  // cylinder's outward normal there
        const T gap = rho - T(cy.r);
        set.add(T(0.5) * (p_W + on_axis_W + T(cy.r) * u_W), Vec3T<T>(-u_W), gap, margin);
      }
    } else {
      // The cylinder lies within r of its axis: farther edges cannot touch.
      T te = T(0), ta = T(0);
      closest_params(edge, axis, te, ta);
      if (value_of((edge.at(te) - axis.at(ta)).norm()) >= cy.r + margin) continue;
      te = argmin_01_t<T>([&](const T& s) { return point_cylinder<T>(edge.at(s), py, cy.r, cy.h).dist; }, length);
      if (te > T(0) && te < T(1)) add_x_point(edge.at(te));  // the ends are vertices, added above
    }
  }
  return emit_reduced(ctx, set, 4);
}

}  // namespace

template <class T>
int collide_box_cylinder(const Geom& box, const GeomPoseT<T>& pb, const Geom& cyl, const GeomPoseT<T>& py,
                         const PairContextT<T>& ctx) {
  return collide_convex_cylinder(BoxView<T>{pb, box.size}, cyl, py, ctx);
}

template <class T>
int collide_cylinder_polytope(const Geom& cyl, const GeomPoseT<T>& py, const PolytopeT<T>& P,
                              const PairContextT<T>& ctx) {
  // The algorithm's normals run from the polytope to the cylinder; this
  // routine's from the cylinder (first) to the polytope.
  PairContextT<T> reversed = ctx;
  reversed.flip = !ctx.flip;
  return collide_convex_cylinder(HullView<T>{P}, cyl, py, reversed);
}

template <class T>
int collide_cylinder_mesh(const Geom& cyl, const GeomPoseT<T>& py, const Geom& mesh, const GeomPoseT<T>& pm,
                          const PairContextT<T>& ctx) {
  return collide_cylinder_polytope(cyl, py, mesh_polytope(mesh, pm), ctx);
}

#define CONTACTLAB_CONVEX_CYLINDER_INSTANCES(T)                                                              \
  template int collide_box_cylinder<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,   \
                                       const PairContextT<T>&);                                              \
  template int collide_cylinder_mesh<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,  \
                                        const PairContextT<T>&);                                             \
  template int collide_cylinder_polytope<T>(const Geom&, const GeomPoseT<T>&, const PolytopeT<T>&,             \
                                            const PairContextT<T>&);
CONTACTLAB_CONVEX_CYLINDER_INSTANCES(Real)
CONTACTLAB_CONVEX_CYLINDER_INSTANCES(Dual)
#undef CONTACTLAB_CONVEX_CYLINDER_INSTANCES

}  // namespace collision_detail
}  // namespace contactlab
