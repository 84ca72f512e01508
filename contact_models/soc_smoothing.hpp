// Per-contact math of the central-path (interior-point) smoothing of the
// de Saxce SOCCP (MATH.md B.4; Kim et al.), CL_HD so that CPU and CUDA code
// can share it. A contact vector is x = (x_n, x_t1, x_t2), normal first.
//
// Lorentz cone Q = {x0 >= |x1|}, Jordan product x∘y = (x^T y, x0 y1 + y0 x1),
// e = (1, 0, 0). Spectral decomposition x = a1 u1 + a2 u2 with
// a1,2 = x0 -/+ |x1|, u1,2 = (1, -/+ x1/|x1|)/2 (u_i∘u_i = u_i, u1∘u2 = 0).
//
// lorentz(): the Chen-Harker-Kanzow-Smale smoothing of Pi_Q,
//   y = phi(a1) u1 + phi(a2) u2,  s = y - x = psi(a1) u1 + psi(a2) u2,
//   phi(a) = (a + sqrt(a^2 + 4 rho))/2,  psi(a) = phi(a) - a = rho/phi(a),
// so y, s ∈ int Q and y∘s = sum_i phi psi u_i = rho e exactly.
//
// friction(): the same central point for the friction cone K_mu. K_mu is
// not self-dual; S = diag(mu, 1, 1) maps K_mu onto Q and K_mu* onto Q by
// S^-1 (|l_t| <= mu l_n <=> S l ∈ Q; mu |s_t| <= s_n <=> S^-1 s ∈ Q) and
// keeps the pairing ((S l)^T (S^-1 s) = l^T s). The central point of x is the
// pair with
//   y - s = x,  y ∈ int K_mu,  s ∈ int K_mu*,  (S y)∘(S^-1 s) = rho e,
// i.e. y^T s = rho and mu^2 y_n s_t + s_n y_t = 0 (the vector part times mu,
// which stays meaningful at mu = 0). Equivalently y = argmin_l |l - x|^2/2 -
// (rho/2) ln det(S l), the proximal map of the log-det barrier of K_mu: it
// tends to the Euclidean projection onto K_mu as rho -> 0.
// NB: S^-1 Pi_rho(S x) is NOT this map (for mu != 1 it smooths the projection
// in the metric S^2, whose fixed points lambda = P(lambda - c sigma^) are not
// de Saxce's law even at rho = 0: it breaks sliding); docs/central_path.md.
//
// Computing friction(): y = (n, tau x_t/|x_t|) lies in the plane of (e_n, x_t);
// eliminating the vector condition gives tau = mu^2 n t/D, D = (1+mu^2) n - x_n,
// t = |x_t|, and the scalar equation
//   g(n) = n (n - x_n) C (C + 2 mu t)/D^2 = rho,   C = D - mu t,
// whose left side increases from 0 at n0 = max(0, x_n, (x_n + mu t)/(1+mu^2))
// (the normal component of the exact projection: polar, inside, middle zone).
// With u = n - n0 exactly one of the factors A = n, B = n - x_n, C is O(u) and
// is formed as (gap of n0 from data) + u, so y and s keep full relative
// accuracy even where one is ~rho/|x| (no subtraction y - x). It is solved by
// safeguarded Newton on ln g - ln rho in ln u (ln g has slope in (0, 4] in ln u).
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace contactlab {
namespace soc_smoothing {

// Newton iterations allowed in friction(); tests/contact_models/test_central_path.cpp
// measures the count actually used on random and near-boundary inputs.
constexpr int kMaxIterations = 100;

// a = phi_rho(t), b = a - t, a b = rho, a, b >= 0, without cancellation
// (the larger one from the square root, the smaller as rho over it).
template <typename T>
CL_HD void smoothed_pair(T t, T rho, T& a, T& b) {
  const T r = std::sqrt(t * t + T(4) * rho);
  if (t >= T(0)) {
    a = (t + r) / T(2);
    b = a > T(0) ? rho / a : T(0);
  } else {
    b = (r - t) / T(2);
    a = rho / b;
  }
}

// Lorentz-cone smoothing: y = Pi_rho(x), s = y - x (x, y, s: 3 entries each;
// y, s must not alias x).
template <typename T>
CL_HD void lorentz(T rho, const T* x, T* y, T* s) {
  const T t = std::sqrt(x[1] * x[1] + x[2] * x[2]);
  T p1, q1, p2, q2;
  smoothed_pair(x[0] - t, rho, p1, q1);
  smoothed_pair(x[0] + t, rho, p2, q2);
  y[0] = (p1 + p2) / T(2);
  s[0] = (q1 + q2) / T(2);
  // x1 = 0: u1,2 may take any unit direction; both coefficients then agree.
  const T cy = t > T(0) ? (p2 - p1) / (T(2) * t) : T(0);
  const T cs = t > T(0) ? (q2 - q1) / (T(2) * t) : T(0);
  y[1] = cy * x[1];
  y[2] = cy * x[2];
  s[1] = cs * x[1];
  s[2] = cs * x[2];
}

// Friction-cone central point: y ∈ int K_mu, s ∈ int K_mu* with y - s = x
// and (S y)∘(S^-1 s) = rho e. mu >= 0, rho >= 0 (rho = 0: y = Pi_{K_mu}(x),
// s = y - x). y, s must not alias x. Returns the Newton iterations used.
template <typename T>
CL_HD int friction(T mu, T rho, const T* x, T* y, T* s) {
  const T xn = x[0];
  const T t = std::sqrt(x[1] * x[1] + x[2] * x[2]);
  // mu = 0 (K_0 = ray, K_0* = half-space) or x on the axis: the tangential
  // part decouples (y_t = 0, s_t = -x_t) and the normal one is 1-D smoothing.
  if (mu == T(0) || t == T(0)) {
    T a, b;
    smoothed_pair(xn, rho, a, b);
    y[0] = a;
    s[0] = b;
    y[1] = y[2] = T(0);
    s[1] = -x[1];
    s[2] = -x[2];
    return 0;
  }
  const T k = T(1) + mu * mu;
  const T m = mu * t;
  // Zone of the exact projection: n0 and the gaps of A, B, C at n0 (one is 0).
  T n0, eA, eB, eC;
  if (t <= mu * xn) {  // inside K_mu: n0 = x_n
    n0 = xn;
    eA = xn;
    eB = T(0);
    eC = mu * (mu * xn - t);
  } else if (m <= -xn) {  // polar cone: n0 = 0
    n0 = T(0);
    eA = T(0);
    eB = -xn;
    eC = -xn - m;
  } else {  // middle: n0 = (x_n + mu t)/(1 + mu^2)
    n0 = (xn + m) / k;
    eA = n0;
    eB = mu * (t - mu * xn) / k;
    eC = T(0);
  }

  T u = T(0);
  int it = 0;
  if (rho > T(0)) {
    // g(u) = A B C E / D^2 with A = eA + u, B = eB + u, C = eC + k u,
    // D = C + m, E = C + 2m; r = ln(g/rho), q = d ln g / d ln u > 0.
    auto eval = [&](T uu, T& r, T& q) {
      const T A = eA + uu, B = eB + uu, C = eC + k * uu, D = C + m, E = C + T(2) * m;
      r = std::log(A) + std::log(B) + std::log(C) + std::log(E) - T(2) * std::log(D) - std::log(rho);
      q = uu * (T(1) / A + T(1) / B + k / C + k / E - T(2) * k / D);
    };
    // First guess from the active factor alone (g ~ g'(0) u), or sqrt(rho)
    // where g'(0) vanishes (x on a zone boundary, two factors active).
    const T D0 = eC + m;
    const T slope0 = eB == T(0)   ? eA * eC * (eC + T(2) * m) / (D0 * D0)
                     : eA == T(0) ? eB * eC * (eC + T(2) * m) / (D0 * D0)
                                  : eA * eB * k * T(2) * m / (D0 * D0);
    u = slope0 > T(0) ? rho / slope0 : std::sqrt(rho);
    if (!(u > T(0)) || !(u < T(HUGE_VAL))) u = std::sqrt(rho);
    T w = std::log(u);
    T lo = -T(HUGE_VAL), hi = T(HUGE_VAL);  // bracket of ln u: r(lo) < 0 < r(hi)
    for (it = 1; it <= kMaxIterations; ++it) {
      T r, q;
      eval(u, r, q);
      const T newton = -r / q;
      // Converged: u is settled to ~1e-14 relative (r carries ~1e-15 round-off).
      if (std::abs(newton) <= T(1e-14)) {
        u *= T(1) + newton;
        break;
      }
      if (r < T(0)) lo = w;
      else hi = w;
      T w_next = w + newton;
      // Outside the bracket (or not finite): bisect in ln u, or widen it.
      if (!(w_next > lo && w_next < hi))
        w_next = (lo > -T(HUGE_VAL) && hi < T(HUGE_VAL)) ? (lo + hi) / T(2) : (r < T(0) ? w + T(1) : w - T(1));
      w = w_next;
      u = std::exp(w);
    }
    if (it > kMaxIterations) it = kMaxIterations;
  }

  const T n = n0 + u;
  const T B = eB + u;
  const T D = eC + k * u + m;
  const T cy = mu * mu * n / D;  // y_t = tau x_t/t, tau = mu^2 n t/D
  const T cs = -B / D;           // s_t = (tau - t) x_t/t = -t B/D x_t/t
  y[0] = n;
  s[0] = B;
  y[1] = cy * x[1];
  y[2] = cy * x[2];
  s[1] = cs * x[1];
  s[2] = cs * x[2];
  return it;
}

// x <- y of friction(mu, rho, x): the smoothed projection onto K_mu.
template <typename T>
CL_HD void project_primal(T mu, T rho, T* x) {
  T y[3], s[3];
  friction(mu, rho, x, y, s);
  for (int i = 0; i < 3; ++i) x[i] = y[i];
}

// x <- the smoothed projection onto K_mu*: s = y + x of friction(mu, rho, -x)
// (Moreau: Pi_{K*}(x) = x + Pi_K(-x); the pair keeps its central-path relation).
template <typename T>
CL_HD void project_dual(T mu, T rho, T* x) {
  T nx[3] = {-x[0], -x[1], -x[2]}, y[3], s[3];
  friction(mu, rho, nx, y, s);
  for (int i = 0; i < 3; ++i) x[i] = s[i];
}

// w = (l^T s, mu^2 l_n s_t + s_n l_t) = diag(1, mu, mu) (S l)∘(S^-1 s): the
// central-path relation reads w = (rho, 0, 0).
template <typename T>
CL_HD void scaled_jordan(T mu, const T* l, const T* s, T* w) {
  w[0] = l[0] * s[0] + l[1] * s[1] + l[2] * s[2];
  w[1] = mu * mu * l[0] * s[1] + s[0] * l[1];
  w[2] = mu * mu * l[0] * s[2] + s[0] * l[2];
}

}  // namespace soc_smoothing
}  // namespace contactlab
