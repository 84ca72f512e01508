// Distance queries shared by the pair routines: point against box and
// cylinder (exact signed distance), segment closest points, range clipping.
#include <algorithm>
#include <cmath>

#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

PointQuery point_box(const Vec3& p_W, const GeomPose& box, const Vec3& half) {
  const Mat3& R = box.R_WG;
  const Vec3 q = R.transpose() * (p_W - box.pos_W);  // point in box axes
  const Vec3 c = q.cwiseMax(-half).cwiseMin(half);   // projection onto the solid box
  const Vec3 diff = q - c;
  const Real dist = diff.norm();
  PointQuery r;
  if (dist > kTinyLength) {
    r.dist = dist;
    r.surface_W = box.pos_W + R * c;
    r.normal_W = R * (diff / dist);
    return r;
  }
  // Inside (or on the surface): leave through the face of least penetration.
  // Ties go to the highest axis so a centred point is pushed along local +z.
  int axis = 2;
  Real pen = half(2) - std::abs(q(2));
  for (int i = 1; i >= 0; --i) {
    const Real p = half(i) - std::abs(q(i));
    if (p < pen) { pen = p; axis = i; }
  }
  const Real sgn = q(axis) < 0 ? -1 : 1;
  Vec3 s = q;
  s(axis) = sgn * half(axis);
  r.dist = -pen;
  r.surface_W = box.pos_W + R * s;
  r.normal_W = sgn * R.col(axis);
  return r;
}

PointQuery point_cylinder(const Vec3& p_W, const GeomPose& cyl, Real radius, Real half_len) {
  const Mat3& R = cyl.R_WG;
  const Vec3 q = R.transpose() * (p_W - cyl.pos_W);  // point in cylinder axes
  const Real rho = std::hypot(q.x(), q.y());
  // Radial unit direction in local xy; on the axis it is undefined, use local +x.
  const Real ux = rho > kTinyLength ? q.x() / rho : 1;
  const Real uy = rho > kTinyLength ? q.y() / rho : 0;
  PointQuery r;
  // The solid cylinder is disc x interval, so its projection is the radial
  // clamp and the axial clamp taken separately.
  const Real rc = std::min(rho, radius);
  const Vec3 c(ux * rc, uy * rc, std::min(half_len, std::max(-half_len, q.z())));
  const Vec3 diff = q - c;
  const Real dist = diff.norm();
  if (dist > kTinyLength) {
    r.dist = dist;
    r.surface_W = cyl.pos_W + R * c;
    r.normal_W = R * (diff / dist);
    return r;
  }
  const Real pen_side = radius - rho;
  const Real pen_cap = half_len - std::abs(q.z());
  if (pen_side < pen_cap) {
    r.dist = -pen_side;
    r.surface_W = cyl.pos_W + R * Vec3(ux * radius, uy * radius, q.z());
    r.normal_W = R * Vec3(ux, uy, 0);
  } else {
    const Real sgn = q.z() < 0 ? -1 : 1;
    r.dist = -pen_cap;
    r.surface_W = cyl.pos_W + R * Vec3(q.x(), q.y(), sgn * half_len);
    r.normal_W = sgn * R.col(2);
  }
  return r;
}

Real closest_param(const Segment& s, const Vec3& p_W) {
  const Real dd = s.d_W.squaredNorm();
  if (dd <= kTinyLength * kTinyLength) return 0;
  return clamp01(s.d_W.dot(p_W - s.p0_W) / dd);
}

void closest_params(const Segment& s0, const Segment& s1, Real& t0, Real& t1) {
  // Minimise |r + t0 d0 - t1 d1|^2, r = p0 - p1. Stationarity:
  //   a t0 - b t1 = -c,   b t0 - e t1 = -f
  // with a = d0.d0, b = d0.d1, e = d1.d1, c = d0.r, f = d1.r.
  const Vec3 r = s0.p0_W - s1.p0_W;
  const Real a = s0.d_W.squaredNorm();
  const Real e = s1.d_W.squaredNorm();
  const Real b = s0.d_W.dot(s1.d_W);
  const Real c = s0.d_W.dot(r);
  const Real f = s1.d_W.dot(r);
  const Real tiny2 = kTinyLength * kTinyLength;
  if (a <= tiny2 && e <= tiny2) { t0 = t1 = 0; return; }
  if (a <= tiny2) { t0 = 0; t1 = clamp01(f / e); return; }
  if (e <= tiny2) { t1 = 0; t0 = clamp01(-c / a); return; }
  const Real denom = a * e - b * b;  // = |d0 x d1|^2
  // Parallel segments: every t0 is stationary; start from t0 = 0 and let the
  // clamping below pick a consistent pair.
  t0 = denom > 1e-14 * a * e ? clamp01((b * f - c * e) / denom) : 0;
  t1 = (b * t0 + f) / e;
  if (t1 < 0) {
    t1 = 0;
    t0 = clamp01(-c / a);
  } else if (t1 > 1) {
    t1 = 1;
    t0 = clamp01((b - c) / a);
  }
}

Real parallel_sin2(const Segment& s0, const Segment& s1) {
  const Real a = s0.d_W.squaredNorm();
  const Real e = s1.d_W.squaredNorm();
  if (a <= kTinyLength * kTinyLength || e <= kTinyLength * kTinyLength) return 0;
  return s0.d_W.cross(s1.d_W).squaredNorm() / (a * e);
}

bool clip_to_slab(Real x0, Real dx, Real half, Real& lo, Real& hi) {
  if (std::abs(dx) <= kTinyLength) return std::abs(x0) <= half && lo <= hi;
  Real ta = (-half - x0) / dx, tb = (half - x0) / dx;
  if (ta > tb) std::swap(ta, tb);
  lo = std::max(lo, ta);
  hi = std::min(hi, tb);
  return lo <= hi;
}

bool clip_to_disc(const Vec3& q0, const Vec3& dq, Real radius, Real& lo, Real& hi) {
  // |q0_xy + t dq_xy|^2 <= radius^2  <=>  A t^2 + 2 B t + C <= 0.
  const Real A = dq.x() * dq.x() + dq.y() * dq.y();
  const Real B = q0.x() * dq.x() + q0.y() * dq.y();
  const Real C = q0.x() * q0.x() + q0.y() * q0.y() - radius * radius;
  if (A <= kTinyLength * kTinyLength) return C <= 0 && lo <= hi;
  const Real disc = B * B - A * C;
  if (disc < 0) return false;
  const Real s = std::sqrt(disc);
  lo = std::max(lo, (-B - s) / A);
  hi = std::min(hi, (-B + s) / A);
  return lo <= hi;
}

}  // namespace collision_detail
}  // namespace contactlab
