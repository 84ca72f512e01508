// Host API of the CUDA batch kernels; no CUDA header here, so any .cpp may
// include it. Every function takes host arrays, copies them to the device,
// runs, and copies the results back (a checking/benchmarking path, not a
// resident-GPU pipeline). Built without CUDA, cuda_available() returns false
// and the others throw std::runtime_error (solvers/batch_padmm_cpu.cpp).
// CUDA errors are reported as std::runtime_error.
#pragma once

namespace contactlab {

struct BatchPadmmState;

// Whether a CUDA device can be used.
bool cuda_available();

// `iterations` PADMM iterations (MATH.md C.2) of every running world, one GPU
// thread per world, same code as cpu_padmm_iterate (solvers/padmm_kernels.hpp).
// Updates the iteration state, residuals, scalars and flags of `state`.
void cuda_padmm_iterate(BatchPadmmState& state, int iterations = 1);

// Per-contact batched kernels over nc contacts (of any number of worlds, laid
// end to end): x_k <- Pi_{K_mu_k}(x_k), x_k <- Pi_{K*_mu_k}(x_k),
// s_k = Gamma_mu_k(v_k) (contact_models/cone.hpp). x, v, s: 3 nc entries.
void cuda_project_primal(const double* mu, int nc, double* x);
void cuda_project_dual(const double* mu, int nc, double* x);
void cuda_desaxce_shift(const double* mu, int nc, const double* v, double* s);

}  // namespace contactlab
