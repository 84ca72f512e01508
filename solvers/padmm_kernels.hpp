// One world's Proximal-ADMM iteration (Kamino; MATH.md C.2) on raw pointers,
// CL_HD so that the CPU solver (solvers/padmm.cpp), the CPU batch path
// (solvers/batch_padmm_cpu.cpp) and the CUDA kernel (solvers/cuda/batch_padmm.cu)
// run the same source; the CPU result is the oracle for the GPU.
//
// Everything here is in the Jacobi-scaled variables of C.2:
//   D~ = P D P, v~_f = P v_f, lambda = P y, v = z / P   (P = diag(p)).
// Rows: bilateral [0, nb) | limit [nb, nb+nl) | contacts [nb+nl, m), 3 per
// contact [n, t1, t2]. The cone K is R (bilateral), R+ (limit), K_mu (contact).
//
// One iteration i (ŷ, ẑ: accelerated iterates; *_prev: plain iterates of i-1):
//   s   = Gamma(ẑ)                                  (contacts; de Saxce, frozen)
//   (D~ + (eta+rho) I) x = -v~_f - s + eta x_prev + rho ŷ + ẑ
//   y   = Pi_K(x - ẑ/rho)
//   z   = ẑ + rho (y - x)
//   r_p = |P(x - y)|_inf, r_d = |P^-1(eta(x - x_prev) + rho(y - ŷ))|_inf,
//   r_c = max(limits |x z|, contacts |x_k . z_k|)        -> stop if i > 1 and all <= tol
//   Goldstein et al. restart on c = rho |P(y - ŷ)|^2 + |P^-1(z - ẑ)|^2 / rho.
// The pieces are separate so that a caller may do the contact-law steps (shift,
// projection) itself in bulk (the CPU solver calls its ContactModel) and the
// x-update by a factor or by conjugate residual; iterate_dense_desaxce()
// chains them for the batched de Saxce path.
#pragma once

#include <cmath>

#include "contact_models/cone.hpp"
#include "core/host_device.hpp"
#include "core/linalg/dense_cholesky.hpp"

namespace contactlab {
namespace padmm {

// Per-world status flag.
enum : int { kRunning = 0, kConverged = 1, kFailed = 2 };

// Floor added to the Delassus diagonal before the inverse square root, and the
// clamp of the Jacobi scale (MATH.md C.2: p in [1/50, 50]).
constexpr double kPrecondEps = 1e-12;
constexpr double kPrecondMin = 1.0 / 50.0;
constexpr double kPrecondMax = 50.0;

template <typename T>
struct Params {
  T eta = T(1e-5);            // proximal weight
  T rho = T(1);               // ADMM penalty
  T tol_primal = T(1e-6);     // impulse units (N s)
  T tol_dual = T(1e-6);       // velocity units (m/s)
  T tol_compl = T(1e-6);      // impulse x velocity
  T compl_target = T(0);      // lambda_k . sigma^_k at a solution (0; rho for a central-path law)
  T restart_factor = T(0.999);  // c_r of the Goldstein restart test
  int accelerate = 1;         // Nesterov acceleration with adaptive restart
};

template <typename T>
struct Scalars {
  T a = T(1);                 // Nesterov momentum parameter
  T c_prev = T(HUGE_VAL);     // previous combined residual (+inf: the first test passes)
  T r_primal = T(0), r_dual = T(0), r_compl = T(0);  // of the last iteration
  int iteration = 0;          // iterations done
  int flag = kRunning;
};

// Views one world's arrays; every pointer holds m entries (mu: nc).
template <typename T>
struct World {
  int m = 0, nb = 0, nl = 0, nc = 0;  // rows, bilateral, limit, contacts (m = nb + nl + 3 nc)
  const T* p = nullptr;               // Jacobi scale per row
  const T* vf = nullptr;              // scaled free velocity P v_f
  const T* mu = nullptr;              // (nc) friction coefficients
  T* x = nullptr;
  T* y = nullptr;
  T* z = nullptr;
  T* y_hat = nullptr;
  T* z_hat = nullptr;
  T* x_prev = nullptr;
  T* y_prev = nullptr;
  T* z_prev = nullptr;
  CL_HD int contact_offset() const { return nb + nl; }
};

// max(r, |v|) that keeps a NaN once seen (std::fmax would drop it).
template <typename T>
CL_HD T absmax(T r, T v) {
  const T a = v < T(0) ? -v : v;
  return (a > r || a != a) ? a : r;
}

template <typename T>
CL_HD bool is_finite(T v) {
  return v - v == T(0);  // false for inf and NaN
}

// Jacobi scale p from the diagonal of D (MATH.md C.2). A contact's three rows
// share one scale (from the largest diagonal entry) so K_mu maps onto itself.
template <typename T>
CL_HD void jacobi_preconditioner(const T* diag, int nb, int nl, int nc, bool enabled, T* p) {
  const int m = nb + nl + 3 * nc;
  if (!enabled) {
    for (int i = 0; i < m; ++i) p[i] = T(1);
    return;
  }
  auto scale = [](T d) {
    const T s = T(1) / std::sqrt((d < T(0) ? -d : d) + T(kPrecondEps));
    return s < T(kPrecondMin) ? T(kPrecondMin) : (s > T(kPrecondMax) ? T(kPrecondMax) : s);
  };
  for (int i = 0; i < nb + nl; ++i) p[i] = scale(diag[i]);
  for (int k = 0; k < nc; ++k) {
    const int r = nb + nl + 3 * k;
    T d = diag[r];
    if (diag[r + 1] > d) d = diag[r + 1];
    if (diag[r + 2] > d) d = diag[r + 2];
    p[r] = p[r + 1] = p[r + 2] = scale(d);
  }
}

// A = P D P + shift I (both row-major; only the lower triangle is written,
// which is all cholesky_factor reads).
template <typename T>
CL_HD void scaled_shifted_matrix(const T* D, int ld_D, int m, const T* p, T shift, T* A, int ld_A) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < i; ++j) A[i * ld_A + j] = p[i] * D[i * ld_D + j] * p[j];
    A[i * ld_A + i] = p[i] * D[i * ld_D + i] * p[i] + shift;
  }
}

// Initial state. Warm (warm_lambda != nullptr): x = y = factor lambda / P and
// z = P (v + Gamma(v)), with Gamma(v) given per contact in warm_shift (3 nc;
// nullptr = 0). Cold: zeros (MATH.md C.2).
template <typename T>
CL_HD void init_state(const World<T>& w, Scalars<T>& s, const T* warm_lambda, const T* warm_v, const T* warm_shift,
                      T warm_factor) {
  const int off = w.contact_offset();
  for (int i = 0; i < w.m; ++i) {
    T x = T(0), z = T(0);
    if (warm_lambda) {
      x = warm_factor * warm_lambda[i] / w.p[i];
      const T shift = (warm_shift && i >= off) ? warm_shift[i - off] : T(0);
      z = w.p[i] * (warm_v[i] + shift);
    }
    w.x[i] = w.x_prev[i] = w.y[i] = w.y_prev[i] = w.y_hat[i] = x;
    w.z[i] = w.z_prev[i] = w.z_hat[i] = z;
  }
  s = Scalars<T>();
}

// s_k = Gamma(ẑ_k) for every contact, written to out[offset + 3k ...] (the
// de Saxce law; a ContactModel's velocity_shift does the same in bulk).
template <typename T>
CL_HD void shift_desaxce(const World<T>& w, T* out) {
  const int off = w.contact_offset();
  for (int k = 0; k < w.nc; ++k) cone::desaxce_shift(w.mu[k], w.z_hat + off + 3 * k, out + off + 3 * k);
}

// out = -v~_f - s + eta x_prev + rho ŷ + ẑ, s given for contact rows (3 nc).
// s may alias out + offset (each entry is read before it is written).
template <typename T>
CL_HD void x_rhs(const World<T>& w, const Params<T>& prm, const T* s_contacts, T* out) {
  const int off = w.contact_offset();
  for (int i = 0; i < w.m; ++i) {
    const T s = i >= off ? s_contacts[i - off] : T(0);
    out[i] = -w.vf[i] - s + prm.eta * w.x_prev[i] + prm.rho * w.y_hat[i] + w.z_hat[i];
  }
}

// y = x - ẑ/rho, then the bilateral (identity) and limit (max(0, .)) parts of
// Pi_K. Contact blocks are left for the law's projection.
template <typename T>
CL_HD void y_before_projection(const World<T>& w, const Params<T>& prm) {
  const T inv_rho = T(1) / prm.rho;
  for (int i = 0; i < w.m; ++i) w.y[i] = w.x[i] - w.z_hat[i] * inv_rho;
  for (int i = w.nb; i < w.nb + w.nl; ++i)
    if (w.y[i] < T(0)) w.y[i] = T(0);  // a NaN stays NaN and is caught by the residuals
}

template <typename T>
CL_HD void project_contacts_desaxce(const World<T>& w) {
  const int off = w.contact_offset();
  for (int k = 0; k < w.nc; ++k) cone::project_primal(w.mu[k], w.y + off + 3 * k);
}

// After x and y of iteration i: z-update, residuals, stopping test, then
// acceleration or restart and the *_prev copies. Returns the new flag.
template <typename T>
CL_HD int finish_iteration(const World<T>& w, const Params<T>& prm, Scalars<T>& s) {
  const int off = w.contact_offset();
  T rp = T(0), rd = T(0), rc = T(0);
  for (int i = 0; i < w.m; ++i) {
    w.z[i] = w.z_hat[i] + prm.rho * (w.y[i] - w.x[i]);
    rp = absmax(rp, w.p[i] * (w.x[i] - w.y[i]));
    rd = absmax(rd, (prm.eta * (w.x[i] - w.x_prev[i]) + prm.rho * (w.y[i] - w.y_hat[i])) / w.p[i]);
  }
  // Complementarity is scale free (x z = lambda v per row, and per contact
  // since its rows share one scale).
  for (int i = w.nb; i < off; ++i) rc = absmax(rc, w.x[i] * w.z[i]);
  for (int k = 0; k < w.nc; ++k) {
    const int r = off + 3 * k;
    rc = absmax(rc, w.x[r] * w.z[r] + w.x[r + 1] * w.z[r + 1] + w.x[r + 2] * w.z[r + 2] - prm.compl_target);
  }
  s.r_primal = rp;
  s.r_dual = rd;
  s.r_compl = rc;
  s.iteration += 1;
  if (!is_finite(rp + rd + rc)) return s.flag = kFailed;
  if (s.iteration > 1 && rp <= prm.tol_primal && rd <= prm.tol_dual && rc <= prm.tol_compl)
    return s.flag = kConverged;

  if (prm.accelerate) {
    // Goldstein et al. combined residual, in physical units like r_p and r_d.
    T c = T(0);
    for (int i = 0; i < w.m; ++i) {
      const T dy = w.p[i] * (w.y[i] - w.y_hat[i]);
      const T dz = (w.z[i] - w.z_hat[i]) / w.p[i];
      c += prm.rho * dy * dy + dz * dz / prm.rho;
    }
    if (c < prm.restart_factor * s.c_prev) {
      const T a_next = (T(1) + std::sqrt(T(1) + T(4) * s.a * s.a)) / T(2);
      const T beta = (s.a - T(1)) / a_next;
      for (int i = 0; i < w.m; ++i) {
        w.y_hat[i] = w.y[i] + beta * (w.y[i] - w.y_prev[i]);
        w.z_hat[i] = w.z[i] + beta * (w.z[i] - w.z_prev[i]);
      }
      s.a = a_next;
      s.c_prev = c;
    } else {  // restart from the plain iterates of the previous iteration
      for (int i = 0; i < w.m; ++i) {
        w.y_hat[i] = w.y_prev[i];
        w.z_hat[i] = w.z_prev[i];
      }
      s.a = T(1);
      s.c_prev = s.c_prev / prm.restart_factor;
    }
  } else {
    for (int i = 0; i < w.m; ++i) {
      w.y_hat[i] = w.y[i];
      w.z_hat[i] = w.z[i];
    }
  }
  for (int i = 0; i < w.m; ++i) {
    w.x_prev[i] = w.x[i];
    w.y_prev[i] = w.y[i];
    w.z_prev[i] = w.z[i];
  }
  return s.flag;
}

// One full iteration for the de Saxce law with a dense factor L of
// D~ + (eta+rho) I (row-major lower triangle, leading dimension ld). The
// right-hand side is built in x and solved in place. A world whose flag is
// not kRunning is left untouched (per-world early exit).
template <typename T>
CL_HD int iterate_dense_desaxce(const World<T>& w, const Params<T>& prm, Scalars<T>& s, const T* L, int ld) {
  if (s.flag != kRunning) return s.flag;
  const int off = w.contact_offset();
  shift_desaxce(w, w.x);
  x_rhs(w, prm, w.x + off, w.x);
  dense::cholesky_solve(L, w.m, ld, w.x);
  y_before_projection(w, prm);
  project_contacts_desaxce(w);
  return finish_iteration(w, prm, s);
}

// Physical answer of the de Saxce iteration: lambda = P y,
// v = z/P - Gamma(z/P) on contacts, z/P elsewhere (MATH.md C.2).
template <typename T>
CL_HD void solution_desaxce(const World<T>& w, T* lambda, T* v) {
  const int off = w.contact_offset();
  for (int i = 0; i < w.m; ++i) {
    lambda[i] = w.p[i] * w.y[i];
    v[i] = w.z[i] / w.p[i];
  }
  for (int k = 0; k < w.nc; ++k) {
    T g[3];
    cone::desaxce_shift(w.mu[k], v + off + 3 * k, g);
    v[off + 3 * k] -= g[0];
  }
}

}  // namespace padmm
}  // namespace contactlab
