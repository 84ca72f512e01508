#include "solvers/batch_padmm_cpu.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "contact_models/cone.hpp"
#include "core/linalg/dense_cholesky.hpp"
#include "solvers/cuda/batch_padmm.hpp"

namespace contactlab {

void batch_padmm_set_params(BatchPadmmState& state, const PadmmOptions& options) {
  state.params.eta = options.eta;
  state.params.rho = options.rho;
  state.params.tol_primal = options.tol_primal;
  state.params.tol_dual = options.tol_dual;
  state.params.tol_compl = options.tol_compl;
  state.params.restart_factor = options.restart_factor;
  state.params.accelerate = options.acceleration ? 1 : 0;
}

bool batch_padmm_load(BatchPadmmState& state, int world, const ConstraintProblem& problem, const PadmmOptions& options,
                      const WarmStart* warm, BatchPadmmLoadScratch* scratch) {
  BatchPadmmLoadScratch local;
  BatchPadmmLoadScratch& buf = scratch ? *scratch : local;
  options.Validate();
  if (options.balanced_penalty) throw std::invalid_argument("batch padmm: balanced_penalty is not supported");
  if (world < 0 || world >= state.num_worlds) throw std::invalid_argument("batch padmm: world index out of range");
  const int m = problem.num_rows(), nc = problem.num_contacts, off = problem.contact_offset();
  if (m > state.max_rows || nc > state.max_contacts)
    throw std::invalid_argument("batch padmm: world " + std::to_string(world) + " has " + std::to_string(m) +
                                " rows / " + std::to_string(nc) + " contacts, more than the batch stride");
  batch_padmm_set_params(state, options);
  state.num_bilateral[world] = problem.num_bilateral;
  state.num_limit[world] = problem.num_limit;
  state.num_contacts[world] = nc;
  std::copy(problem.mu.begin(), problem.mu.end(), state.mu.begin() + static_cast<size_t>(world) * state.max_contacts);

  // Same operator, scale and factor as PadmmSolver's dense path.
  std::vector<Real>& D = buf.D;
  std::vector<Real>& diag = buf.diag;
  D.resize(static_cast<size_t>(m) * m);
  buf.unit.resize(m);
  buf.s6.resize(6 * std::max(problem.num_bodies, 1));
  diag.resize(m);
  padmm_assemble_delassus(problem, nullptr, D.data(), buf.unit.data(), buf.s6.data());
  for (int i = 0; i < m; ++i) diag[i] = D[static_cast<size_t>(i) * m + i];
  padmm::World<double> w = state.world(world);
  double* p = state.p.data() + static_cast<size_t>(world) * state.max_rows;
  double* vf = state.vf.data() + static_cast<size_t>(world) * state.max_rows;
  padmm::jacobi_preconditioner(diag.data(), problem.num_bilateral, problem.num_limit, nc, options.preconditioning, p);
  for (int i = 0; i < m; ++i) vf[i] = p[i] * problem.v_free[i];
  double* L = state.factor.data() + static_cast<size_t>(world) * state.max_rows * state.max_rows;
  padmm::scaled_shifted_matrix(D.data(), m, m, p, state.params.eta + state.params.rho, L, state.max_rows);
  const bool ok = dense::cholesky_factor(L, m, state.max_rows);

  padmm::Scalars<double> s;
  const bool use_warm = warm && options.warm_start && warm->valid && static_cast<int>(warm->lambda.size()) == m &&
                        static_cast<int>(warm->v.size()) == m;
  if (use_warm) {
    std::vector<Real>& shift = buf.shift;
    shift.resize(3 * nc);
    for (int k = 0; k < nc; ++k) cone::desaxce_shift(problem.mu[k], warm->v.data() + off + 3 * k, shift.data() + 3 * k);
    padmm::init_state(w, s, warm->lambda.data(), warm->v.data(), shift.data(), options.warm_start_factor);
  } else {
    padmm::init_state<double>(w, s, nullptr, nullptr, nullptr, 0);
  }
  if (m == 0) s.flag = padmm::kConverged;  // nothing to solve (as PadmmSolver: 0 iterations)
  if (!ok) s.flag = padmm::kFailed;
  state.set_scalars(world, s);
  return ok;
}

void cpu_padmm_iterate(BatchPadmmState& state, int iterations) {
  for (int w = 0; w < state.num_worlds; ++w) {
    const padmm::World<double> view = state.world(w);
    padmm::Scalars<double> s = state.scalars(w);
    for (int k = 0; k < iterations && s.flag == padmm::kRunning; ++k)
      padmm::iterate_dense_desaxce(view, state.params, s, state.world_factor(w), state.max_rows);
    state.set_scalars(w, s);
  }
}

bool batch_padmm_done(const BatchPadmmState& state) {
  return std::none_of(state.flag.begin(), state.flag.end(), [](int f) { return f == padmm::kRunning; });
}

void batch_padmm_solution(const BatchPadmmState& state, int world, std::vector<Real>& lambda, std::vector<Real>& v) {
  const int m = state.rows(world);
  lambda.resize(m);
  v.resize(m);
  // world() hands out mutable views; solution_desaxce only reads them.
  const padmm::World<double> view = const_cast<BatchPadmmState&>(state).world(world);
  padmm::solution_desaxce(view, lambda.data(), v.data());
}

#ifndef CONTACTLAB_HAVE_CUDA
// Built without CUDA: the host API reports no device (solvers/cuda/batch_padmm.hpp).
bool cuda_available() { return false; }
static void no_cuda() { throw std::runtime_error("contactlab was built without CUDA"); }
void cuda_padmm_iterate(BatchPadmmState&, int) { no_cuda(); }
void cuda_project_primal(const double*, int, double*) { no_cuda(); }
void cuda_project_dual(const double*, int, double*) { no_cuda(); }
void cuda_desaxce_shift(const double*, int, const double*, double*) { no_cuda(); }
#endif

}  // namespace contactlab
