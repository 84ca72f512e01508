// Distance queries shared by the pair routines: point against box and
// cylinder (exact signed distance), segment closest points, range clipping.
#include <algorithm>
#include <cmath>

#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

template <class T>
PointQueryT<T> point_box(const DeducedVec3<T>& p_W, const GeomPoseT<T>& box, const Vec3& half_in) {
  using std::abs;
  const Vec3T<T> half = half_in.template cast<T>();
  const Mat3T<T>& R = box.R_WG;
  const Vec3T<T> q = R.transpose() * (p_W - box.pos_W);  // point in box axes
  const Vec3T<T> c = q.cwiseMax(-half).cwiseMin(half);   // projection onto the solid box
  const Vec3T<T> diff = q - c;
  const T dist = diff.norm();
  PointQueryT<T> r;
  if (dist > T(kTinyLength)) {
    r.dist = dist;
    r.surface_W = box.pos_W + R * c;
    r.normal_W = R * (diff / dist);
    return r;
  }
  // Inside (or on the surface): leave through the face of least penetration.
  // Ties go to the highest axis so a centred point is pushed along local +z.
  int axis = 2;
  T pen = half(2) - abs(q(2));
  for (int i = 1; i >= 0; --i) {
    const T p = half(i) - abs(q(i));
    if (p < pen) { pen = p; axis = i; }
  }
  const Real sgn = q(axis) < T(0) ? -1 : 1;
  Vec3T<T> s = q;
  s(axis) = T(sgn) * half(axis);
  r.dist = -pen;
  r.surface_W = box.pos_W + R * s;
  r.normal_W = T(sgn) * R.col(axis);
  return r;
}

template <class T>
PointQueryT<T> point_cylinder(const DeducedVec3<T>& p_W, const GeomPoseT<T>& cyl, Real radius, Real half_len) {
  using std::abs;
  using std::hypot;
  const Mat3T<T>& R = cyl.R_WG;
  const Vec3T<T> q = R.transpose() * (p_W - cyl.pos_W);  // point in cylinder axes
  const T rho = hypot(q.x(), q.y());
  // Radial unit direction in local xy; on the axis it is undefined, use local +x.
  const T ux = rho > T(kTinyLength) ? T(q.x() / rho) : T(1);
  const T uy = rho > T(kTinyLength) ? T(q.y() / rho) : T(0);
  PointQueryT<T> r;
  // The solid cylinder is disc x interval, so its projection is the radial
  // clamp and the axial clamp taken separately.
  const T rc = std::min(rho, T(radius));
  const Vec3T<T> c(ux * rc, uy * rc, std::min(T(half_len), std::max(T(-half_len), q.z())));
  const Vec3T<T> diff = q - c;
  const T dist = diff.norm();
  if (dist > T(kTinyLength)) {
    r.dist = dist;
    r.surface_W = cyl.pos_W + R * c;
    r.normal_W = R * (diff / dist);
    return r;
  }
  const T pen_side = T(radius) - rho;
  const T pen_cap = T(half_len) - abs(q.z());
  if (pen_side < pen_cap) {
    r.dist = -pen_side;
    r.surface_W = cyl.pos_W + R * Vec3T<T>(ux * T(radius), uy * T(radius), q.z());
    r.normal_W = R * Vec3T<T>(ux, uy, T(0));
  } else {
    const Real sgn = q.z() < T(0) ? -1 : 1;
    r.dist = -pen_cap;
    r.surface_W = cyl.pos_W + R * Vec3T<T>(q.x(), q.y(), T(sgn * half_len));
    r.normal_W = T(sgn) * R.col(2);
  }
  return r;
}

template <class T>
T closest_param(const SegmentT<T>& s, const DeducedVec3<T>& p_W) {
  const T dd = s.d_W.squaredNorm();
  if (dd <= T(kTinyLength * kTinyLength)) return T(0);
  return clamp01(T(s.d_W.dot(p_W - s.p0_W) / dd));
}

template <class T>
void closest_params(const SegmentT<T>& s0, const SegmentT<T>& s1, T& t0, T& t1) {
  // Minimise |r + t0 d0 - t1 d1|^2, r = p0 - p1. Stationarity:
  //   a t0 - b t1 = -c,   b t0 - e t1 = -f
  // with a = d0.d0, b = d0.d1, e = d1.d1, c = d0.r, f = d1.r.
  const Vec3T<T> r = s0.p0_W - s1.p0_W;
  const T a = s0.d_W.squaredNorm();
  const T e = s1.d_W.squaredNorm();
  const T b = s0.d_W.dot(s1.d_W);
  const T c = s0.d_W.dot(r);
  const T f = s1.d_W.dot(r);
  const T tiny2 = T(kTinyLength * kTinyLength);
  if (a <= tiny2 && e <= tiny2) { t0 = t1 = T(0); return; }
  if (a <= tiny2) { t0 = T(0); t1 = clamp01(T(f / e)); return; }
  if (e <= tiny2) { t1 = T(0); t0 = clamp01(T(-c / a)); return; }
  const T denom = a * e - b * b;  // = |d0 x d1|^2
  // Parallel segments: every t0 is stationary; start from t0 = 0 and let the
  // clamping below pick a consistent pair.
  t0 = denom > T(1e-14) * a * e ? clamp01(T((b * f - c * e) / denom)) : T(0);
  t1 = (b * t0 + f) / e;
  if (t1 < T(0)) {
    t1 = T(0);
    t0 = clamp01(T(-c / a));
  } else if (t1 > T(1)) {
    t1 = T(1);
    t0 = clamp01(T((b - c) / a));
  }
}

template <class T>
T parallel_sin2(const SegmentT<T>& s0, const SegmentT<T>& s1) {
  const T a = s0.d_W.squaredNorm();
  const T e = s1.d_W.squaredNorm();
  if (a <= T(kTinyLength * kTinyLength) || e <= T(kTinyLength * kTinyLength)) return T(0);
  return s0.d_W.cross(s1.d_W).squaredNorm() / (a * e);
}

template <class T>
bool clip_to_slab(const T& x0, const T& dx, Real half, T& lo, T& hi) {
  using std::abs;
  if (abs(dx) <= T(kTinyLength)) return abs(x0) <= T(half) && lo <= hi;
  T ta = (T(-half) - x0) / dx, tb = (T(half) - x0) / dx;
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

#define CONTACTLAB_QUERY_INSTANCES(T)                                                                  \
  template PointQueryT<T> point_box<T>(const DeducedVec3<T>&, const GeomPoseT<T>&, const Vec3&);              \
  template PointQueryT<T> point_cylinder<T>(const DeducedVec3<T>&, const GeomPoseT<T>&, Real, Real);          \
  template T closest_param<T>(const SegmentT<T>&, const DeducedVec3<T>&);                                     \
  template void closest_params<T>(const SegmentT<T>&, const SegmentT<T>&, T&, T&);                      \
  template T parallel_sin2<T>(const SegmentT<T>&, const SegmentT<T>&);                                  \
  template bool clip_to_slab<T>(const T&, const T&, Real, T&, T&);
CONTACTLAB_QUERY_INSTANCES(Real)
CONTACTLAB_QUERY_INSTANCES(Dual)
#undef CONTACTLAB_QUERY_INSTANCES

}  // namespace collision_detail
}  // namespace contactlab
