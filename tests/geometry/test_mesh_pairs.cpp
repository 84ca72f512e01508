// Mesh geoms (convex hulls) against every shape they collide with
// (geometry/collide_hull.cpp). References: the primitive routines on the same
// solid (a mesh cube is a box: box-plane, sphere-box, capsule-box, box-box
// are independent code), analytic depths, the defining property of the
// separating-axis depth (moved apart by it along the normal the shapes just
// touch), swap symmetry, continuity along a path, and the dual derivatives
// against central differences.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "core/dual.hpp"
#include "geometry/collision.hpp"
#include "support/pair_derivatives.hpp"
#include "geometry/convex_hull.hpp"

using namespace contactlab;
using namespace contactlab::test_pair_derivatives;

namespace {

// An irregular convex solid (no symmetry, no parallel faces): the hull of a
// fixed random cloud, ~0.1 m across.
Geom mesh_rock() {
  std::mt19937 rng(11);
  std::normal_distribution<Real> N(0, 1);
  std::vector<Vec3> p;
  for (int i = 0; i < 24; ++i) p.emplace_back(0.12 * N(rng), 0.08 * N(rng), 0.06 * N(rng));
  return hull_geom(p);
}
Geom box(const Vec3& half) { return pair_geom(GeomType::Box, half); }
Geom sphere(Real r) { return pair_geom(GeomType::Sphere, Vec3(r, 0, 0)); }
Geom capsule(Real r, Real h) { return pair_geom(GeomType::Capsule, Vec3(r, h, 0)); }
Geom plane() {
  Geom g = pair_geom(GeomType::Plane, Vec3::Zero());
  g.body = -1;
  return g;
}


std::vector<Contact> collide(const Geom& a, const GeomPose& pa, const Geom& b, const GeomPose& pb, Real margin = 0) {
  std::vector<Contact> out;
  collide_geoms(a, pa, 1, b, pb, 2, margin, out);
  return out;
}
Real min_gap(const std::vector<Contact>& cs) {
  Real g = 1e300;
  for (const Contact& c : cs) g = std::min(g, c.gap);
  return g;
}
const Contact& deepest(const std::vector<Contact>& cs) {
  size_t k = 0;
  for (size_t i = 1; i < cs.size(); ++i)
    if (cs[i].gap < cs[k].gap) k = i;
  return cs[k];
}

// The contact sets are the same (each contact of one has a match in the
// other: point, normal and gap within tol).
void check_same_contacts(const std::vector<Contact>& a, const std::vector<Contact>& b, Real tol) {
  REQUIRE(a.size() == b.size());
  for (const Contact& c : a) {
    bool found = false;
    for (const Contact& d : b)
      found = found || ((c.point_W - d.point_W).norm() < tol && std::abs(c.gap - d.gap) < tol &&
                        (c.normal_W - d.normal_W).norm() < tol);
    CHECK(found);
  }
}

// Swapping the pair: same count, gaps and points, normals negated.
void check_swap(const Geom& a, const GeomPose& pa, const Geom& b, const GeomPose& pb) {
  const auto ab = collide(a, pa, b, pb, 1e-3), ba = collide(b, pb, a, pa, 1e-3);
  REQUIRE(!ab.empty());
  std::vector<Contact> flipped = ba;
  for (Contact& c : flipped) c.normal_W = -c.normal_W;
  check_same_contacts(ab, flipped, 1e-12);
}


const Vec3 kHalf(0.1, 0.15, 0.2);

}  // namespace

TEST_CASE("mesh pairs: a mesh box on a plane rests on its four corners, as the primitive box") {
  // Resting 1 mm deep, then tilted (two corners below) and deep (0.3 of its height).
  const Geom mb = hull_box(kHalf), pb = box(kHalf), pl = plane();
  const GeomPose floor = pose(Vec3::Zero());
  const GeomPose poses[] = {pose(Vec3(0.3, -0.2, 0.199)), pose(Vec3(0, 0, 0.19), rot(Vec3(1, 0, 0), 0.3)),
                            pose(Vec3(0, 0, 0.08))};
  const size_t counts[] = {4, 2, 4};
  for (int i = 0; i < 3; ++i) {
    const auto mesh = collide(pl, floor, mb, poses[i]), prim = collide(pl, floor, pb, poses[i]);
    CHECK(mesh.size() == counts[i]);
    // Same corners, same arithmetic up to the hull's rounding: 1e-12 m.
    check_same_contacts(mesh, prim, 1e-12);
  }
  CHECK(min_gap(collide(pl, floor, mb, poses[0])) == doctest::Approx(-1e-3).epsilon(1e-9));
  CHECK(min_gap(collide(pl, floor, mb, poses[2])) == doctest::Approx(-0.12).epsilon(1e-12));
  check_swap(pl, floor, mb, poses[1]);
}

TEST_CASE("mesh pairs: mesh box on box face-to-face gives four points, as box-box") {
  // A mesh box resting 1 mm into a wider primitive box, offset sideways and
  // turned about z (so the incident face is clipped to an octagon and
  // reduced to four points), against the box-box routine on the same solids.
  const Geom base = box(Vec3(0.5, 0.5, 0.1));
  const GeomPose pbase = pose(Vec3::Zero());
  for (Real angle : {0.0, 0.3}) {
    const GeomPose top = pose(Vec3(0.12, -0.05, 0.1 + 0.2 - 1e-3), rot(Vec3(0, 0, 1), angle));
    const auto mesh = collide(base, pbase, hull_box(kHalf), top), prim = collide(base, pbase, box(kHalf), top);
    CHECK(mesh.size() == 4);
    for (const Contact& c : mesh) {
      CHECK(c.gap == doctest::Approx(-1e-3).epsilon(1e-9));
      CHECK((c.normal_W - Vec3(0, 0, 1)).norm() < 1e-12);
    }
    // Box-box clips the same incident face: the same four points (1e-12 m).
    check_same_contacts(mesh, prim, 1e-12);
    // Mesh on mesh: the same again.
    check_same_contacts(collide(hull_box(Vec3(0.5, 0.5, 0.1)), pbase, hull_box(kHalf), top), prim, 1e-12);
    check_swap(base, pbase, hull_box(kHalf), top);
  }
}

TEST_CASE("mesh pairs: edge-on-face, vertex-on-face and edge-edge as box-box") {
  const Geom base = box(Vec3(0.5, 0.5, 0.1));
  const GeomPose pbase = pose(Vec3::Zero());
  // Edge on face: turned 45 degrees about x, its lowest edge 2 mm deep.
  const Real c45 = std::sqrt(0.5);
  const GeomPose edge = pose(Vec3(0.1, 0, 0.1 + c45 * (0.15 + 0.2) - 2e-3), rot(Vec3(1, 0, 1e-9).normalized(), 0.0));
  const GeomPose edge_on = pose(Vec3(0.1, 0, 0.1 + (0.15 + 0.2) * c45 - 2e-3), rot(Vec3(1, 0, 0), kPi / 4));
  (void)edge;
  {
    const auto mesh = collide(base, pbase, hull_box(kHalf), edge_on, 1e-3);
    const auto prim = collide(base, pbase, box(kHalf), edge_on, 1e-3);
    CHECK(mesh.size() == 2);
    CHECK(min_gap(mesh) == doctest::Approx(-2e-3).epsilon(1e-9));
    check_same_contacts(mesh, prim, 1e-12);
  }
  // Vertex on face: the body diagonal vertical, the lowest corner 3 mm deep.
  const Vec3 diag = kHalf.normalized();
  const Mat3 R = Quat::FromTwoVectors(-diag, Vec3(0, 0, -1)).toRotationMatrix();
  const GeomPose corner = pose(Vec3(0.05, 0.02, 0.1 + kHalf.norm() - 3e-3), R);
  {
    const auto mesh = collide(base, pbase, hull_box(kHalf), corner);
    const auto prim = collide(base, pbase, box(kHalf), corner);
    REQUIRE(mesh.size() == 1);
    CHECK(mesh[0].gap == doctest::Approx(-3e-3).epsilon(1e-9));
    check_same_contacts(mesh, prim, 1e-12);
    check_swap(base, pbase, hull_box(kHalf), corner);
  }
  // Edge-edge: two long bars crossed at right angles, each turned 45 degrees
  // about its length so an edge points at the other; 2 mm overlap.
  const Vec3 bar(0.5, 0.05, 0.05);
  const Real reach = 0.05 * std::sqrt(2.0);
  const GeomPose lower = pose(Vec3::Zero(), rot(Vec3(1, 0, 0), kPi / 4));
  const GeomPose upper = pose(Vec3(0.01, 0.02, 2 * reach - 2e-3), rot(Vec3(0, 0, 1), kPi / 2) * rot(Vec3(1, 0, 0), kPi / 4));
  {
    const auto mesh = collide(hull_box(bar), lower, hull_box(bar), upper);
    const auto prim = collide(box(bar), lower, box(bar), upper);
    REQUIRE(mesh.size() == 1);
    CHECK(mesh[0].gap == doctest::Approx(-2e-3).epsilon(1e-9));
    CHECK((mesh[0].normal_W - Vec3(0, 0, 1)).norm() < 1e-9);
    check_same_contacts(mesh, prim, 1e-12);
    check_swap(box(bar), lower, hull_box(bar), upper);
  }
}

TEST_CASE("mesh pairs: sphere and capsule against a mesh box match sphere-box and capsule-box") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> U(-1, 1);
  const Geom mb = hull_box(kHalf), pb = box(kHalf), sph = sphere(0.07), cap = capsule(0.04, 0.12);
  int sphere_contacts = 0, capsule_contacts = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const GeomPose pbox = pose(Vec3(U(rng), U(rng), U(rng)) * 0.05, random_rotation(rng));
    const GeomPose ps = pose(pbox.pos_W + 0.3 * Vec3(U(rng), U(rng), U(rng)), random_rotation(rng));
    // Sphere: both routines compute the exact signed distance of the
    // centre; they agree to rounding (1e-12 m).
    const auto sm = collide(sph, ps, mb, pbox, 0.05), sp = collide(sph, ps, pb, pbox, 0.05);
    check_same_contacts(sm, sp, 1e-12);
    sphere_contacts += static_cast<int>(sm.size());
    // Capsule: both locate the axis point by the same search on the same
    // convex distance, each made exact by argmin_01_t. Gaps agree to 1e-9 m
    // (the located minimiser's precision, ~1e-10 of the segment, times the
    // distance's slope <= 1); points and normals may differ more where the
    // distance is flat along the axis (then which point is "closest" is a
    // tie), so the deepest gap is what is compared.
    const auto cm = collide(cap, ps, mb, pbox, 0.05), cp = collide(cap, ps, pb, pbox, 0.05);
    REQUIRE(cm.empty() == cp.empty());
    if (!cm.empty()) {
      CHECK(std::abs(min_gap(cm) - min_gap(cp)) < 1e-9);
      CHECK(cm.size() == cp.size());
      ++capsule_contacts;
    }
  }
  MESSAGE(sphere_contacts << " sphere contacts, " << capsule_contacts << " capsule pairs in contact");
  CHECK(sphere_contacts > 50);
  CHECK(capsule_contacts > 50);
  // A capsule lying on the top face, 1 mm deep: two points.
  const GeomPose flat = pose(Vec3(0.02, 0, 0.2 + 0.04 - 1e-3), rot(Vec3(0, 1, 0), kPi / 2) * rot(Vec3(0, 0, 1), 0.4));
  const auto lying = collide(cap, flat, mb, pose(Vec3::Zero()));
  CHECK(lying.size() == 2);
  for (const Contact& c : lying) {
    CHECK(c.gap == doctest::Approx(-1e-3).epsilon(1e-9));
    CHECK((c.normal_W - Vec3(0, 0, -1)).norm() < 1e-12);  // capsule (geom1) towards the mesh
  }
  check_same_contacts(lying, collide(cap, flat, pb, pose(Vec3::Zero())), 1e-12);
  check_swap(cap, flat, mb, pose(Vec3::Zero()));
  check_swap(sph, pose(Vec3(0.05, 0.19, 0.1)), mb, pose(Vec3::Zero(), rot(Vec3(1, 1, 0), 0.3)));
}

TEST_CASE("mesh pairs: irregular hulls: moved apart by the depth along the normal they just touch") {
  // The separating-axis depth is the smallest translation that separates
  // two convex solids; along the reported normal, moving the second by
  // -gap (+- 1e-7 m) must leave them touching (-gap - 1e-7: still a contact
  // at margin 0; -gap + 1e-7: none). 1e-7 m is far above the rounding of
  // the projections (~1e-16 m) and far below any depth here.
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> U(-1, 1);
  const Geom rock = mesh_rock();
  const Geom others[] = {mesh_rock(), box(Vec3(0.05, 0.08, 0.03))};
  int tested = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Geom& other = others[trial % 2];
    const GeomPose pa = pose(Vec3::Zero(), random_rotation(rng));
    const GeomPose pb = pose(0.15 * Vec3(U(rng), U(rng), U(rng)), random_rotation(rng));
    const auto cs = collide(other, pb, rock, pa);
    if (cs.empty()) continue;
    const Contact& c = deepest(cs);
    CHECK(c.gap < 0);
    // Normal from geom1 (other) to geom2 (rock): move the rock along it.
    const GeomPose near = pose(pa.pos_W + (-c.gap - 1e-7) * c.normal_W, pa.R_WG);
    const GeomPose apart = pose(pa.pos_W + (-c.gap + 1e-7) * c.normal_W, pa.R_WG);
    CHECK(!collide(other, pb, rock, near).empty());
    CHECK(collide(other, pb, rock, apart).empty());
    ++tested;
  }
  MESSAGE(tested << " overlapping pairs");
  CHECK(tested > 40);
}

TEST_CASE("mesh pairs: dual derivatives match central differences") {
  const Geom rock = mesh_rock();
  const Mat3 Ra = rot(Vec3(1, -2, 0.5), 0.8), Rb = rot(Vec3(-1, 0.3, 2), 1.1);
  // Plane under a tilted rock: its lowest vertices.
  check_dual(plane(), pose(Vec3::Zero()), rock, pose(Vec3(0, 0, 0.05), Ra));
  // Sphere centre outside (closest point on a face, edge or vertex) and inside.
  check_dual(sphere(0.05), pose(Vec3(0.03, 0.1, 0.12), Rb), rock, pose(Vec3::Zero(), Ra));
  check_dual(sphere(0.05), pose(Vec3(0.01, 0.0, 0.01), Rb), rock, pose(Vec3::Zero(), Ra));
  // Box and rock, and rock and rock (face or edge contact at generic poses).
  check_dual(box(Vec3(0.1, 0.08, 0.05)), pose(Vec3(0.01, 0.02, 0.12), Rb), rock, pose(Vec3::Zero(), Ra));
  check_dual(rock, pose(Vec3(0.0, 0.05, 0.13), Rb), rock, pose(Vec3::Zero(), Ra));
}
