// Per-contact math of the compliant CCP after eliminating the slack
// (MATH.md B.3, C.3), shared by CPU and CUDA code (CL_HD).
//
// For a contact velocity r = (r_n, r_t) (normal first), friction mu >= 0 and
// compliance rho > 0 (R = rho I), the convex penalty is
//   l(r) = |r - Pi_{K*}(r)|^2 / (2 rho),     K* = K_mu* = { mu |r_t| <= r_n },
// with gradient  dl/dr = (r - Pi_{K*}(r))/rho = -lambda,
//   lambda = Pi_{K_mu}(-r)/rho in K_mu   (Moreau: r = Pi_{K*}(r) - Pi_{K}(-r)),
// and (generalised) Hessian  d2l/dr2 = (I - DPi_{K*}(r))/rho. With t = |r_t|,
// that = r_t/t, the three zones are
//   top    (mu t <= r_n):          l = 0,   lambda = 0,          H = 0
//   bottom (mu r_n + t <= 0):      l = |r|^2/(2 rho), lambda = -r/rho, H = I/rho
//   middle (otherwise):            l = (r_n - mu t)^2 / (2 rho (1+mu^2)),
//     lambda = (mu t - r_n)/(rho (1+mu^2)) (1, -mu that),
//     H = 1/(rho (1+mu^2)) ( [[1, -mu that^T], [-mu that, mu^2 that that^T]]
//                            + mu (mu t - r_n)/t [[0, 0], [0, I2 - that that^T]] ).
// For mu = 0 the bottom zone {t = 0, r_n < 0} has measure zero and its limit
// from the middle zone is e_n e_n^T/rho, not I/rho: the bottom test is skipped
// and the middle formulas are written so that t = 0 needs no division.
// In the middle zone with mu > 0, t > 0 and (mu t - r_n)/t < mu + 1/mu, so the
// curvature term stays bounded.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace contactlab {
namespace ccp {

enum Zone : int { kTop = 0, kBottom = 1, kMiddle = 2 };

template <typename T>
CL_HD int zone(T mu, const T* r) {
  const T t = std::sqrt(r[1] * r[1] + r[2] * r[2]);
  if (mu * t <= r[0]) return kTop;
  if (mu > T(0) && mu * r[0] + t <= T(0)) return kBottom;
  return kMiddle;
}

// The middle zone's Hessian (3x3 row-major) at r, written with the zone's
// gap = mu t - r_n = rho (1+mu^2) lambda_n (its curvature term is mu gap / t).
// The gap is O(rho) of r, so a caller that knows the impulse more accurately
// than r (an adjoint at a recorded solve) passes rho (1+mu^2) lambda_n.
template <typename T>
CL_HD void middle_hessian(T mu, T rho, const T* r, T gap, T* H) {
  const T t = std::sqrt(r[1] * r[1] + r[2] * r[2]);
  const T s = T(1) + mu * mu;
  const T e1 = t > T(0) ? r[1] / t : T(0), e2 = t > T(0) ? r[2] / t : T(0);
  const T c = T(1) / (rho * s);
  const T k = t > T(0) ? mu * gap / t : T(0);  // curvature of the cone boundary seen from r
  H[0] = c;
  H[1] = H[3] = -c * mu * e1;
  H[2] = H[6] = -c * mu * e2;
  H[4] = c * (mu * mu * e1 * e1 + k * (T(1) - e1 * e1));
  H[8] = c * (mu * mu * e2 * e2 + k * (T(1) - e2 * e2));
  H[5] = H[7] = c * (mu * mu - k) * e1 * e2;
}

// Returns l(r). lambda (3) <- Pi_{K_mu}(-r)/rho when not null; H (3x3,
// row-major) <- (I - DPi_{K*}(r))/rho when not null.
template <typename T>
CL_HD T evaluate(T mu, T rho, const T* r, T* lambda, T* H) {
  const T t = std::sqrt(r[1] * r[1] + r[2] * r[2]);
  const int z = zone(mu, r);
  if (H)
    for (int i = 0; i < 9; ++i) H[i] = T(0);
  if (z == kTop) {
    if (lambda) lambda[0] = lambda[1] = lambda[2] = T(0);
    return T(0);
  }
  if (z == kBottom) {
    if (lambda)
      for (int i = 0; i < 3; ++i) lambda[i] = -r[i] / rho;
    if (H) H[0] = H[4] = H[8] = T(1) / rho;
    return (r[0] * r[0] + t * t) / (T(2) * rho);
  }
  // Middle: distance to the boundary ray of K* in the (n, t) half-plane.
  const T s = T(1) + mu * mu;
  const T gap = mu * t - r[0];  // > 0 here
  // that = r_t/t; for t = 0 (only reachable with mu = 0) every term using it
  // is multiplied by mu, so any unit vector would do: take 0.
  const T e1 = t > T(0) ? r[1] / t : T(0), e2 = t > T(0) ? r[2] / t : T(0);
  if (lambda) {
    const T a = gap / (rho * s);
    lambda[0] = a;
    lambda[1] = -a * mu * e1;
    lambda[2] = -a * mu * e2;
  }
  if (H) middle_hessian(mu, rho, r, gap, H);
  return gap * gap / (T(2) * rho * s);
}

template <typename T>
CL_HD T cost(T mu, T rho, const T* r) {
  return evaluate<T>(mu, rho, r, nullptr, nullptr);
}

// lambda <- Pi_{K_mu}(-r)/rho = -dl/dr.
template <typename T>
CL_HD void impulse(T mu, T rho, const T* r, T* lambda) {
  evaluate<T>(mu, rho, r, lambda, nullptr);
}

// H <- d2l/dr2 (3x3 row-major, PSD).
template <typename T>
CL_HD void hessian(T mu, T rho, const T* r, T* H) {
  evaluate<T>(mu, rho, r, nullptr, H);
}

// out (3) <- d lambda / d mu at fixed r (the paired adjoint of convex_newton,
// adjoints/hessian_solve_adjoint.cpp). Zero in the top and bottom zones; in
// the middle zone lambda = a (1, -mu that) with a = (mu t - r_n)/(rho s),
// s = 1 + mu^2, so da/dmu = t/(rho s) - 2 mu a/s and
// d lambda/d mu = (da/dmu, -(a + mu da/dmu) that).
template <typename T>
CL_HD void impulse_mu_derivative(T mu, T rho, const T* r, T* out, T lambda_n = T(-1)) {
  out[0] = out[1] = out[2] = T(0);
  if (zone(mu, r) != kMiddle) return;
  const T t = std::sqrt(r[1] * r[1] + r[2] * r[2]);
  const T s = T(1) + mu * mu;
  const T a = lambda_n >= T(0) ? lambda_n : (mu * t - r[0]) / (rho * s);
  const T da = t / (rho * s) - T(2) * mu * a / s;
  const T e1 = t > T(0) ? r[1] / t : T(0), e2 = t > T(0) ? r[2] / t : T(0);
  out[0] = da;
  out[1] = -(a + mu * da) * e1;
  out[2] = -(a + mu * da) * e2;
}

}  // namespace ccp
}  // namespace contactlab
