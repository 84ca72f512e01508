// Height fields against every moving shape (geometry/collide_hfield.cpp).
// References: a height field sampling a plane exactly (flat, or linear in y)
// must give the plane routines' contacts (plane-sphere, -box, -capsule,
// -cylinder, -mesh: independent code); a shape sliding across cell
// boundaries on a flat field keeps the floor's normal and depth (no push from
// the prisms' walls); swap symmetry; the dual derivatives against central
// differences.
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

// A field over [-1, 1]^2 on an n x n grid whose surface is z = z0 + slope y
// (elevation top = 0.5 m): exactly that plane when slope >= 0 and z0 >= 0.
Geom planar_field(int n, Real z0, Real slope) {
  auto h = std::make_shared<HeightField>();
  h->nrow = h->ncol = n;
  h->sx = h->sy = 1;
  h->top = 0.5;
  h->base = 0.1;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) h->elevation.push_back((z0 + slope * h->y_at(j)) / h->top);
  Geom g = pair_geom(GeomType::HField, Vec3::Zero());
  g.body = -1;
  g.hfield = h;
  return g;
}
// The plane z = z0 + slope y.
Geom plane_geom() {
  Geom g = pair_geom(GeomType::Plane, Vec3::Zero());
  g.body = -1;
  return g;
}
GeomPose plane_pose(Real z0, Real slope) {
  const Vec3 n = Vec3(0, -slope, 1).normalized();
  return pose(Vec3(0, 0, z0), Eigen::Quaternion<Real>::FromTwoVectors(Vec3::UnitZ(), n).toRotationMatrix());
}
std::vector<Contact> hf_contacts(const Geom& a, const GeomPose& pa, const Geom& b, const GeomPose& pb, Real margin = 0) {
  std::vector<Contact> out;
  collide_geoms(a, pa, 1, b, pb, 2, margin, out);
  return out;
}
Real hf_deepest(const std::vector<Contact>& cs) {
  Real g = 1e300;
  for (const Contact& c : cs) g = std::min(g, c.gap);
  return g;
}

// Shallow configurations of `g` against a field sampling the plane
// z = z0 + slope y and against that plane: the shape turned at random and
// moved along the plane's normal so that the plane's deepest gap is within
// +-5 mm (resting or barely penetrating). Both routines locate the same
// deepest point on the same plane (the sphere, capsule: exact distances; the
// box, mesh: a clipped face against vertices below the plane), so the deepest
// gap agrees to 1e-9 m (capsule: the axis search's precision, ~1e-10 of the
// segment) and its normal to 1e-9.
void check_against_plane(const Geom& g, Real z0, Real slope, int& compared) {
  const Geom field = planar_field(11, z0, slope), pl = plane_geom();
  const GeomPose pf = pose(Vec3::Zero()), pp = plane_pose(z0, slope);
  const Vec3 up = Vec3(0, -slope, 1).normalized();
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> U(-1, 1);
  for (int t = 0; t < 300; ++t) {
    GeomPose ps = pose(Vec3(0.6 * U(rng), 0.6 * U(rng), 0.5), random_rotation(rng));
    ps.pos_W.z() += z0 + slope * ps.pos_W.y();
    const Real g0 = hf_deepest(hf_contacts(g, ps, pl, pp, 10.0));
    ps.pos_W += (0.005 * U(rng) - g0) * up;
    const auto on_field = hf_contacts(g, ps, field, pf), on_plane = hf_contacts(g, ps, pl, pp);
    REQUIRE(on_field.empty() == on_plane.empty());
    if (on_plane.empty()) continue;
    ++compared;
    CHECK(std::abs(hf_deepest(on_field) - hf_deepest(on_plane)) < 1e-9);
    const Contact* d = &on_field[0];
    for (const Contact& c : on_field)
      if (c.gap < d->gap) d = &c;
    CHECK((d->normal_W + up).norm() < 1e-9);  // from the shape (geom1) into the field
    if (g.type == GeomType::Sphere) CHECK(on_field.size() == 1);
  }
}

const Geom kShapes[] = {pair_geom(GeomType::Sphere, Vec3(0.05, 0, 0)), pair_geom(GeomType::Capsule, Vec3(0.04, 0.1, 0)),
                        pair_geom(GeomType::Box, Vec3(0.05, 0.07, 0.03)), hull_box(Vec3::Constant(0.05)),
                        pair_geom(GeomType::Cylinder, Vec3(0.08, 0.03, 0))};

}  // namespace

TEST_CASE("hfield pairs: a field sampling a plane gives the plane's deepest contact") {
  for (const Geom& g : kShapes) {
    const std::string type = to_string(g.type);
    CAPTURE(type);
    int flat = 0, sloped = 0;
    check_against_plane(g, 0.1, 0.0, flat);
    check_against_plane(g, 0.1, 0.1, sloped);
    MESSAGE(type << ": " << flat << " flat and " << sloped << " sloped configurations compared");
    CHECK(flat > 100);
    CHECK(sloped > 100);
  }
}

TEST_CASE("hfield pairs: crossing cell boundaries on a flat field never pushes sideways") {
  // The shapes slide along x over 1.5 cells (spacing 0.2 m), 1 mm deep (the
  // wheel lying on its side, rolled): every contact has the floor's normal and
  // the deepest the 1 mm (1e-12 m), whatever the prisms' walls and the cell
  // edges under them.
  const Geom field = planar_field(11, 0.1, 0.0);
  const Geom sphere = kShapes[0], cap = kShapes[1], box = kShapes[2], wheel = kShapes[4];
  const Mat3 turned = rot(Vec3(0, 0, 1), 0.3);
  int contacts = 0;
  for (int k = 0; k <= 300; ++k) {
    const Real x = 0.05 + 0.3 * k / 300;
    const GeomPose ps = pose(Vec3(x, 0.13, 0.1 + 0.05 - 1e-3));
    const GeomPose pc = pose(Vec3(x, 0.13, 0.1 + 0.04 - 1e-3), turned * rot(Vec3(0, 1, 0), kPi / 2));
    const GeomPose pb = pose(Vec3(x, 0.13, 0.1 + 0.03 - 1e-3), turned);
    const GeomPose pw = pose(Vec3(x, 0.13, 0.1 + 0.08 - 1e-3), turned * rot(Vec3(1, 0, 0), kPi / 2));
    for (const auto& [g, p] : {std::make_pair(&sphere, ps), std::make_pair(&cap, pc), std::make_pair(&box, pb),
                               std::make_pair(&wheel, pw)}) {
      const auto cs = hf_contacts(*g, p, field, pose(Vec3::Zero()));
      REQUIRE(!cs.empty());
      CHECK(std::abs(hf_deepest(cs) + 1e-3) < 1e-12);
      for (const Contact& c : cs) {
        CHECK((c.normal_W + Vec3::UnitZ()).norm() < 1e-12);
        // The wheel may also keep rim points found within a triangle's column
        // short of the rim's lowest point: real points of the wheel below the
        // floor, shallower than 1 mm.
        if (g->type == GeomType::Cylinder)
          CHECK((c.gap >= -1e-3 - 1e-12 && c.gap < 0));
        else
          CHECK(std::abs(c.gap + 1e-3) < 1e-12);
        ++contacts;
      }
    }
  }
  MESSAGE(contacts << " contacts checked");
}

TEST_CASE("hfield pairs: the field first gives the same contacts with normals negated") {
  const Geom field = planar_field(11, 0.1, 0.1);
  for (const Geom& g : kShapes) {
    const GeomPose ps = pose(Vec3(0.21, -0.33, 0.1 + 0.1 * -0.33 + 0.02), rot(Vec3(1, 2, 3), 0.7));
    const auto ab = hf_contacts(g, ps, field, pose(Vec3::Zero()), 0.05);
    const auto ba = hf_contacts(field, pose(Vec3::Zero()), g, ps, 0.05);
    REQUIRE(!ab.empty());
    REQUIRE(ab.size() == ba.size());
    for (size_t i = 0; i < ab.size(); ++i) {
      CHECK((ab[i].point_W - ba[i].point_W).norm() < 1e-15);
      CHECK((ab[i].normal_W + ba[i].normal_W).norm() < 1e-15);
      CHECK(ab[i].gap == ba[i].gap);
    }
  }
}

TEST_CASE("hfield pairs: dual derivatives match central differences on a bumpy field") {
  // Heights from a fixed random draw on a 6 x 6 grid over [-1, 1]^2: the
  // shapes rest on tilted triangles, inside one triangle's column, away from
  // the cell boundaries (where a contact may switch triangle).
  auto h = std::make_shared<HeightField>();
  h->nrow = h->ncol = 6;
  h->sx = h->sy = 1;
  h->top = 0.3;
  h->base = 0.1;
  std::mt19937 rng(8);
  std::uniform_real_distribution<Real> U(0, 1);
  for (int i = 0; i < 36; ++i) h->elevation.push_back(U(rng));
  Geom field = pair_geom(GeomType::HField, Vec3::Zero());
  field.body = -1;
  field.hfield = h;
  // Triangle 0 of cell (row 2, col 2): corners (i, j) = (2, 2), (3, 3), (2, 3);
  // a point inside it and its height.
  const Vec3 a = h->vertex(2, 2), b = h->vertex(3, 3), c = h->vertex(3, 2);
  const Vec3 inside = (0.5 * a + 0.3 * b + 0.2 * c);
  const Vec3 n = (b - a).cross(c - a).normalized();
  int total = 0;
  total += check_dual(kShapes[0], pose(inside + (0.05 - 2e-3) * n), field, pose(Vec3::Zero()));
  total += check_dual(kShapes[2], pose(inside + Vec3(0, 0, 0.03 + 0.01), rot(Vec3(1, 1, 0), 0.2)), field,
                      pose(Vec3::Zero()), 0.05);
  total += check_dual(kShapes[3], pose(inside + Vec3(0, 0, 0.05 + 0.01), rot(Vec3(1, -1, 0), 0.25)), field,
                      pose(Vec3::Zero()), 0.05);
  total += check_dual(pair_geom(GeomType::Cylinder, Vec3(0.03, 0.01, 0)),
                      pose(inside + (0.03 - 1e-3) * n, rot(Vec3(1, 0.2, 0), kPi / 2) * rot(Vec3(0, 0, 1), 0.3)), field,
                      pose(Vec3::Zero()));
  total += check_dual(pair_geom(GeomType::Capsule, Vec3(0.02, 0.03, 0)),
                      pose(inside + (0.02 - 1e-3) * n + Vec3(0, 0, 0.004), rot(Vec3(0, 1, 0), 1.2)), field,
                      pose(Vec3::Zero()));
  CHECK(total >= 4);
}

TEST_CASE("hfield pairs: every moving shape has a routine, two static geoms none") {
  CHECK_FALSE(pair_supported(GeomType::Plane, GeomType::HField));
  CHECK_FALSE(pair_supported(GeomType::HField, GeomType::HField));
  for (const GeomType t : {GeomType::Sphere, GeomType::Box, GeomType::Capsule, GeomType::Cylinder, GeomType::Mesh}) {
    CHECK(pair_supported(t, GeomType::HField));
    CHECK(pair_supported(GeomType::HField, t));
  }
}
