// Convex hulls of mesh geoms (geometry/convex_hull.hpp): topology of known
// solids, interior points dropped, the refusals of degenerate inputs.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "geometry/convex_hull.hpp"

using namespace contactlab;

namespace {

std::vector<Vec3> cube_points(Real h) {
  std::vector<Vec3> p;
  for (int k = 0; k < 8; ++k) p.emplace_back((k & 1) ? h : -h, (k & 2) ? h : -h, (k & 4) ? h : -h);
  return p;
}

std::string refusal(const std::vector<Vec3>& p) {
  try {
    build_convex_hull(p, "mesh 'm' (file x.obj)");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Every face plane holds its loop and has every vertex behind it; loops run
// counter-clockwise about the outward normal. Tolerance 1e-12 m: rounding of
// coordinates of order 1.
void check_hull_consistent(const ConvexHull& h) {
  for (int f = 0; f < h.num_faces(); ++f) {
    const Vec3& n = h.face_normals[f];
    CHECK(std::abs(n.norm() - 1) < 1e-12);
    for (const Vec3& v : h.vertices) CHECK(n.dot(v) <= h.face_offsets[f] + 1e-12);
    const int m = h.face_size(f);
    REQUIRE(m >= 3);
    Vec3 area = Vec3::Zero();
    for (int k = 0; k < m; ++k) {
      CHECK(std::abs(n.dot(h.face_vertex(f, k)) - h.face_offsets[f]) < 1e-12);
      area += h.face_vertex(f, k).cross(h.face_vertex(f, (k + 1) % m));
    }
    CHECK(area.dot(n) > 0);
  }
  // Euler's formula for a convex polyhedron: V - E + F = 2.
  CHECK(static_cast<int>(h.vertices.size()) - static_cast<int>(h.edges.size()) + h.num_faces() == 2);
}

}  // namespace

TEST_CASE("mesh hull: a cube gives 8 vertices, 6 quadrilateral faces, 12 edges in 3 directions") {
  std::vector<Vec3> p = cube_points(0.5);
  p.emplace_back(0.1, -0.2, 0.3);  // interior points are not hull vertices
  p.emplace_back(0, 0, 0);
  p.emplace_back(0.5, 0, 0);        // on a face: merged away (qhull's coplanar merge)
  const ConvexHull h = build_convex_hull(p, "cube");
  CHECK(h.vertices.size() == 8);
  CHECK(h.num_faces() == 6);
  CHECK(h.max_face_vertices == 4);
  CHECK(h.edges.size() == 12);
  CHECK(h.edge_dirs.size() == 3);
  CHECK(h.bounding_radius == doctest::Approx(0.5 * std::sqrt(3.0)).epsilon(1e-14));
  for (int f = 0; f < 6; ++f) CHECK(h.face_offsets[f] == doctest::Approx(0.5).epsilon(1e-14));
  check_hull_consistent(h);
}

TEST_CASE("mesh hull: random point clouds give consistent hulls that contain every point") {
  std::mt19937 rng(7);
  std::normal_distribution<Real> N(0, 1);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Vec3> p;
    for (int i = 0; i < 40; ++i) p.emplace_back(N(rng), 0.5 * N(rng), 2 * N(rng));
    const ConvexHull h = build_convex_hull(p, "cloud");
    check_hull_consistent(h);
    for (const Vec3& q : p)
      for (int f = 0; f < h.num_faces(); ++f) CHECK(h.face_normals[f].dot(q) <= h.face_offsets[f] + 1e-9);
  }
}

TEST_CASE("mesh hull: transformed_hull moves vertices and planes together") {
  const ConvexHull h = build_convex_hull(cube_points(0.5), "cube");
  const Mat3 R = Eigen::AngleAxis<Real>(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Vec3 t(0.3, -1, 2);
  const ConvexHull g = transformed_hull(h, R, t);
  check_hull_consistent(g);
  for (size_t i = 0; i < h.vertices.size(); ++i) CHECK((g.vertices[i] - (R * h.vertices[i] + t)).norm() < 1e-14);
}

TEST_CASE("mesh hull: degenerate point sets are refused naming the mesh") {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  const std::string few = refusal({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)});
  CHECK(contains(few, "mesh 'm' (file x.obj)"));
  CHECK(contains(few, "at least 4 points, got 3"));
  CHECK(contains(refusal({Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2), Vec3(-3, -3, -3)}), "on a line"));
  CHECK(contains(refusal({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0), Vec3(0.3, 0.2, 0)}),
                 "in a plane"));
  CHECK(contains(refusal({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, nan)}), "point 3 is not finite"));
  CHECK(contains(refusal({Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1)}), "coincide"));
  // A face with more vertices than the clipping buffers hold.
  std::vector<Vec3> prism;
  const int n = kMaxHullFaceVertices + 1;
  for (int k = 0; k < n; ++k)
    for (Real z : {-0.1, 0.1}) prism.emplace_back(std::cos(2 * kPi * k / n), std::sin(2 * kPi * k / n), z);
  CHECK(contains(refusal(prism), "more than the 128"));
}
