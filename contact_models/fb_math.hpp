// Fischer–Burmeister NCP rows of one contact with maximal-dissipation friction
// (Ostrich after Macklin et al. 2019; MATH.md B.1), in impulse/velocity units.
//
//   phi_eps(a, b) = a + b - sqrt(a^2 + b^2 + eps^2)   (= 0  <=>  a, b >= 0, a b = eps^2/2)
//   normal:   r_n = phi_eps(v_n, beta_n lambda_n),          beta_n = D_nn
//   friction: r_t = v_t + W lambda_t,  W >= 0 frozen at the iterate:
//     d = sqrt(|v_t|^2 + eps^2), l = mu lambda_n, p = |lambda_t|, g = l - min(p, l),
//     phi_f = phi_0(d, w g) (scaled FB, no eps), W = w (d - phi_f) / (w p + phi_f + tiny)
//   with w the mean tangential Delassus diagonal. At the fixed point: sliding
//   W = |v_t| / (mu lambda_n), so lambda_t = -mu lambda_n v_t/|v_t|; sticking
//   W = 0, so v_t = 0.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace contactlab {
namespace fb {

template <typename T>
struct Smoothing {
  T eps = T(1e-8);     // normal FB smoothing (velocity units)
  T eps_t = T(1e-8);   // guard of |v_t| in the friction weight
  T w_max = T(1e5);    // clamp of W (relative to the tangential scale)
};

// phi(a, b) and its partial derivatives.
template <typename T>
CL_HD T phi(T a, T b, T eps, T* da, T* db) {
  const T n = std::sqrt(a * a + b * b + eps * eps);
  if (n <= T(0)) {  // a = b = eps = 0: any element of the generalised gradient; take (1 - 1/sqrt2) each
    *da = *db = T(1) - T(0.7071067811865476);
    return T(0);
  }
  *da = T(1) - a / n;
  *db = T(1) - b / n;
  return a + b - n;
}

// Rows (n, t1, t2) of one contact. lambda, v: 3 entries; beta_n, w > 0.
// `weight` (3): merit weights of the rows. The friction rows are weighted by
// w/(w + W): a contact whose normal impulse vanishes has W at its clamp and
// lambda_t forced to 0 by the safeguard, so v_t + W lambda_t = v_t cannot be
// removed by any iterate although the law holds (the contact just slides
// freely); the weight takes such rows out of the merit without changing the
// Newton system (which must keep dr/dv = 1 so that the applied friction
// impulse is lambda_t itself).
template <typename T>
CL_HD void contact_rows(T mu, const T* lambda, const T* v, T beta_n, T w, const Smoothing<T>& s, T* r, T* a, T* c,
                        T* weight) {
  T da, db;
  r[0] = phi(v[0], beta_n * lambda[0], s.eps, &da, &db);
  a[0] = da;
  c[0] = db * beta_n;
  weight[0] = T(1);

  const T vt = std::sqrt(v[1] * v[1] + v[2] * v[2]);
  const T d = std::sqrt(vt * vt + s.eps_t * s.eps_t);
  const T l = mu * (lambda[0] > T(0) ? lambda[0] : T(0));
  const T p = std::sqrt(lambda[1] * lambda[1] + lambda[2] * lambda[2]);
  const T g = l - (p < l ? p : l);
  T ignore_a, ignore_b;
  const T phi_f = phi(d, w * g, T(0), &ignore_a, &ignore_b);
  T W = w * (d - phi_f) / (w * p + phi_f + T(1e-12) * w);
  if (!(W > T(0))) W = T(0);
  if (W > s.w_max * w) W = s.w_max * w;
  for (int i = 1; i < 3; ++i) {
    r[i] = v[i] + W * lambda[i];
    a[i] = T(1);
    c[i] = W;
    // No normal impulse: the friction rows cannot vanish (lambda_t is held at
    // 0) although the law holds, so they leave the merit entirely.
    weight[i] = l > T(0) ? w / (w + W) : T(0);
  }
}

// Admissible impulses (MATH.md B.1 safeguards): lambda_n >= 0; radial clamp of
// lambda_t to mu lambda_n, lambda_n untouched.
template <typename T>
CL_HD void safeguard(T mu, T* lambda) {
  if (!(lambda[0] > T(0))) {
    lambda[0] = lambda[1] = lambda[2] = T(0);
    return;
  }
  const T p = std::sqrt(lambda[1] * lambda[1] + lambda[2] * lambda[2]);
  const T l = mu * lambda[0];
  if (p > l) {
    const T k = p > T(0) ? l / p : T(0);
    lambda[1] *= k;
    lambda[2] *= k;
  }
}

}  // namespace fb
}  // namespace contactlab
