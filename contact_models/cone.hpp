// Per-contact cone math shared by CPU and CUDA code (CL_HD).
// A contact vector is x = (x_n, x_t1, x_t2), normal first.
//
//   K_m  = { x : |x_t| <= m x_n }   (friction cone: m = mu; its dual: m = 1/mu)
//   Pi_m(x) = x                      if |x_t| <= m x_n            (inside)
//           = 0                      if m |x_t| <= -x_n           (polar cone)
//           = (a, m a x_t/|x_t|),  a = (x_n + m |x_t|)/(1 + m^2)  otherwise
// (MATH.md B.2.) The dual cone K_mu* = K_{1/mu} is evaluated in the scaled form
// (mu x_n + |x_t|)/(1 + mu^2) * (mu, x_t/|x_t|) so that mu = 0 needs no division.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace contactlab {
namespace cone {

// x <- projection of x onto the friction cone K_mu (mu >= 0).
template <typename T>
CL_HD void project_primal(T mu, T* x) {
  const T t = std::sqrt(x[1] * x[1] + x[2] * x[2]);
  // Polar test first so that mu = 0 maps (x_n < 0, x_t) to 0, not to (0, 0, 0) by luck.
  if (mu * t <= -x[0]) {
    x[0] = x[1] = x[2] = T(0);
    return;
  }
  if (t <= mu * x[0]) return;
  const T a = (x[0] + mu * t) / (T(1) + mu * mu);
  const T s = mu * a / t;  // t > 0 here: t > mu x_n >= ... and not polar
  x[0] = a;
  x[1] *= s;
  x[2] *= s;
}

// x <- projection of x onto the dual cone K_mu* = { |x_t| mu <= x_n }.
template <typename T>
CL_HD void project_dual(T mu, T* x) {
  const T t = std::sqrt(x[1] * x[1] + x[2] * x[2]);
  // Membership test first: for mu = 0 the dual cone is the half-space x_n >= 0.
  if (mu * t <= x[0]) return;
  if (t <= -mu * x[0]) {  // polar of K_mu* is -K_mu
    x[0] = x[1] = x[2] = T(0);
    return;
  }
  const T a = (mu * x[0] + t) / (T(1) + mu * mu);
  x[0] = a * mu;
  const T s = a / t;  // t > 0 here
  x[1] *= s;
  x[2] *= s;
}

// de Saxce shift Gamma_mu(v) = (mu |v_t|, 0, 0).
template <typename T>
CL_HD void desaxce_shift(T mu, const T* v, T* s) {
  s[0] = mu * std::sqrt(v[1] * v[1] + v[2] * v[2]);
  s[1] = T(0);
  s[2] = T(0);
}

}  // namespace cone
}  // namespace contactlab
