// In-place dense Cholesky factorisation A = L L^T on raw row-major arrays
// (CL_HD), for the small shifted Delassus matrices of PADMM (MATH.md C.2).
// Written against raw buffers rather than Eigen::LLT so that a workspace that
// has reached its capacity never reallocates, and so that the same code runs
// per world inside a CUDA kernel.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace contactlab {
namespace dense {

// A: (n x n) row-major, leading dimension ld >= n. Reads the lower triangle and
// overwrites it with L (upper triangle untouched). Returns false on a
// non-positive or non-finite pivot (A not SPD, or NaN input).
template <typename T>
CL_HD bool cholesky_factor(T* A, int n, int ld) {
  for (int j = 0; j < n; ++j) {
    T* Lj = A + j * ld;
    T d = Lj[j];
    for (int k = 0; k < j; ++k) d -= Lj[k] * Lj[k];
    if (!(d > T(0)) || !(d - d == T(0))) return false;  // also rejects NaN and inf
    d = std::sqrt(d);
    Lj[j] = d;
    for (int i = j + 1; i < n; ++i) {
      T* Li = A + i * ld;
      T s = Li[j];
      for (int k = 0; k < j; ++k) s -= Li[k] * Lj[k];
      Li[j] = s / d;
    }
  }
  return true;
}

// b <- (L L^T)^-1 b, with L the lower triangle written by cholesky_factor.
template <typename T>
CL_HD void cholesky_solve(const T* L, int n, int ld, T* b) {
  for (int i = 0; i < n; ++i) {  // L w = b
    const T* Li = L + i * ld;
    T s = b[i];
    for (int k = 0; k < i; ++k) s -= Li[k] * b[k];
    b[i] = s / Li[i];
  }
  for (int i = n - 1; i >= 0; --i) {  // L^T x = w (column i of L read down the rows)
    T s = b[i];
    for (int k = i + 1; k < n; ++k) s -= L[k * ld + i] * b[k];
    b[i] = s / L[i * ld + i];
  }
}

}  // namespace dense
}  // namespace contactlab
