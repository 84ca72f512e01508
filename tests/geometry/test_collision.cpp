// Narrow phase (geometry/collision.hpp) on configurations with known answers:
// gap, normal direction (geom1 -> geom2), midpoint, number of manifold points;
// plus argument order, margin, friction and degenerate (NaN-free) cases, and
// random capsule/sphere poses against an independent brute-force distance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/math.hpp"
#include "geometry/collision.hpp"

using namespace contactlab;

namespace {

Geom make_geom(GeomType type, const Vec3& size, int body = 0, Real friction = 1) {
  Geom g;
  g.type = type;
  g.size = size;
  g.body = body;
  g.friction = friction;
  return g;
}
Geom sphere(Real r) { return make_geom(GeomType::Sphere, Vec3(r, 0, 0)); }
Geom capsule(Real r, Real h) { return make_geom(GeomType::Capsule, Vec3(r, h, 0)); }
Geom cylinder(Real r, Real h) { return make_geom(GeomType::Cylinder, Vec3(r, h, 0)); }
Geom box(const Vec3& half) { return make_geom(GeomType::Box, half); }
Geom plane() { return make_geom(GeomType::Plane, Vec3::Zero(), -1); }

Mat3 rot(const Vec3& axis, Real angle) { return Eigen::AngleAxis<Real>(angle, axis.normalized()).toRotationMatrix(); }
GeomPose pose(const Vec3& p, const Mat3& R = Mat3::Identity()) {
  GeomPose g;
  g.pos_W = p;
  g.R_WG = R;
  return g;
}

// Geom ids 1 (a) and 2 (b). The default margin lets resting contacts (gap 0) through.
std::vector<Contact> collide(const Geom& a, const GeomPose& pa, const Geom& b, const GeomPose& pb,
                             Real margin = 1e-3) {
  std::vector<Contact> out;
  const int n = collide_geoms(a, pa, 1, b, pb, 2, margin, out);
  CHECK(n == static_cast<int>(out.size()));
  return out;
}

bool finite(const Vec3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

// Every contact: finite, unit normal, right-handed orthonormal (n, t1, t2).
void check_frames(const std::vector<Contact>& cs) {
  for (const Contact& c : cs) {
    REQUIRE(finite(c.point_W));
    REQUIRE(finite(c.normal_W));
    REQUIRE(std::isfinite(c.gap));
    CHECK(c.normal_W.norm() == doctest::Approx(1).epsilon(1e-12));
    CHECK(c.tangent1_W.norm() == doctest::Approx(1).epsilon(1e-12));
    CHECK(std::abs(c.normal_W.dot(c.tangent1_W)) < 1e-12);
    CHECK((c.normal_W.cross(c.tangent1_W) - c.tangent2_W).norm() < 1e-12);
  }
}

void check_vec(const Vec3& got, const Vec3& want, Real tol = 1e-6) {
  INFO("got " << got.transpose() << " want " << want.transpose());
  CHECK((got - want).norm() < tol);
}

// Every contact has this normal and gap.
void check_all(const std::vector<Contact>& cs, const Vec3& normal, Real gap, Real tol = 1e-6) {
  check_frames(cs);
  for (const Contact& c : cs) {
    check_vec(c.normal_W, normal, tol);
    CHECK(c.gap == doctest::Approx(gap).epsilon(tol));
  }
}

// Whether some contact point is at p (within tol).
bool has_point(const std::vector<Contact>& cs, const Vec3& p, Real tol = 1e-6) {
  return std::any_of(cs.begin(), cs.end(), [&](const Contact& c) { return (c.point_W - p).norm() < tol; });
}

Real min_gap(const std::vector<Contact>& cs) {
  Real g = 1e300;
  for (const Contact& c : cs) g = std::min(g, c.gap);
  return g;
}

// Independent signed distances for the brute-force checks (local coordinates).
Real sd_box_local(const Vec3& q, const Vec3& h) {
  const Vec3 e = q.cwiseAbs() - h;
  return e.cwiseMax(0).norm() + std::min(e.maxCoeff(), Real(0));
}
Real sd_cyl_local(const Vec3& q, Real r, Real h) {
  const Real er = std::hypot(q.x(), q.y()) - r, ez = std::abs(q.z()) - h;
  return std::hypot(std::max(er, Real(0)), std::max(ez, Real(0))) + std::min(std::max(er, ez), Real(0));
}

}  // namespace

TEST_CASE("collision: sphere-plane penetration gives one contact at the midpoint") {
  const auto cs = collide(plane(), pose(Vec3::Zero()), sphere(0.5), pose(Vec3(0.3, -0.2, 0.4)));
  REQUIRE(cs.size() == 1);
  check_all(cs, Vec3(0, 0, 1), -0.1);
  check_vec(cs[0].point_W, Vec3(0.3, -0.2, -0.05));
  CHECK(cs[0].geom1 == 1);
  CHECK(cs[0].geom2 == 2);
}

TEST_CASE("collision: sphere-plane on a tilted, offset plane uses the plane's local +z") {
  const Mat3 R = rot(Vec3::UnitX(), 0.5);
  const Vec3 n = R.col(2), o(1, 2, 3);
  const Vec3 c = o + 0.7 * n + 0.4 * R.col(0);
  const auto cs = collide(plane(), pose(o, R), sphere(0.5), pose(c), 1.0);
  REQUIRE(cs.size() == 1);
  check_all(cs, n, 0.2);
  check_vec(cs[0].point_W, c - 0.5 * n - 0.1 * n);
  // Below the plane counts as penetration (one-sided).
  const auto below = collide(plane(), pose(o, R), sphere(0.5), pose(o - 2.0 * n));
  REQUIRE(below.size() == 1);
  CHECK(below[0].gap == doctest::Approx(-2.5));
  check_vec(below[0].normal_W, n);
}

TEST_CASE("collision: sphere-sphere gap, normal and midpoint") {
  const auto cs = collide(sphere(0.5), pose(Vec3(1, 1, 1)), sphere(0.4), pose(Vec3(1.8, 1, 1)));
  REQUIRE(cs.size() == 1);
  check_all(cs, Vec3(1, 0, 0), -0.1);
  check_vec(cs[0].point_W, Vec3(1.45, 1, 1));
}

TEST_CASE("collision: box-plane resting gives the four bottom corners") {
  const Geom b = box(Vec3(0.5, 0.5, 0.5));
  SUBCASE("axis aligned") {
    const auto cs = collide(plane(), pose(Vec3::Zero()), b, pose(Vec3(0, 0, 0.5)));
    REQUIRE(cs.size() == 4);
    check_all(cs, Vec3(0, 0, 1), 0);
    for (Real x : {-0.5, 0.5})
      for (Real y : {-0.5, 0.5}) CHECK(has_point(cs, Vec3(x, y, 0)));
  }
  SUBCASE("rotated 45 degrees about z") {
    const auto cs = collide(plane(), pose(Vec3::Zero()), b, pose(Vec3(0, 0, 0.5), rot(Vec3::UnitZ(), kPi / 4)));
    REQUIRE(cs.size() == 4);
    check_all(cs, Vec3(0, 0, 1), 0);
    const Real d = 0.5 * std::sqrt(2.0);
    CHECK(has_point(cs, Vec3(d, 0, 0)));
    CHECK(has_point(cs, Vec3(0, -d, 0)));
  }
  SUBCASE("tilted 30 degrees about x: the two corners of the lowest edge") {
    const Real a = kPi / 6;
    const Real low = 0.5 * std::cos(a) + 0.5 * std::sin(a);
    const auto cs = collide(plane(), pose(Vec3::Zero()), b, pose(Vec3(0, 0, low - 0.01), rot(Vec3::UnitX(), a)));
    REQUIRE(cs.size() == 2);
    check_all(cs, Vec3(0, 0, 1), -0.01);
    for (const Contact& c : cs) CHECK(std::abs(c.point_W.x()) == doctest::Approx(0.5));
  }
}

TEST_CASE("collision: capsule-plane lying gives two points, standing one") {
  const Geom c = capsule(0.1, 0.5);
  const auto lying = collide(plane(), pose(Vec3::Zero()), c, pose(Vec3(0, 0, 0.1), rot(Vec3::UnitY(), kPi / 2)));
  REQUIRE(lying.size() == 2);
  check_all(lying, Vec3(0, 0, 1), 0);
  CHECK(has_point(lying, Vec3(0.5, 0, 0)));
  CHECK(has_point(lying, Vec3(-0.5, 0, 0)));
  const auto standing = collide(plane(), pose(Vec3::Zero()), c, pose(Vec3(0, 0, 0.59)));
  REQUIRE(standing.size() == 1);
  check_all(standing, Vec3(0, 0, 1), -0.01);
  check_vec(standing[0].point_W, Vec3(0, 0, -0.005));
}

TEST_CASE("collision: cylinder-plane on its side, standing, tilted") {
  const Real r = 0.3, h = 0.5;
  const Geom c = cylinder(r, h);
  SUBCASE("on its side: the two ends of the lowest line, for any roll angle") {
    for (Real roll : {0.0, 0.3, 1.1}) {
      const Mat3 R = rot(Vec3::UnitX(), kPi / 2) * rot(Vec3::UnitZ(), roll);  // axis along world y
      const auto cs = collide(plane(), pose(Vec3::Zero()), c, pose(Vec3(0.2, 0, r - 0.01), R));
      REQUIRE(cs.size() == 2);
      check_all(cs, Vec3(0, 0, 1), -0.01);
      CHECK(has_point(cs, Vec3(0.2, h, -0.005)));
      CHECK(has_point(cs, Vec3(0.2, -h, -0.005)));
    }
  }
  SUBCASE("standing on a cap: four points spread on the rim") {
    const auto cs = collide(plane(), pose(Vec3::Zero()), c, pose(Vec3(0, 0, h), rot(Vec3::UnitZ(), 0.2)));
    REQUIRE(cs.size() == 4);
    check_all(cs, Vec3(0, 0, 1), 0);
    Vec3 mean = Vec3::Zero();
    for (const Contact& k : cs) {
      CHECK(k.point_W.head<2>().norm() == doctest::Approx(r));
      mean += k.point_W / 4;
    }
    check_vec(mean, Vec3::Zero());
    // Upside down: the other cap.
    const auto flipped = collide(plane(), pose(Vec3::Zero()), c, pose(Vec3(0, 0, h), rot(Vec3::UnitX(), kPi)));
    CHECK(flipped.size() == 4);
  }
  SUBCASE("tilted: the lowest rim point of the lower cap") {
    const Real a = kPi / 6;
    const Real low = h * std::cos(a) + r * std::sin(a);
    const auto cs = collide(plane(), pose(Vec3::Zero()), c, pose(Vec3(0, 0, low - 0.02), rot(Vec3::UnitX(), a)));
    REQUIRE(cs.size() == 1);
    check_all(cs, Vec3(0, 0, 1), -0.02);
    // Lowest rim point lies in the tilt plane (x = 0), on the +y side for a tilt about +x.
    check_vec(cs[0].point_W, Vec3(0, h * std::sin(a) - r * std::cos(a), -0.01));
  }
}

TEST_CASE("collision: sphere-capsule against the side and beyond the end") {
  const Geom cap = capsule(0.2, 0.5);
  const GeomPose pc = pose(Vec3::Zero(), rot(Vec3::UnitY(), kPi / 2));  // axis along x
  const auto side = collide(sphere(0.3), pose(Vec3(0.3, 0, 0.45)), cap, pc);
  REQUIRE(side.size() == 1);
  check_all(side, Vec3(0, 0, -1), -0.05);
  check_vec(side[0].point_W, Vec3(0.3, 0, 0.175));
  const auto end = collide(sphere(0.3), pose(Vec3(0.9, 0, 0)), cap, pc);
  REQUIRE(end.size() == 1);
  check_all(end, Vec3(-1, 0, 0), -0.1);
}

TEST_CASE("collision: capsule-capsule crossing gives one point, parallel two") {
  const Geom cap = capsule(0.2, 0.5);
  const GeomPose along_x = pose(Vec3::Zero(), rot(Vec3::UnitY(), kPi / 2));
  const auto cross = collide(cap, along_x, cap, pose(Vec3(0, 0, 0.35), rot(Vec3::UnitX(), kPi / 2)));
  REQUIRE(cross.size() == 1);
  check_all(cross, Vec3(0, 0, 1), -0.05);
  check_vec(cross[0].point_W, Vec3(0, 0, 0.175));
  const auto parallel = collide(cap, along_x, cap, pose(Vec3(0.3, 0, 0.4), rot(Vec3::UnitY(), -kPi / 2)));
  REQUIRE(parallel.size() == 2);
  check_all(parallel, Vec3(0, 0, 1), 0);
  CHECK(has_point(parallel, Vec3(-0.2, 0, 0.2)));
  CHECK(has_point(parallel, Vec3(0.5, 0, 0.2)));
}

TEST_CASE("collision: sphere-box face, corner, and centre inside") {
  const Geom b = box(Vec3(0.5, 0.5, 0.5));
  const GeomPose pb = pose(Vec3::Zero());
  const auto face = collide(b, pb, sphere(0.2), pose(Vec3(0.1, 0.2, 0.65)));
  REQUIRE(face.size() == 1);
  check_all(face, Vec3(0, 0, 1), -0.05);
  check_vec(face[0].point_W, Vec3(0.1, 0.2, 0.475));
  const auto corner = collide(b, pb, sphere(0.2), pose(Vec3(0.6, 0.6, 0.6)));
  REQUIRE(corner.size() == 1);
  check_all(corner, Vec3(1, 1, 1).normalized(), 0.1 * std::sqrt(3.0) - 0.2);
  // Centre inside: pushed out through the nearest face (+x here).
  const auto inside = collide(b, pb, sphere(0.2), pose(Vec3(0.4, 0.1, -0.2)));
  REQUIRE(inside.size() == 1);
  check_all(inside, Vec3(1, 0, 0), -0.1 - 0.2);
  // Sphere first: the normal points from the sphere to the box.
  const auto swapped = collide(sphere(0.2), pose(Vec3(0.1, 0.2, 0.65)), b, pb);
  REQUIRE(swapped.size() == 1);
  check_all(swapped, Vec3(0, 0, -1), -0.05);
}

TEST_CASE("collision: capsule-box lying on a face rests on two points") {
  const Geom b = box(Vec3(1, 1, 0.5));
  const GeomPose pb = pose(Vec3::Zero());
  const Geom cap = capsule(0.1, 0.4);
  const Mat3 along_x = rot(Vec3::UnitY(), kPi / 2);
  SUBCASE("fully on the face") {
    const auto cs = collide(b, pb, cap, pose(Vec3(0, 0.3, 0.59), along_x));
    REQUIRE(cs.size() == 2);
    check_all(cs, Vec3(0, 0, 1), -0.01);
    CHECK(has_point(cs, Vec3(0.4, 0.3, 0.495)));
    CHECK(has_point(cs, Vec3(-0.4, 0.3, 0.495)));
  }
  SUBCASE("overhanging the edge: clipped to the face") {
    const auto cs = collide(b, pb, cap, pose(Vec3(0.9, 0, 0.6), along_x));
    REQUIRE(cs.size() == 2);
    check_all(cs, Vec3(0, 0, 1), 0);
    CHECK(has_point(cs, Vec3(0.5, 0, 0.5)));
    CHECK(has_point(cs, Vec3(1.0, 0, 0.5)));
  }
  SUBCASE("standing on its end: one point") {
    const auto cs = collide(b, pb, cap, pose(Vec3(0.2, 0, 0.99)));
    REQUIRE(cs.size() == 1);
    check_all(cs, Vec3(0, 0, 1), -0.01);
    check_vec(cs[0].point_W, Vec3(0.2, 0, 0.495));
  }
  SUBCASE("across a top edge: one point, diagonal normal") {
    // Capsule along y, axis at 45 degrees over the edge x = 1, z = 0.5.
    const Vec3 dir = Vec3(1, 0, 1).normalized();
    const Vec3 c = Vec3(1, 0, 0.5) + (0.1 - 0.02) * dir;
    const auto cs = collide(b, pb, cap, pose(c, rot(Vec3::UnitX(), kPi / 2)));
    REQUIRE(cs.size() == 1);
    check_all(cs, dir, -0.02);
  }
}

TEST_CASE("collision: box-box stacked with an offset gives the overlap square") {
  const Geom b = box(Vec3(0.5, 0.5, 0.5));
  const GeomPose pa = pose(Vec3::Zero()), pb = pose(Vec3(0.3, 0.2, 0.99));
  const auto cs = collide(b, pa, b, pb);
  REQUIRE(cs.size() == 4);
  check_all(cs, Vec3(0, 0, 1), -0.01);
  for (const Vec3& p : {Vec3(-0.2, -0.3, 0.495), Vec3(0.5, -0.3, 0.495), Vec3(0.5, 0.5, 0.495),
                        Vec3(-0.2, 0.5, 0.495)})
    CHECK(has_point(cs, p));
  // Other order: same square, reversed normal.
  const auto rev = collide(b, pb, b, pa);
  REQUIRE(rev.size() == 4);
  check_all(rev, Vec3(0, 0, -1), -0.01);
  for (const Contact& c : cs) CHECK(has_point(rev, c.point_W));
}

TEST_CASE("collision: box-box rotated on top is reduced to four points inside the overlap") {
  const Geom b = box(Vec3(0.5, 0.5, 0.5));
  const auto cs = collide(b, pose(Vec3::Zero()), b, pose(Vec3(0, 0, 0.99), rot(Vec3::UnitZ(), kPi / 4)));
  REQUIRE(cs.size() == 4);  // the clipped octagon has 8 vertices
  check_all(cs, Vec3(0, 0, 1), -0.01);
  Vec3 mean = Vec3::Zero();
  for (const Contact& c : cs) {
    CHECK(c.point_W.x() <= 0.5 + 1e-9);
    CHECK(c.point_W.y() <= 0.5 + 1e-9);
    CHECK(std::abs(c.point_W.head<2>().norm()) > 0.5);  // octagon vertices, not interior points
    mean += c.point_W / 4;
  }
  CHECK(mean.head<2>().norm() < 0.2);  // spread around the centre
}

TEST_CASE("collision: box-box crossing edges give one edge-edge point") {
  const Geom b = box(Vec3(0.5, 0.5, 0.5));
  const Real e = 0.5 * std::sqrt(2.0);  // edge height of a cube standing on an edge
  const auto cs = collide(b, pose(Vec3::Zero(), rot(Vec3::UnitX(), kPi / 4)), b,
                          pose(Vec3(0.05, -0.1, 2 * e - 0.01), rot(Vec3::UnitY(), kPi / 4)));
  REQUIRE(cs.size() == 1);
  check_all(cs, Vec3(0, 0, 1), -0.01);
  check_vec(cs[0].point_W, Vec3(0.05, 0, e - 0.005));
}

TEST_CASE("collision: box-box separated within the margin") {
  const Geom b = box(Vec3(0.5, 0.5, 0.5));
  CHECK(collide(b, pose(Vec3::Zero()), b, pose(Vec3(0, 0, 1.02)), 0.01).empty());
  const auto cs = collide(b, pose(Vec3::Zero()), b, pose(Vec3(0, 0, 1.02)), 0.03);
  REQUIRE(cs.size() == 4);
  check_all(cs, Vec3(0, 0, 1), 0.02);
}

TEST_CASE("collision: cylinder-box wheel on a box top, standing drum, wheel on an edge") {
  const Geom b = box(Vec3(1, 1, 0.5));
  const GeomPose pb = pose(Vec3::Zero());
  const Real r = 0.3, h = 0.1;
  const Geom wheel = cylinder(r, h);
  SUBCASE("wheel on the top face: the lowest line, for any roll angle") {
    for (Real roll : {0.0, 0.3, 0.77}) {
      const Mat3 R = rot(Vec3::UnitX(), kPi / 2) * rot(Vec3::UnitZ(), roll);  // axis along y
      const auto cs = collide(b, pb, wheel, pose(Vec3(0.2, 0, 0.5 + r - 0.01), R));
      // A rim sample that happens to sit next to the lowest line (roll 0.77)
      // may add a point; the line's two ends must be there with the exact gap.
      REQUIRE(cs.size() >= 2);
      REQUIRE(cs.size() <= 4);
      if (roll == 0.3) CHECK(cs.size() == 2);
      check_all(cs, Vec3(0, 0, 1), -0.01, 1e-2);
      CHECK(min_gap(cs) == doctest::Approx(-0.01).epsilon(1e-9));
      CHECK(has_point(cs, Vec3(0.2, h, 0.495)));
      CHECK(has_point(cs, Vec3(0.2, -h, 0.495)));
    }
  }
  SUBCASE("standing on the top face: four rim points") {
    const auto cs = collide(b, pb, cylinder(0.3, 0.2), pose(Vec3(0.1, 0, 0.69)));
    REQUIRE(cs.size() == 4);
    check_all(cs, Vec3(0, 0, 1), -0.01);
  }
  SUBCASE("wheel on the top edge parallel to its axis: two points, radial normal") {
    const Real dz = std::sqrt(r * r - 0.2 * 0.2) - 0.01;
    const Vec3 c(1.2, 0, 0.5 + dz);
    const auto cs = collide(b, pb, wheel, pose(c, rot(Vec3::UnitX(), kPi / 2)));
    REQUIRE(cs.size() == 2);
    const Vec3 to_c = Vec3(0.2, 0, dz);
    check_all(cs, to_c.normalized(), to_c.norm() - r);
    for (Real y : {-h, h}) {
      const Vec3 edge(1, y, 0.5);
      const Vec3 surf = c + Vec3(0, y, 0) - r * to_c.normalized();
      CHECK(has_point(cs, 0.5 * (edge + surf)));
    }
  }
  SUBCASE("cylinder first: normals reversed") {
    const auto cs = collide(wheel, pose(Vec3(0.2, 0, 0.79), rot(Vec3::UnitX(), kPi / 2)), b, pb);
    REQUIRE(cs.size() == 2);
    check_all(cs, Vec3(0, 0, -1), -0.01);
    CHECK(cs[0].geom1 == 1);
  }
}

TEST_CASE("collision: sphere-cylinder cap, side and rim") {
  const Geom c = cylinder(0.3, 0.5);
  const GeomPose pc = pose(Vec3::Zero());
  const auto cap = collide(sphere(0.2), pose(Vec3(0.1, 0, 0.65)), c, pc);
  REQUIRE(cap.size() == 1);
  check_all(cap, Vec3(0, 0, -1), -0.05);
  check_vec(cap[0].point_W, Vec3(0.1, 0, 0.475));
  const auto side = collide(sphere(0.2), pose(Vec3(0, 0.45, 0.1)), c, pc);
  REQUIRE(side.size() == 1);
  check_all(side, Vec3(0, -1, 0), -0.05);
  const auto rim = collide(sphere(0.2), pose(Vec3(0.4, 0, 0.6)), c, pc);
  REQUIRE(rim.size() == 1);
  check_all(rim, Vec3(-1, 0, -1).normalized(), 0.1 * std::sqrt(2.0) - 0.2);
}

TEST_CASE("collision: capsule-cylinder lying on the cap, along the side, crossing") {
  const Geom c = cylinder(0.4, 0.5);
  const GeomPose pc = pose(Vec3::Zero());
  const auto on_cap = collide(capsule(0.1, 0.2), pose(Vec3(0, 0.1, 0.59), rot(Vec3::UnitY(), kPi / 2)), c, pc);
  REQUIRE(on_cap.size() == 2);
  check_all(on_cap, Vec3(0, 0, -1), -0.01);
  CHECK(has_point(on_cap, Vec3(0.2, 0.1, 0.495)));
  CHECK(has_point(on_cap, Vec3(-0.2, 0.1, 0.495)));
  const auto along = collide(capsule(0.1, 0.3), pose(Vec3(0.49, 0, 0)), c, pc);
  REQUIRE(along.size() == 2);
  check_all(along, Vec3(-1, 0, 0), -0.01);
  CHECK(has_point(along, Vec3(0.395, 0, 0.3)));
  CHECK(has_point(along, Vec3(0.395, 0, -0.3)));
  const auto cross = collide(capsule(0.1, 0.3), pose(Vec3(0.49, 0, 0), rot(Vec3::UnitX(), kPi / 2)), c, pc);
  REQUIRE(cross.size() == 1);
  check_all(cross, Vec3(-1, 0, 0), -0.01);
}

TEST_CASE("collision: cylinder-cylinder stacked, side by side, crossed") {
  const Geom c = cylinder(0.3, 0.2);
  SUBCASE("stacked on caps with an offset") {
    const auto cs = collide(c, pose(Vec3::Zero()), c, pose(Vec3(0.1, 0, 0.39)));
    REQUIRE(cs.size() == 4);
    check_all(cs, Vec3(0, 0, 1), -0.01);
  }
  SUBCASE("lying side by side: the ends of the overlap") {
    const Mat3 along_x = rot(Vec3::UnitY(), kPi / 2);
    const auto cs = collide(c, pose(Vec3::Zero(), along_x), c, pose(Vec3(0.1, 0, 0.59), along_x));
    REQUIRE(cs.size() == 2);
    check_all(cs, Vec3(0, 0, 1), -0.01);
    CHECK(has_point(cs, Vec3(-0.1, 0, 0.295)));
    CHECK(has_point(cs, Vec3(0.2, 0, 0.295)));
  }
  SUBCASE("crossed logs: one point") {
    const auto cs = collide(c, pose(Vec3::Zero(), rot(Vec3::UnitY(), kPi / 2)), c,
                            pose(Vec3(0, 0, 0.59), rot(Vec3::UnitX(), kPi / 2)));
    REQUIRE(cs.size() == 1);
    check_all(cs, Vec3(0, 0, 1), -0.01);
    check_vec(cs[0].point_W, Vec3(0, 0, 0.295));
  }
}

TEST_CASE("collision: swapping the arguments negates the normal and keeps gap and points") {
  // One shape per type, b resting slightly into a from above (offset sideways
  // so no configuration is symmetric).
  const GeomType types[] = {GeomType::Plane, GeomType::Sphere, GeomType::Box, GeomType::Capsule, GeomType::Cylinder};
  auto shape = [](GeomType t) {
    switch (t) {
      case GeomType::Plane: return plane();
      case GeomType::Sphere: return sphere(0.5);
      case GeomType::Box: return box(Vec3(0.4, 0.3, 0.5));
      case GeomType::Capsule: return capsule(0.2, 0.3);
      case GeomType::Cylinder: return cylinder(0.4, 0.5);
      case GeomType::Mesh: break;  // not in `types`: tests/geometry/test_mesh_*.cpp
    }
    return sphere(0.5);
  };
  auto top = [](GeomType t) { return t == GeomType::Plane ? 0.0 : 0.5; };
  int pairs = 0;
  for (GeomType ta : types) {
    for (GeomType tb : types) {
      if (tb == GeomType::Plane || !pair_supported(ta, tb)) continue;
      CAPTURE(static_cast<int>(ta));
      CAPTURE(static_cast<int>(tb));
      Geom a = shape(ta), b = shape(tb);
      a.body = 3;
      b.body = 5;
      const GeomPose pa = pose(Vec3::Zero(), rot(Vec3(1, 2, 3), 0.05));
      const GeomPose pb = pose(Vec3(0.05, 0.03, top(ta) + 0.5 - 0.01), rot(Vec3(-2, 1, 1), 0.1));
      std::vector<Contact> ab, ba;
      const int nab = collide_geoms(a, pa, 7, b, pb, 9, 0.001, ab);
      const int nba = collide_geoms(b, pb, 9, a, pa, 7, 0.001, ba);
      REQUIRE(nab >= 1);
      REQUIRE(nab == nba);
      check_frames(ab);
      check_frames(ba);
      for (const Contact& c : ab) {
        CHECK(c.geom1 == 7);
        CHECK(c.geom2 == 9);
        CHECK(c.body1 == 3);
        CHECK(c.body2 == 5);
        CHECK(c.normal_W.z() > 0.5);  // from a (below) towards b (above)
      }
      for (const Contact& c : ba) {
        CHECK(c.geom1 == 9);
        CHECK(c.geom2 == 7);
        CHECK(c.body1 == 5);
        CHECK(c.body2 == 3);
      }
      if (ta != tb) {
        // Same routine, flipped: contact by contact.
        for (int k = 0; k < nab; ++k) {
          check_vec(ba[k].normal_W, -ab[k].normal_W, 1e-12);
          CHECK(ba[k].gap == doctest::Approx(ab[k].gap).epsilon(1e-12));
          check_vec(ba[k].point_W, ab[k].point_W, 1e-12);
        }
      } else {
        CHECK(min_gap(ba) == doctest::Approx(min_gap(ab)).epsilon(1e-9));
        for (const Contact& c : ba) CHECK(c.normal_W.z() < -0.5);
      }
      ++pairs;
    }
  }
  CHECK(pairs == 20);
}

TEST_CASE("collision: a contact is emitted only when the gap is below the margin") {
  const GeomPose pp = pose(Vec3::Zero());
  const GeomPose ps = pose(Vec3(0, 0, 0.52));  // gap 0.02
  CHECK(collide(plane(), pp, sphere(0.5), ps, 0.0).empty());
  CHECK(collide(plane(), pp, sphere(0.5), ps, 0.0199).empty());
  const auto cs = collide(plane(), pp, sphere(0.5), ps, 0.0201);
  REQUIRE(cs.size() == 1);
  CHECK(cs[0].gap == doctest::Approx(0.02));
  // Same rule for a manifold pair and a sampled pair.
  CHECK(collide(sphere(0.5), pose(Vec3::Zero()), sphere(0.5), pose(Vec3(1.02, 0, 0)), 0.019).empty());
  CHECK(collide(sphere(0.5), pose(Vec3::Zero()), sphere(0.5), pose(Vec3(1.02, 0, 0)), 0.021).size() == 1);
  const Geom b = box(Vec3(1, 1, 0.5));
  const GeomPose wheel = pose(Vec3(0, 0, 0.82), rot(Vec3::UnitX(), kPi / 2));
  CHECK(collide(b, pose(Vec3::Zero()), cylinder(0.3, 0.1), wheel, 0.019).empty());
  CHECK(collide(b, pose(Vec3::Zero()), cylinder(0.3, 0.1), wheel, 0.021).size() == 2);
}

TEST_CASE("collision: friction is the larger of the two, ids and bodies as given") {
  Geom a = sphere(0.5), b = sphere(0.5);
  a.friction = 0.3;
  a.body = 4;
  b.friction = 0.8;
  b.body = -1;
  std::vector<Contact> out;
  out.push_back(Contact{});  // appends, never clears
  CHECK(collide_geoms(a, pose(Vec3::Zero()), 11, b, pose(Vec3(0, 0, 0.9)), 12, 0, out) == 1);
  REQUIRE(out.size() == 2);
  CHECK(out[1].friction == doctest::Approx(0.8));
  CHECK(out[1].geom1 == 11);
  CHECK(out[1].geom2 == 12);
  CHECK(out[1].body1 == 4);
  CHECK(out[1].body2 == -1);
  std::vector<Contact> rev;
  collide_geoms(b, pose(Vec3(0, 0, 0.9)), 12, a, pose(Vec3::Zero()), 11, 0, rev);
  REQUIRE(rev.size() == 1);
  CHECK(rev[0].friction == doctest::Approx(0.8));
}

TEST_CASE("collision: pair_supported covers every pair but plane-plane") {
  const GeomType types[] = {GeomType::Plane, GeomType::Sphere, GeomType::Box, GeomType::Capsule, GeomType::Cylinder};
  for (GeomType a : types)
    for (GeomType b : types)
      CHECK(pair_supported(a, b) == !(a == GeomType::Plane && b == GeomType::Plane));
  std::vector<Contact> out;
  CHECK(collide_geoms(plane(), pose(Vec3::Zero()), 0, plane(), pose(Vec3::Zero()), 1, 1.0, out) == 0);
  CHECK(out.empty());
}

TEST_CASE("collision: coincident and degenerate shapes produce no NaN") {
  const Geom shapes[] = {plane(),          sphere(0.5),     box(Vec3(0.5, 0.5, 0.5)), capsule(0.2, 0.3),
                         cylinder(0.4, 0.5), sphere(0.0),   capsule(0.2, 0.0),        cylinder(0.3, 0.0),
                         box(Vec3::Zero())};
  for (const Geom& a : shapes) {
    for (const Geom& b : shapes) {
      std::vector<Contact> out;
      collide_geoms(a, pose(Vec3(1, 2, 3)), 0, b, pose(Vec3(1, 2, 3)), 1, 0.01, out);
      check_frames(out);
      if (!(a.type == GeomType::Plane && b.type == GeomType::Plane)) CHECK(!out.empty());
    }
  }
  // Coincident spheres: the fixed direction +z.
  const auto cs = collide(sphere(0.5), pose(Vec3::Zero()), sphere(0.3), pose(Vec3::Zero()));
  REQUIRE(cs.size() == 1);
  check_vec(cs[0].normal_W, Vec3::UnitZ());
  CHECK(cs[0].gap == doctest::Approx(-0.8));
}

TEST_CASE("collision: sphere and capsule against box and cylinder match a brute-force distance") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<Real> U(-1, 1);
  auto random_rot = [&]() { return rot(Vec3(U(rng), U(rng), U(rng)) + Vec3(1e-3, 0, 0), 3 * U(rng)); };
  const Vec3 half(0.4, 0.3, 0.2);
  const Real cr = 0.25, ch = 0.35;
  for (int trial = 0; trial < 200; ++trial) {
    const GeomPose ps = pose(Vec3(U(rng), U(rng), U(rng)), random_rot());
    const GeomPose cap_pose = pose(Vec3(U(rng), U(rng), U(rng)), random_rot());
    const Real rad = 0.1, hl = 0.3;
    const Vec3 axis = cap_pose.R_WG.col(2);
    for (int shape = 0; shape < 2; ++shape) {
      const Geom target = shape == 0 ? box(half) : cylinder(cr, ch);
      auto sd = [&](const Vec3& p_W) {
        const Vec3 q = ps.R_WG.transpose() * (p_W - ps.pos_W);
        return shape == 0 ? sd_box_local(q, half) : sd_cyl_local(q, cr, ch);
      };
      // Capsule: minimum over a fine sampling of the axis.
      Real best = 1e300;
      for (int i = 0; i <= 20000; ++i) best = std::min(best, sd(cap_pose.pos_W + (-hl + 2 * hl * i / 20000.0) * axis));
      const auto cs = collide(target, ps, capsule(rad, hl), cap_pose, 10.0);
      REQUIRE(!cs.empty());
      check_frames(cs);
      CHECK(min_gap(cs) == doctest::Approx(best - rad).epsilon(2e-5).scale(1));
      // Sphere at the capsule's centre.
      const auto ss = collide(sphere(rad), cap_pose, target, ps, 10.0);
      REQUIRE(ss.size() == 1);
      CHECK(ss[0].gap == doctest::Approx(sd(cap_pose.pos_W) - rad).epsilon(1e-12).scale(1));
    }
  }
}

TEST_CASE("collision: random overlapping pairs always produce finite contacts") {
  // Overlap is detected independently by sampling points inside both shapes;
  // every pair found overlapping (by more than 5 mm) must yield a contact.
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<Real> U(-1, 1), log_size(-1.7, -0.2);
  auto size = [&]() { return std::pow(10.0, log_size(rng)); };
  const GeomType types[] = {GeomType::Plane, GeomType::Sphere, GeomType::Box, GeomType::Capsule, GeomType::Cylinder};
  auto sd_local = [](const Geom& g, const Vec3& q) -> Real {
    switch (g.type) {
      case GeomType::Plane: return q.z();
      case GeomType::Sphere: return q.norm() - g.size.x();
      case GeomType::Box: return sd_box_local(q, g.size);
      case GeomType::Capsule: return (q - Vec3(0, 0, std::clamp(q.z(), -g.size.y(), g.size.y()))).norm() - g.size.x();
      case GeomType::Cylinder: return sd_cyl_local(q, g.size.x(), g.size.y());
      case GeomType::Mesh: break;  // not in `types`: tests/geometry/test_mesh_*.cpp
    }
    return 1;
  };
  int overlapping = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    Geom a = make_geom(types[trial % 5], Vec3(size(), size(), size()));
    Geom b = make_geom(types[1 + (trial / 5) % 4], Vec3(size(), size(), size()));
    const GeomPose pa = pose(0.5 * Vec3(U(rng), U(rng), U(rng)), rot(Vec3(U(rng), U(rng), U(rng)), 3 * U(rng)));
    const GeomPose pb = pose(pa.pos_W + Vec3(U(rng), U(rng), U(rng)), rot(Vec3(U(rng), U(rng), U(rng)), 3 * U(rng)));
    std::vector<Contact> out;
    collide_geoms(a, pa, 0, b, pb, 1, 0.0, out);
    check_frames(out);
    Real deepest = 0;
    for (int i = 0; i < 400; ++i) {
      const Vec3 x = pb.pos_W + 0.7 * Vec3(U(rng), U(rng), U(rng));
      const Real da = sd_local(a, pa.R_WG.transpose() * (x - pa.pos_W));
      const Real db = sd_local(b, pb.R_WG.transpose() * (x - pb.pos_W));
      deepest = std::min(deepest, std::max(da, db));
    }
    if (deepest < -0.005) {
      ++overlapping;
      CAPTURE(trial);
      CHECK(!out.empty());
    }
  }
  CHECK(overlapping > 300);  // the check above really ran
}
