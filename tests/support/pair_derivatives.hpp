// Shared by the narrow-phase pair tests (test_exact_pairs.cpp,
// test_mesh_pairs.cpp, test_mesh_cylinder.cpp, test_hfield_pairs.cpp):
// shapes, poses, their motion along a twist, and the check of a pair's
// dual-number derivatives against central differences.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "core/dual.hpp"
#include "core/math.hpp"
#include "geometry/collision.hpp"
#include "geometry/convex_hull.hpp"

namespace contactlab {
namespace test_pair_derivatives {

// A geom of a moving body (id 0), friction 1.
inline Geom pair_geom(GeomType type, const Vec3& size) {
  Geom g;
  g.type = type;
  g.size = size;
  g.body = 0;
  g.friction = 1;
  return g;
}
// A mesh geom: the convex hull of the points.
inline Geom hull_geom(const std::vector<Vec3>& points) {
  Geom g = pair_geom(GeomType::Mesh, Vec3::Zero());
  g.hull = std::make_shared<ConvexHull>(build_convex_hull(points, "test mesh"));
  return g;
}
// A mesh geom of a box's eight corners (its size the half-extents).
inline Geom hull_box(const Vec3& half) {
  std::vector<Vec3> p;
  for (int k = 0; k < 8; ++k)
    p.emplace_back((k & 1) ? half.x() : -half.x(), (k & 2) ? half.y() : -half.y(), (k & 4) ? half.z() : -half.z());
  Geom g = hull_geom(p);
  g.size = half;
  return g;
}
// A uniformly random rotation (normalised Gaussian quaternion).
inline Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<Real> N(0, 1);
  return Quat(N(rng), N(rng), N(rng), N(rng)).normalized().toRotationMatrix();
}

inline Mat3 rot(const Vec3& axis, Real angle) { return Eigen::AngleAxis<Real>(angle, axis.normalized()).toRotationMatrix(); }
inline GeomPose pose(const Vec3& p, const Mat3& R = Mat3::Identity()) {
  GeomPose g;
  g.pos_W = p;
  g.R_WG = R;
  return g;
}
inline Mat3 skew(const Vec3& w) {
  Mat3 S;
  S << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
  return S;
}

// A pose moved along the twist (dp, dw) by t: position p + t dp, rotation
// Exp(t dw) R.
inline GeomPose moved(const GeomPose& p, const Vec3& dp, const Vec3& dw, Real t) {
  return pose(p.pos_W + t * dp, (dw.norm() > 0 ? rot(dw, t * dw.norm()) : Mat3::Identity()) * p.R_WG);
}
// The same pose over dual numbers, with the twist as its tangent.
inline GeomPoseT<Dual> seeded(const GeomPose& p, const Vec3& dp, const Vec3& dw) {
  GeomPoseT<Dual> d;
  const Mat3 dR = skew(dw) * p.R_WG;
  for (int i = 0; i < 3; ++i) {
    d.pos_W[i] = Dual(p.pos_W[i], dp[i]);
    for (int j = 0; j < 3; ++j) d.R_WG(i, j) = Dual(p.R_WG(i, j), dR(i, j));
  }
  return d;
}

// Dual derivatives of every contact's gap, point and normal against central
// differences (step 1e-6) of the double routine, both geoms moved along
// fixed twists. Bound: 1e-6 of the largest derivative. The differences'
// truncation is ~(1e-6)^2 / r^2 ~ 1e-11 and their rounding ~1e-16 / 1e-6 =
// 1e-10; the minimisers' own stencil (argmin_pullback.hpp) is ~1e-8 relative;
// 1e-6 leaves a factor of 100 over the largest of these, and a wrong
// derivative (a frozen minimiser, a missing term) is off by O(1).
// Returns the number of contacts compared.
inline int check_dual(const Geom& a, const GeomPose& pa, const Geom& b, const GeomPose& pb, Real margin = 1e-2) {
  const Vec3 dpa(0.3, -0.2, 0.5), dwa(0.4, 0.1, -0.3), dpb(-0.1, 0.4, 0.2), dwb(-0.2, 0.5, 0.3);
  std::vector<ContactT<Dual>> dual;
  collide_geoms_t<Dual>(a, seeded(pa, dpa, dwa), 1, b, seeded(pb, dpb, dwb), 2, margin, dual);
  const Real eps = 1e-6;
  auto at = [&](Real t) {
    std::vector<Contact> out;
    collide_geoms(a, moved(pa, dpa, dwa, t), 1, b, moved(pb, dpb, dwb, t), 2, margin, out);
    return out;
  };
  const std::vector<Contact> base = at(0), plus = at(eps), minus = at(-eps);
  REQUIRE(!dual.empty());
  REQUIRE(dual.size() == base.size());
  REQUIRE(plus.size() == base.size());
  REQUIRE(minus.size() == base.size());
  Real err = 0, scale = 0;
  auto compare = [&](const Dual& x, Real p, Real m) {
    err = std::max(err, std::abs(x.d - (p - m) / (2 * eps)));
    scale = std::max(scale, std::abs(x.d));
  };
  // Contacts of equal depth (a line contact) may be emitted in either order
  // at +-eps: each is matched to the nearest point, as the pull-back's
  // redetection does.
  auto nearest = [](const std::vector<Contact>& cs, const Vec3& p) -> const Contact& {
    size_t best = 0;
    for (size_t i = 1; i < cs.size(); ++i)
      if ((cs[i].point_W - p).norm() < (cs[best].point_W - p).norm()) best = i;
    return cs[best];
  };
  for (size_t k = 0; k < dual.size(); ++k) {
    const Vec3 p(dual[k].point_W[0].v, dual[k].point_W[1].v, dual[k].point_W[2].v);
    const Contact &b0 = nearest(base, p), &cp = nearest(plus, p), &cm = nearest(minus, p);
    // The dual values are the double routine's (same arithmetic, up to rounding).
    // Bound: the smooth minimiser's Newton step divides the slope's rounding
    // (~1e-16 |f| / 1e-4) by the curvature, so the Real and Dual evaluations
    // (vectorised or not) may differ by ~1e-12 in the point; the gap, stationary
    // there, by less.
    CHECK(std::abs(dual[k].gap.v - b0.gap) <= 1e-12);
    compare(dual[k].gap, cp.gap, cm.gap);
    for (int c = 0; c < 3; ++c) {
      compare(dual[k].point_W[c], cp.point_W[c], cm.point_W[c]);
      compare(dual[k].normal_W[c], cp.normal_W[c], cm.normal_W[c]);
    }
  }
  MESSAGE(dual.size() << " contacts, max |dual - central difference| = " << err << ", max |dual| = " << scale);
  CHECK(scale > 1e-2);  // the twists move every contact
  CHECK(err <= 1e-6 * scale);
  return static_cast<int>(dual.size());
}

}  // namespace test_pair_derivatives
}  // namespace contactlab
