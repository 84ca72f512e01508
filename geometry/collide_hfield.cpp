// Height fields (GeomType::HField) against sphere, box, capsule, cylinder and
// mesh geoms. The solid is the union of the triangles' prisms (as MuJoCo's);
// the cells under the shape's bounding sphere are visited, each triangle's
// prism collided by the routine for that shape, and all candidates of the
// pair reduced to at most four points (the deepest and the most spread).
//  - sphere, capsule: the signed distance to the prism's triangle
//    (point_terrain_triangle, geometry/hull_query.hpp): its height for a
//    point in the triangle's column, the distance to its rim beside it. The
//    prism's walls and floor are never a nearest feature: they lie under the
//    neighbouring triangles.
//  - cylinder: the box-cylinder algorithm on the triangle only, its
//    reference direction the triangle's normal (collide_cylinder_polytope
//    with a terrain prism: collide_convex_cylinder.cpp).
//  - box, mesh: the shape's face most against the triangle's normal clipped
//    to the triangle and measured along its normal (collide_polytope_on_face):
//    never a separating-axis choice, which would pick a wall when the shape
//    overlaps a triangle's column by less than it penetrates, and push it
//    sideways off a flat floor.
// Everything runs over the scalar T (the grid is static: only the shape's
// pose carries derivatives), so the exact position pull-back covers these
// pairs away from switches (a triangle's contact entering or leaving the
// reduction).
#include <algorithm>
#include <cmath>
#include <vector>

#include "geometry/hfield_prism.hpp"
#include "geometry/hull_query.hpp"
#include "geometry/pair_filter.hpp"

namespace contactlab {
namespace collision_detail {

namespace {

// Candidates of one pair over all its triangles: when full, the shallowest
// gives way (the deepest points always survive).
constexpr int kHFieldCandidates = 128;
template <class T>
using HFieldCandidates = CandidateSetT<T, kHFieldCandidates>;

template <class T>
void keep_deepest(HFieldCandidates<T>& set, const ContactT<T>& c, Real margin) {
  if (!(c.gap < T(margin))) return;
  if (set.n < set.kCapacity) {
    set.add(c.point_W, c.normal_W, c.gap, margin);
    return;
  }
  int worst = 0;
  for (int i = 1; i < set.n; ++i)
    if (set.c[i].gap > set.c[worst].gap) worst = i;
  if (c.gap < set.c[worst].gap) set.c[worst] = CandidateT<T>{c.point_W, c.normal_W, c.gap};
}

// Per-thread scratch: a prism and the contacts of one triangle (capacity kept
// between calls, so the step loop allocates only on a thread's first pairs).
template <class T>
struct HFieldScratch {
  HFieldPrism prism;
  std::vector<ContactT<T>> contacts;
};
template <class T>
HFieldScratch<T>& scratch() {
  thread_local HFieldScratch<T> s;
  return s;
}

// The double values of a vector or matrix over T (culling works on values).
template <class T, int R, int C>
Eigen::Matrix<Real, R, C> values(const Eigen::Matrix<T, R, C>& m) {
  Eigen::Matrix<Real, R, C> v;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) v(i, j) = value_of(m(i, j));
  return v;
}

// Normals closer than this (unit vectors) are the same direction.
constexpr Real kSameNormal = 1e-9;
// Depths closer than this (m) tie, as in emit_reduced (collision.cpp kGapTie).
constexpr Real kGapTieHField = 1e-12;

// How far from a contact a shape's other contacts of the same touch can lie:
// its radius (sphere, capsule, cylinder), else its bounding radius.
Real shape_reach(const Geom& g) {
  const bool round = g.type == GeomType::Sphere || g.type == GeomType::Capsule || g.type == GeomType::Cylinder;
  return round ? g.size.x() : geom_bounding_radius(g);
}

// Unit normal (up) of triangle `tri` of cell (row, col), as HFieldPrism builds it.
Vec3 triangle_normal(const HeightField& h, int row, int col, int tri) {
  const Vec3 a = h.vertex(row, col), b = h.vertex(row + 1, col + 1);
  const Vec3 c = tri == 0 ? h.vertex(row + 1, col) : h.vertex(row, col + 1);
  const Vec3 n = tri == 0 ? (b - a).cross(c - a) : (c - a).cross(b - a);
  return n.normalized();
}

// The smallest cosine between a triangle's normal and its three edge
// neighbours' (1 on a flat patch): a contact off the triangle's face (on its
// rim) is a touch of the terrain only if its normal is no farther from the
// triangle's than that, i.e. within the normals of the faces meeting at the
// rim. Neighbours: triangle 0 of a cell shares its diagonal with triangle 1,
// its upper edge with triangle 1 of the cell above and its left edge with
// triangle 1 of the cell to the left; triangle 1 the diagonal, its lower
// edge (triangle 0 below) and its right edge (triangle 0 to the right).
Real rim_cone_cosine(const HeightField& h, int row, int col, int tri, const Vec3& n) {
  Real c = n.dot(triangle_normal(h, row, col, 1 - tri));
  const int cells_r = h.nrow - 1, cells_c = h.ncol - 1;
  if (tri == 0) {
    if (row + 1 < cells_r) c = std::min(c, n.dot(triangle_normal(h, row + 1, col, 1)));
    if (col > 0) c = std::min(c, n.dot(triangle_normal(h, row, col - 1, 1)));
  } else {
    if (row > 0) c = std::min(c, n.dot(triangle_normal(h, row - 1, col, 0)));
    if (col + 1 < cells_c) c = std::min(c, n.dot(triangle_normal(h, row, col + 1, 0)));
  }
  return std::min(Real(1), c);
}

// Near the edge it rests beside, a round shape also reaches under the
// neighbouring triangle's rim: that triangle reports a contact at its rim with
// a tilted normal, shallower than the face contact next to it (on a flat
// field it would push sideways while the shape penetrates). A contact not on
// its triangle's face is dropped when a face contact at least as deep lies
// within `reach` of it; on a convex ridge, where no face contact is that
// deep, the rim contact is the touch and stays.
template <class T>
void drop_dominated_rim_contacts(HFieldCandidates<T>& set, bool* on_face, Real reach) {
  int kept = 0;
  for (int i = 0; i < set.n; ++i) {
    bool dominated = false;
    if (!on_face[i])
      for (int j = 0; j < set.n && !dominated; ++j)
        dominated = on_face[j] && !(value_of(set.c[j].gap) > value_of(set.c[i].gap)) &&
                    (values(set.c[j].point_W) - values(set.c[i].point_W)).norm() <= reach;
    if (dominated) continue;
    set.c[kept] = set.c[i];
    on_face[kept] = on_face[i];
    ++kept;
  }
  set.n = kept;
}

// Candidates of equal depth (a wheel's line contact split over triangles, a
// box face over several cells) tie for the deepest, and emit_reduced gives a
// tie to the later candidate, then keeps the point farthest from it: which
// of the tied points comes last decides whether the manifold spans the whole
// contact (measured: a wheel's line ended at a cell diagonal, 1 cm short of
// its end, rolling 1 mm off its course on a plane over 0.3 m). The tied
// point farthest from the tied points' centroid is moved last, so the
// reduction starts from one end of the contact.
template <class T>
void put_extreme_tie_last(HFieldCandidates<T>& set, bool* on_face) {
  if (set.n < 2) return;
  Real deepest = value_of(set.c[0].gap);
  for (int i = 1; i < set.n; ++i) deepest = std::min(deepest, value_of(set.c[i].gap));
  Vec3 centroid = Vec3::Zero();
  int tied = 0;
  for (int i = 0; i < set.n; ++i)
    if (value_of(set.c[i].gap) <= deepest + kGapTieHField) centroid += values(set.c[i].point_W), ++tied;
  centroid /= tied;
  int extreme = -1;
  Real far = -1;
  for (int i = 0; i < set.n; ++i) {
    if (!(value_of(set.c[i].gap) <= deepest + kGapTieHField)) continue;
    const Real d = (values(set.c[i].point_W) - centroid).norm();
    if (d > far) far = d, extreme = i;
  }
  std::swap(set.c[extreme], set.c[set.n - 1]);
  std::swap(on_face[extreme], on_face[set.n - 1]);
}

// Half-width of the shape's projection on the unit axis L about its origin
// (value only: for culling), at most its bounding radius.
Real support_extent(const Geom& g, const Mat3& R, const Vec3& L) {
  const Real a = std::min(Real(1), std::abs(R.col(2).dot(L)));
  switch (g.type) {
    case GeomType::Sphere: return g.size.x();
    case GeomType::Capsule: return g.size.y() * a + g.size.x();
    case GeomType::Cylinder: return g.size.y() * a + g.size.x() * std::sqrt(1 - a * a);
    case GeomType::Box: return box_support_radius(R, g.size, L);
    default: return geom_bounding_radius(g);
  }
}

}  // namespace

template <class T>
int collide_geom_hfield(const Geom& shape, const GeomPoseT<T>& ps, const Geom& hf, const GeomPoseT<T>& ph,
                        const PairContextT<T>& ctx) {
  const HeightField& h = *hf.hfield;
  const Real reach = geom_bounding_radius(shape) + ctx.margin;
  // The shape's bounding sphere in the height field's frame.
  const Vec3 c = values(ph.R_WG).transpose() * (values(ps.pos_W) - values(ph.pos_W));
  if (c.z() - reach > h.top || c.z() + reach < -std::max(h.base, kMinPrismDepth)) return 0;
  const Real x_cells = (h.ncol - 1) / (2 * h.sx), y_cells = (h.nrow - 1) / (2 * h.sy);
  const int col0 = std::max(0, static_cast<int>(std::floor((c.x() - reach + h.sx) * x_cells)));
  const int col1 = std::min(h.ncol - 1, static_cast<int>(std::ceil((c.x() + reach + h.sx) * x_cells)));
  const int row0 = std::max(0, static_cast<int>(std::floor((c.y() - reach + h.sy) * y_cells)));
  const int row1 = std::min(h.nrow - 1, static_cast<int>(std::ceil((c.y() + reach + h.sy) * y_cells)));
  if (col0 >= col1 || row0 >= row1) return 0;

  HFieldScratch<T>& s = scratch<T>();
  // Each triangle's contacts go to the scratch list in the routine's order
  // (shape first), unflipped; the pair's reduction then emits through ctx.
  PairContextT<T> one = ctx;
  one.flip = false;
  one.out = &s.contacts;
  const PolytopeT<T> P{&s.prism.hull(), Vec3::Ones(), ph, /*terrain=*/true};
  PolytopeT<T> shape_hull{};
  if (shape.type == GeomType::Box) shape_hull = box_polytope(shape, ps);
  if (shape.type == GeomType::Mesh) shape_hull = mesh_polytope(shape, ps);
  const Mat3 R_HS = values(ph.R_WG).transpose() * values(ps.R_WG);  // the shape's axes in the field's frame
  HFieldCandidates<T> set;
  bool on_face[kHFieldCandidates] = {};  // (set.n) candidate k has its triangle's normal
  for (int row = row0; row < row1; ++row)
    for (int col = col0; col < col1; ++col)
      for (int tri = 0; tri < 2; ++tri) {
        s.prism.set(h, row, col, tri);
        if (c.z() - reach > s.prism.top_z()) continue;  // the shape is above this triangle
        // ... or wholly above its plane (the triangle lies in that plane).
        const Vec3& up = s.prism.hull().face_normals[0];
        if (up.dot(c) - support_extent(shape, R_HS, up) - s.prism.hull().face_offsets[0] > ctx.margin) continue;
        s.contacts.clear();
        switch (shape.type) {
          case GeomType::Sphere: collide_sphere_polytope(shape, ps, P, one); break;
          case GeomType::Capsule: collide_capsule_polytope(shape, ps, P, one); break;
          case GeomType::Box:
          case GeomType::Mesh: collide_polytope_on_face(shape_hull, P, 0, one); break;
          case GeomType::Cylinder: collide_cylinder_polytope(shape, ps, P, one); break;
          default: break;  // plane, height field: static pairs, never collided (pair_supported)
        }
        // Normals run from the shape into the terrain: a face contact's is
        // minus the triangle's normal. A rim contact whose normal leaves the
        // cone of the faces meeting there (a cell edge inside a flat or
        // concave surface) is no touch of the terrain, and is dropped.
        const Vec3 up_n = s.prism.hull().face_normals[0];
        const Vec3 face_n = -(values(ph.R_WG) * up_n);
        const Real cone = rim_cone_cosine(h, row, col, tri, up_n);
        for (const ContactT<T>& k : s.contacts) {
          const Vec3 kn = values(k.normal_W);
          const bool face = (kn - face_n).norm() < kSameNormal;
          if (!face && kn.dot(face_n) < cone - kSameNormal) continue;
          const int before = set.n;
          keep_deepest(set, k, ctx.margin);
          if (set.n > before) on_face[set.n - 1] = face;
        }
      }
  drop_dominated_rim_contacts(set, on_face, shape_reach(shape));
  put_extreme_tie_last(set, on_face);
  return emit_reduced(ctx, set, 4);
}

#define CONTACTLAB_HFIELD_INSTANCES(T)                                                                        \
  template int collide_geom_hfield<T>(const Geom&, const GeomPoseT<T>&, const Geom&, const GeomPoseT<T>&,    \
                                      const PairContextT<T>&);
CONTACTLAB_HFIELD_INSTANCES(Real)
CONTACTLAB_HFIELD_INSTANCES(Dual)
#undef CONTACTLAB_HFIELD_INSTANCES

}  // namespace collision_detail
}  // namespace contactlab
