// Cylinder against mesh geoms (convex hulls), geometry/collide_convex_cylinder.cpp.
// The same algorithm runs box-cylinder through a box view and mesh-cylinder
// through a hull view, so a mesh cube against a cylinder must reproduce
// box-cylinder (which tests/geometry/test_exact_pairs.cpp and the
// wheeled_pallet runs validate) up to the precision of the searches; on
// irregular hulls: the resting manifolds a wheel must get, swap symmetry,
// and the dual derivatives against central differences.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "geometry/collision.hpp"
#include "geometry/convex_hull.hpp"
#include "support/pair_derivatives.hpp"

using namespace contactlab;
using namespace contactlab::test_pair_derivatives;

namespace {

// Irregular: the hull of a fixed random cloud, ~0.3 m across.
Geom rock_mesh() {
  std::mt19937 rng(17);
  std::normal_distribution<Real> N(0, 1);
  std::vector<Vec3> p;
  for (int i = 0; i < 30; ++i) p.emplace_back(0.15 * N(rng), 0.1 * N(rng), 0.08 * N(rng));
  return hull_geom(p);
}
Geom wheel(Real r, Real half_width) { return pair_geom(GeomType::Cylinder, Vec3(r, half_width, 0)); }

std::vector<Contact> contacts(const Geom& a, const GeomPose& pa, const Geom& b, const GeomPose& pb, Real margin = 0) {
  std::vector<Contact> out;
  collide_geoms(a, pa, 1, b, pb, 2, margin, out);
  return out;
}
Real deepest_gap(const std::vector<Contact>& cs) {
  Real g = 1e300;
  for (const Contact& c : cs) g = std::min(g, c.gap);
  return g;
}
// Each contact of `a` has one in `b` with point, normal and gap within tol.
int unmatched(const std::vector<Contact>& a, const std::vector<Contact>& b, Real tol) {
  int missing = 0;
  for (const Contact& c : a) {
    bool found = false;
    for (const Contact& d : b)
      found = found || ((c.point_W - d.point_W).norm() < tol && std::abs(c.gap - d.gap) < tol &&
                        (c.normal_W - d.normal_W).norm() < tol);
    missing += found ? 0 : 1;
  }
  return missing;
}

// Overlap of the hull's and the cylinder's projections on the unit axis L,
// computed here from the hull's vertices and the cylinder's support radius.
Real overlap_on(const Geom& mesh, const GeomPose& pm, const Geom& cyl, const GeomPose& pc, const Vec3& L) {
  Real lo = 1e300, hi = -1e300;
  for (const Vec3& v : mesh.hull->vertices) {
    const Real x = L.dot(pm.pos_W + pm.R_WG * v);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  const Vec3 axis = pc.R_WG.col(2);
  const Real a = std::min(1.0, std::abs(axis.dot(L)));
  const Real reach = cyl.size.y() * a + cyl.size.x() * std::sqrt(1 - a * a), c = L.dot(pc.pos_W);
  return std::min(hi - (c - reach), (c + reach) - lo);
}

// Where the shapes overlap by less than a tenth of the radius (any contact a
// converged step sees), the deepest penetration reported must be at most the
// least overlap of the projections over the solid's face normals and the
// cylinder's axis (the routine's reference direction has an overlap no larger
// than those), up to 1e-12 m of rounding; and moving the cylinder out along
// the deepest contact's normal by its depth must make the deepest penetration
// shallower (a wrong sign of the normal deepens it). `solid` is collided,
// `outline` (the same solid as a hull) gives the projections. Deeper
// overlaps are not checked: a face's support line is measured to that face's
// plane, which can exceed the overlap along the reference (docs/geometry.md).
void check_depth_bound(const Geom& solid, const Geom& outline, const Geom& cyl, Real spread, int& shallow) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<Real> U(-1, 1);
  for (int trial = 0; trial < 4000; ++trial) {
    const GeomPose ps = pose(Vec3::Zero(), random_rotation(rng));
    const GeomPose pc = pose(spread * Vec3(U(rng), U(rng), U(rng)), random_rotation(rng));
    const auto cs = contacts(solid, ps, cyl, pc);
    if (cs.empty()) continue;
    Real least = overlap_on(outline, ps, cyl, pc, pc.R_WG.col(2));
    for (const Vec3& n : outline.hull->face_normals) least = std::min(least, overlap_on(outline, ps, cyl, pc, ps.R_WG * n));
    if (!(least < 0.1 * cyl.size.x())) continue;
    ++shallow;
    const Contact* d = &cs[0];
    for (const Contact& c : cs)
      if (c.gap < d->gap) d = &c;
    CHECK(-d->gap <= least + 1e-12);
    // Normal from the solid (geom1) to the cylinder.
    const GeomPose out = pose(pc.pos_W + (-d->gap) * d->normal_W, pc.R_WG);
    CHECK(deepest_gap(contacts(solid, ps, cyl, out)) > d->gap + 1e-7);
  }
}

}  // namespace

TEST_CASE("mesh-cylinder: a mesh cube reproduces box-cylinder") {
  // Differences between the two views are the point queries (point_box vs
  // point_polytope: the same exact distance, different arithmetic) and the
  // face clipping (slabs vs half-planes): rounding, ~1e-15 m, amplified by
  // the searched minimisers (argmin_01_t, ~1e-10 of the range) to ~1e-10 m
  // in a point. Bound 1e-8 m: 100 times that, far below any feature change
  // (a wrong feature moves a point by a fraction of the radius, 1e-2 m).
  // The whole manifold is compared where the deepest point is less than a
  // quarter of the radius deep (deeper than any resting contact): deeper,
  // several penetrating samples share the least-overlap depth of the slab
  // query, and which of those ties the reduction keeps is decided by
  // rounding (measured: 9 of the 252 sets here, all 0.1 to 0.25 m deep).
  std::mt19937 rng(21);
  std::uniform_real_distribution<Real> U(-1, 1);
  const Vec3 half(0.3, 0.2, 0.15);
  const Geom cube = hull_box(half), box = pair_geom(GeomType::Box, half), cyl = wheel(0.2, 0.06);
  int pairs = 0, points = 0, compared_sets = 0, mismatched_sets = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const GeomPose pb = pose(0.05 * Vec3(U(rng), U(rng), U(rng)), random_rotation(rng));
    const GeomPose pc = pose(pb.pos_W + 0.45 * Vec3(U(rng), U(rng), U(rng)), random_rotation(rng));
    const auto from_box = contacts(box, pb, cyl, pc, 0.02), from_mesh = contacts(cube, pb, cyl, pc, 0.02);
    REQUIRE(from_box.size() == from_mesh.size());
    if (from_box.empty()) continue;
    ++pairs;
    points += static_cast<int>(from_box.size());
    CHECK(std::abs(deepest_gap(from_box) - deepest_gap(from_mesh)) < 1e-8);
    if (deepest_gap(from_box) < -0.25 * 0.2) continue;
    ++compared_sets;
    mismatched_sets += unmatched(from_box, from_mesh, 1e-8) > 0 ? 1 : 0;
  }
  MESSAGE(pairs << " pairs in contact, " << points << " points, " << compared_sets << " whole sets compared, "
                << mismatched_sets << " differing");
  CHECK(pairs > 100);
  CHECK(compared_sets > 50);
  CHECK(mismatched_sets == 0);
}

TEST_CASE("mesh-cylinder: a wheel resting on a mesh face, lying and standing") {
  const Geom cube = hull_box(Vec3(0.5, 0.5, 0.1));
  const Real r = 0.2, hw = 0.05, depth = 1e-3;
  // Lying on its side (axis along y), rolled by an arbitrary angle: a line
  // contact, two points at the ends of the support line, 2 hw apart.
  const Mat3 lying = rot(Vec3(1, 0, 0), kPi / 2) * rot(Vec3(0, 0, 1), 0.37);
  const auto line = contacts(wheel(r, hw), pose(Vec3(0.05, -0.1, 0.1 + r - depth), lying), cube, pose(Vec3::Zero()));
  REQUIRE(line.size() == 2);
  for (const Contact& c : line) {
    CHECK(c.gap == doctest::Approx(-depth).epsilon(1e-9));
    CHECK((c.normal_W - Vec3(0, 0, -1)).norm() < 1e-12);  // cylinder (geom1) into the mesh
  }
  CHECK(std::abs(std::abs(line[0].point_W.y() - line[1].point_W.y()) - 2 * hw) < 1e-9);
  // Standing on a cap: four rim points, all at the cap's depth.
  const auto cap = contacts(wheel(r, hw), pose(Vec3(0.1, 0.0, 0.1 + hw - depth), rot(Vec3(0, 0, 1), 0.2)), cube,
                            pose(Vec3::Zero()));
  REQUIRE(cap.size() == 4);
  for (const Contact& c : cap) CHECK(c.gap == doctest::Approx(-depth).epsilon(1e-9));
  // The same wheel 2 mm into the cube's edge at x = 0.5, z = 0.1, its axis
  // parallel to the edge, at 0.6 rad from the vertical: two radial points,
  // gap = distance from the edge to the axis - r, normal from the edge to
  // the axis.
  const Real phi = 0.6, dist = r - 0.002;
  const Vec3 n(std::sin(phi), 0, std::cos(phi));
  const auto edge =
      contacts(cube, pose(Vec3::Zero()), wheel(r, hw), pose(Vec3(0.5, 0, 0.1) + dist * n, rot(Vec3(1, 0, 0), kPi / 2)));
  REQUIRE(edge.size() == 2);
  for (const Contact& c : edge) {
    CHECK(c.gap == doctest::Approx(-0.002).epsilon(1e-9));
    CHECK((c.normal_W - n).norm() < 1e-9);  // mesh (geom1) towards the cylinder
  }
  CHECK(std::abs(std::abs(edge[0].point_W.y() - edge[1].point_W.y()) - 2 * hw) < 1e-9);
}

TEST_CASE("mesh-cylinder: swapping the pair negates the normals only") {
  std::mt19937 rng(4);
  std::uniform_real_distribution<Real> U(-1, 1);
  const Geom rock = rock_mesh(), cyl = wheel(0.12, 0.05);
  int tested = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const GeomPose pr = pose(Vec3::Zero(), random_rotation(rng)), pc = pose(0.3 * Vec3(U(rng), U(rng), U(rng)),
                                                                         random_rotation(rng));
    const auto ab = contacts(cyl, pc, rock, pr, 1e-3);
    auto ba = contacts(rock, pr, cyl, pc, 1e-3);
    REQUIRE(ab.size() == ba.size());
    if (ab.empty()) continue;
    for (Contact& c : ba) c.normal_W = -c.normal_W;
    CHECK(unmatched(ab, ba, 1e-12) == 0);
    ++tested;
  }
  MESSAGE(tested << " pairs in contact");
  CHECK(tested > 40);
}

TEST_CASE("mesh-cylinder: penetration depth is bounded by the overlap, and pushing out reduces it") {
  // Without the overlap test in face_gap (collide_convex_cylinder.cpp), the
  // box fails this in 7 of its 181 configurations here, reporting up to
  // 0.27 m more than the overlap (measured by removing the test).
  const Geom rock = rock_mesh();
  const Vec3 half(0.3, 0.2, 0.15);
  int rock_cases = 0, box_cases = 0;
  check_depth_bound(rock, rock, wheel(0.1, 0.08), 0.25, rock_cases);
  check_depth_bound(pair_geom(GeomType::Box, half), hull_box(half), wheel(0.2, 0.06), 0.45, box_cases);
  MESSAGE(rock_cases << " rock and " << box_cases << " box configurations overlapping by less than r / 10");
  CHECK(rock_cases > 100);
  CHECK(box_cases > 100);
}

TEST_CASE("mesh-cylinder: dual derivatives match central differences") {
  const Geom rock = rock_mesh(), cyl = wheel(0.1, 0.06);
  const Mat3 Ra = rot(Vec3(1, -2, 0.5), 0.8), Rb = rot(Vec3(-1, 0.3, 2), 1.1);
  // Generic poses of a wheel against the rock, and of a wheel lying on a mesh
  // cube's face rolled by an arbitrary angle (a line contact).
  int n = 0;
  n += check_dual(cyl, pose(Vec3(0.02, 0.05, 0.16), Rb), rock, pose(Vec3::Zero(), Ra));
  n += check_dual(cyl, pose(Vec3(-0.1, 0.02, 0.1), Ra), rock, pose(Vec3(0.01, 0, 0), Rb));
  n += check_dual(hull_box(Vec3(0.3, 0.3, 0.1)), pose(Vec3::Zero(), rot(Vec3(0.1, 0.2, 1), 0.3)), cyl,
                  pose(Vec3(0.05, 0.02, 0.1 + 0.1 - 2e-3), rot(Vec3(1, 0, 0), kPi / 2) * rot(Vec3(0, 0, 1), 0.4)));
  CHECK(n >= 4);
}

