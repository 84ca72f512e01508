// CPU batch path of the dense PADMM iteration (MATH.md C.2): N worlds, one
// de Saxce problem each, iterated by the same CL_HD code as the CUDA kernel
// (solvers/padmm_kernels.hpp), so it is the oracle for core/cuda/batch_padmm.
#pragma once

#include <vector>

#include "core/constraint_problem.hpp"
#include "solvers/batch_padmm_state.hpp"
#include "solvers/padmm.hpp"

namespace contactlab {

// state.params from the options (eta, rho, tolerances, restart factor, acceleration).
void batch_padmm_set_params(BatchPadmmState& state, const PadmmOptions& options);

// Loads world `world` (state already resized to fit it): dense D as
// PadmmSolver's dense path builds it, Jacobi scale (options.preconditioning),
// Cholesky factor of P D P + (eta+rho) I, P v_f, mu, and the initial state
// (warm when warm is valid and options.warm_start). Calls
// batch_padmm_set_params: load every world with the same options. The batch
// solves the hard de Saxce law; balanced_penalty is not supported (throws), and
// the x-update is always dense. Throws std::invalid_argument if the problem
// does not fit the slot; returns false if the factorisation fails (the world's
// flag is then padmm::kFailed).
// `scratch` keeps the load's host buffers between calls (grow-only), so a
// warm batch loads without allocating; one per thread if loads run in parallel.
struct BatchPadmmLoadScratch {
  std::vector<Real> D, unit, s6, diag, shift;
};
bool batch_padmm_load(BatchPadmmState& state, int world, const ConstraintProblem& problem, const PadmmOptions& options,
                      const WarmStart* warm = nullptr, BatchPadmmLoadScratch* scratch = nullptr);

// `iterations` PADMM iterations of every world whose flag is kRunning.
void cpu_padmm_iterate(BatchPadmmState& state, int iterations = 1);

// Whether no world is still running.
bool batch_padmm_done(const BatchPadmmState& state);

// World w's answer: lambda = P y, v = z/P - Gamma(z/P) (m entries each).
void batch_padmm_solution(const BatchPadmmState& state, int world, std::vector<Real>& lambda, std::vector<Real>& v);

}  // namespace contactlab
