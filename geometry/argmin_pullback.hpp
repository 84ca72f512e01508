// Private to the narrow phase: the searched pairs' 1D minimisers made smooth
// and differentiable. The golden-section search (minimize_convex_01) locates
// the minimiser t* of a convex f on [0, 1] to ~4e-10; this header turns that
// located t* into the exact minimiser as a function of the poses, by the
// implicit-function theorem on the piece of f that holds at t*:
//  - f smooth at t* (a curved distance: a rim or an axis against an edge):
//    one Newton step t* - f'(t*) / f''(t*), with f' evaluated over the
//    scalar T, so that dt/dp = -(df'/dp) / f'' (the minimiser's derivative);
//  - f with a kink at t* (two linear pieces, e.g. the deepest point of a
//    segment in a box, where two face depths are equal): the intersection of
//    the two pieces, each evaluated over T;
//  - t* at an end (0 or 1): the end, a constant.
// Derivatives in t are central differences of f over T (only in the search
// parameter, never in the poses): exact for the linear pieces up to rounding,
// and fourth order for the smooth ones (e = 1e-4).
#pragma once

#include <algorithm>
#include <cmath>

#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

// Stencil for telling a kink from a smooth minimum: the search's 4e-10 is far
// inside it, and 1e-6 of a segment is far below any feature size.
constexpr Real kArgminKinkStep = 1e-6;
// Stencil for f' and f'' at a smooth minimum (fourth-order differences):
// rounding in f'' ~3e-15 |f| / e^2 (~3e-7 |f| / f'' relative), truncation
// ~e^4. With second-order differences no step was good enough: 1e-4 gave
// 1.5e-5 relative (truncation), 1e-5 gave 5e-6 (rounding) on the random poses
// of tests/adjoints/test_exact_pullback.cpp.
constexpr Real kArgminSmoothStep = 1e-4;

// Minimiser on [0, 1] of the convex f (T -> T), as a function of the poses
// carried by T. `length`: the length of the segment (or arc) t runs over, m;
// slopes below 1e-3 of it count as a smooth minimum, steeper ones on both
// sides as a kink.
template <class T, class F>
T argmin_01_t(const F& f, Real length) {
  const Real t = minimize_convex_01([&](Real s) { return value_of(f(T(s))); });
  const Real ek = kArgminKinkStep;
  if (!(t - 2 * ek > 0 && t + 2 * ek < 1)) return T(t);  // at (or a hair from) an end
  const T fm2 = f(T(t - 2 * ek)), fm = f(T(t - ek)), fp = f(T(t + ek)), fp2 = f(T(t + 2 * ek));
  const T slope_left = (fm - fm2) / ek, slope_right = (fp2 - fp) / ek;
  const Real steep = 1e-3 * std::max(length, kTinyLength);
  if (value_of(slope_left) < -steep && value_of(slope_right) > steep) {
    // Kink: the two lines through (t - e, fm) and (t + e, fp) meet.
    const T t1 = T(t - ek), t2 = T(t + ek);
    const T tk = (fp - fm - slope_right * t2 + slope_left * t1) / (slope_left - slope_right);
    return std::min(T(t + 2 * ek), std::max(T(t - 2 * ek), tk));
  }
  const Real es = std::min({kArgminSmoothStep, t / 2, (1 - t) / 2});
  const T f0 = f(T(t)), fsm = f(T(t - es)), fsp = f(T(t + es)), fsm2 = f(T(t - 2 * es)), fsp2 = f(T(t + 2 * es));
  const T slope = (fsm2 - fsp2 + 8 * (fsp - fsm)) / (12 * es);
  const Real curvature = value_of(-fsp2 - fsm2 + 16 * (fsp + fsm) - 30 * f0) / (12 * es * es);
  // A flat minimum (f linear or constant through t*) has no unique minimiser:
  // keep the located one.
  if (!(curvature > 1e-9 * std::max(length, kTinyLength))) return T(t);
  const T tn = T(t) - slope / curvature;
  return std::min(T(1), std::max(T(0), tn));
}

// Over-T versions of the Real-only helpers of collision_detail.hpp.
template <class T>
T cylinder_support_radius_t(const Vec3T<T>& axis_W, Real radius, Real half_len, const Vec3T<T>& L_W) {
  using std::abs;
  using std::sqrt;
  const T al = std::min(T(1), T(abs(axis_W.dot(L_W))));
  const T s2 = T(1) - al * al;
  return T(half_len) * al + T(radius) * (s2 > T(0) ? T(sqrt(s2)) : T(0));
}

template <class T>
PointQueryT<T> slab_query_t(const Vec3T<T>& p_W, const Vec3T<T>& n_W, const T& offset) {
  PointQueryT<T> q;
  q.dist = n_W.dot(p_W) - offset;
  q.surface_W = p_W - q.dist * n_W;
  q.normal_W = n_W;
  return q;
}

// clip_to_disc over T: the roots of |xy(q0 + t dq)|^2 = r^2 are smooth in the poses.
template <class T>
bool clip_to_disc_t(const Vec3T<T>& q0, const Vec3T<T>& dq, Real radius, T& lo, T& hi) {
  using std::sqrt;
  const T a = dq.x() * dq.x() + dq.y() * dq.y();
  const T b = q0.x() * dq.x() + q0.y() * dq.y();
  const T c = q0.x() * q0.x() + q0.y() * q0.y() - T(radius * radius);
  if (a <= T(kTinyLength * kTinyLength)) return c <= T(0) && lo <= hi;
  const T disc = b * b - a * c;
  if (disc < T(0)) return false;
  const T s = sqrt(disc);
  lo = std::max(lo, T((-b - s) / a));
  hi = std::min(hi, T((-b + s) / a));
  return lo <= hi;
}

}  // namespace collision_detail
}  // namespace contactlab
