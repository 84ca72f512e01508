// Krylov solvers shared by the forward Newton (solvers/nonsmooth_newton.cpp)
// and the paired adjoints (adjoints/solve_adjoint.hpp), so that an adjoint
// runs literally the iteration its solver runs.
//
// pcr: preconditioned conjugate residual for a symmetric operator with a
// diagonal SPD preconditioner (MATH.md C.1), from x0 = 0, on raw buffers (no
// allocation). gmres: restarted GMRES(k) with right preconditioning for the
// non-symmetric systems of some adjoints (Saad & Schultz 1986), on Eigen
// vectors.
#pragma once

#include <cmath>
#include <vector>

#include "core/linalg/vector_ops.hpp"
#include "core/math.hpp"

namespace contactlab {
namespace krylov {

struct PcrBuffers {
  Real *r, *z, *p, *Ap, *Az;  // n entries each
};

struct Result {
  int iterations = 0;
  Real relative_residual = 0;  // |b - A x| / |b| as tracked by the recurrence
  bool converged = false;      // relative_residual <= tolerance
};

// x <- approximately A^-1 b; apply(in, out) computes out = A in (n entries).
// Stops after max_iterations, at |r| <= tolerance |b|, or on a breakdown
// (gamma or the denominator not positive: a singular or indefinite direction).
template <class Apply>
Result pcr(Apply&& apply, const Real* pre, const Real* b, int n, int max_iterations, Real tolerance, Real* x,
           const PcrBuffers& w) {
  using linalg::dot;
  Result out;
  for (int i = 0; i < n; ++i) x[i] = 0;
  const Real b_norm = std::sqrt(dot(b, b, n));
  if (!(b_norm > 0)) {
    out.converged = true;
    return out;
  }
  for (int i = 0; i < n; ++i) {
    w.r[i] = b[i];
    w.z[i] = pre[i] * w.r[i];
    w.p[i] = w.z[i];
  }
  apply(w.z, w.Az);
  for (int i = 0; i < n; ++i) w.Ap[i] = w.Az[i];
  Real gamma = dot(w.z, w.Az, n);
  Real r_norm = b_norm;
  for (int it = 0; it < max_iterations && gamma > 0; ++it) {
    Real denom = 0;
    for (int i = 0; i < n; ++i) denom += w.Ap[i] * pre[i] * w.Ap[i];
    if (!(denom > 0)) break;
    const Real alpha = gamma / denom;
    for (int i = 0; i < n; ++i) {
      x[i] += alpha * w.p[i];
      w.r[i] -= alpha * w.Ap[i];
      w.z[i] -= alpha * pre[i] * w.Ap[i];
    }
    out.iterations = it + 1;
    r_norm = std::sqrt(dot(w.r, w.r, n));
    if (r_norm <= tolerance * b_norm) break;
    apply(w.z, w.Az);
    const Real gamma_new = dot(w.z, w.Az, n);
    const Real beta = gamma_new / gamma;
    gamma = gamma_new;
    for (int i = 0; i < n; ++i) {
      w.p[i] = w.z[i] + beta * w.p[i];
      w.Ap[i] = w.Az[i] + beta * w.Ap[i];
    }
  }
  out.relative_residual = r_norm / b_norm;
  out.converged = out.relative_residual <= tolerance;
  return out;
}

// x <- approximately A^-1 b with right preconditioning: apply(v, out) = A v,
// precondition(v, out) = P^-1 v. GMRES minimises |b - A x| over the Krylov
// space of A P^-1; restarted every `restart` iterations, at most
// max_iterations in all. The residual is recomputed at every restart.
template <class Apply, class Precondition>
Result gmres(Apply&& apply, Precondition&& precondition, const VecX& b, int max_iterations, int restart,
             Real tolerance, VecX& x) {
  const Eigen::Index n = b.size();
  Result out;
  x = VecX::Zero(n);
  const Real b_norm = b.norm();
  if (!(b_norm > 0)) {
    out.converged = true;
    return out;
  }
  const int k_max = std::max(1, restart);
  MatX V(n, k_max + 1), H = MatX::Zero(k_max + 1, k_max);
  VecX cs(k_max), sn(k_max), s(k_max + 1), w(n), t(n);
  VecX r = b;
  Real r_norm = b_norm;
  while (out.iterations < max_iterations && r_norm > tolerance * b_norm) {
    V.col(0) = r / r_norm;
    s.setZero();
    s[0] = r_norm;
    H.setZero();
    int k = 0;
    for (; k < k_max && out.iterations < max_iterations; ++k) {
      precondition(V.col(k), t);
      apply(t, w);
      for (int j = 0; j <= k; ++j) {  // modified Gram-Schmidt
        H(j, k) = V.col(j).dot(w);
        w -= H(j, k) * V.col(j);
      }
      H(k + 1, k) = w.norm();
      if (H(k + 1, k) > 0) V.col(k + 1) = w / H(k + 1, k);
      for (int j = 0; j < k; ++j) {  // previous Givens rotations
        const Real h = cs[j] * H(j, k) + sn[j] * H(j + 1, k);
        H(j + 1, k) = -sn[j] * H(j, k) + cs[j] * H(j + 1, k);
        H(j, k) = h;
      }
      const Real d = std::hypot(H(k, k), H(k + 1, k));
      cs[k] = d > 0 ? H(k, k) / d : Real(1);
      sn[k] = d > 0 ? H(k + 1, k) / d : Real(0);
      H(k, k) = d;
      H(k + 1, k) = 0;
      s[k + 1] = -sn[k] * s[k];
      s[k] = cs[k] * s[k];
      ++out.iterations;
      if (std::abs(s[k + 1]) <= tolerance * b_norm || !(d > 0)) {
        ++k;
        break;
      }
    }
    // x += P^-1 V_k H_k^-1 s_k
    VecX yk = s.head(k);
    for (int i = k - 1; i >= 0; --i) {
      for (int j = i + 1; j < k; ++j) yk[i] -= H(i, j) * yk[j];
      yk[i] = H(i, i) != 0 ? yk[i] / H(i, i) : Real(0);
    }
    precondition(V.leftCols(k) * yk, t);
    x += t;
    apply(x, w);
    r = b - w;
    const Real previous = r_norm;
    r_norm = r.norm();
    if (!(r_norm < previous)) break;  // stagnation (e.g. an inconsistent singular system)
  }
  out.relative_residual = r_norm / b_norm;
  out.converged = out.relative_residual <= tolerance;
  return out;
}

}  // namespace krylov
}  // namespace contactlab
