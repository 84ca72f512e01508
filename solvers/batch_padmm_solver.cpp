#include "solvers/batch_padmm_solver.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "solvers/cuda/batch_padmm.hpp"

namespace contactlab {

std::unique_ptr<BatchSolver> PadmmSolver::make_batch_solver(const ContactModel& law, BatchDevice device,
                                                            std::string* why) const {
  if (!law.uses_hard_coulomb_cones()) {
    // The batch kernel hard-codes the de Saxce cone and shift.
    if (why)
      *why = "the batched padmm kernel solves the hard de Saxce cones (contact desaxce or fischer_burmeister); '" +
             law.name() + "' uses other cone functions";
    return nullptr;
  }
  if (device == BatchDevice::Cuda && !cuda_available())
    throw std::runtime_error("batch: device = cuda requested but there is no CUDA device (cuda_available() is false)");
  return std::make_unique<BatchPadmmSolver>(*this, law, device);
}

void BatchPadmmSolver::check_options() const {
  // Runs every step: messages are built only on failure (no allocation).
  const PadmmOptions& o = solver_.options;
  if (o.balanced_penalty)
    throw std::invalid_argument(
        "batch mode batched_padmm needs solver.balanced_penalty=false (the batch kernel runs a fixed penalty "
        "rho); set it with set_option(\"solver.balanced_penalty=false\")");
  // auto is dense in the batch kernel (every world's factor is dense there).
  if (o.delassus != PadmmOptions::kDense && o.delassus != PadmmOptions::kAuto)
    throw std::invalid_argument(
        "batch mode batched_padmm needs solver.delassus=dense (the batch kernel solves with a dense Cholesky "
        "factor; auto is taken as dense)");
  o.Validate();
}

void BatchPadmmSolver::solve(std::vector<Data>& worlds) {
  const auto t0 = std::chrono::steady_clock::now();
  const int n = static_cast<int>(worlds.size());
  int rows = 0, contacts = 0;
  for (const Data& d : worlds) {
    rows = std::max(rows, d.problem.num_rows());
    contacts = std::max(contacts, d.problem.num_contacts);
  }
  // Strides only grow, so a scene whose contact count varies settles and the
  // state is not reallocated step after step.
  BatchPadmmState& st = state_;
  if (st.num_worlds != n || rows > st.max_rows || contacts > st.max_contacts)
    st.resize(n, std::max(rows, st.max_rows), std::max(contacts, st.max_contacts));
  // Serial: batch_padmm_load writes the shared st.params on every call.
  for (int w = 0; w < n; ++w)
    batch_padmm_load(st, w, worlds[w].problem, solver_.options, &worlds[w].warm, &load_scratch_);
  // load restarted every world's counter, so one call gives each world
  // PadmmSolver's budget of max_iterations; a world stops on its own flag.
  if (!batch_padmm_done(st)) {
    if (device_ == BatchDevice::Cuda)
      cuda_padmm_iterate(st, solver_.options.max_iterations);
    else
      cpu_padmm_iterate(st, solver_.options.max_iterations);
  }
  seconds_per_world_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / std::max(n, 1);
}

void BatchPadmmSolver::collect(int w, Data& d) const {
  const BatchPadmmState& st = state_;
  const ConstraintProblem& pr = d.problem;
  const int m = pr.num_rows();
  SolveStats& stats = d.solve_stats;
  stats.iterations = st.iteration[w];
  stats.r_primal = st.r_primal[w];
  stats.r_dual = st.r_dual[w];
  stats.r_compl = st.r_compl[w];
  if (stats.record_history) stats.residual_history.clear();  // the batch kernel keeps none
  bool ok = st.flag[w] != padmm::kFailed;
  if (ok) {
    batch_padmm_solution(st, w, d.lambda, d.v_plus);
    // v+ as PadmmSolver returns it, D lambda + v_f (the velocity the integrator
    // will see), not the iterate z/P - Gamma(z/P): the two differ by the dual
    // residual, and v+ feeds the next warm start, so this keeps batched and
    // per-world trajectories together. D: apply_delassus includes every
    // compliance; the hard cone laws have no contact compliance.
    d.scratch6.resize(std::max(6 * pr.num_bodies, 1));
    if (m > 0) pr.apply_delassus(d.lambda.data(), d.v_plus.data(), d.scratch6.data());
    for (int i = 0; i < m; ++i) {
      d.v_plus[i] += pr.v_free[i];
      ok = ok && padmm::is_finite(d.lambda[i]) && padmm::is_finite(d.v_plus[i]);
    }
  }
  if (ok) {
    stats.status = st.flag[w] == padmm::kConverged ? SolveStatus::Converged : SolveStatus::MaxIterations;
  } else {  // as PadmmSolver: a failed solve applies no impulse
    stats.status = SolveStatus::NumericalFailure;
    d.lambda.assign(m, 0.0);
    d.v_plus.assign(m, 0.0);
  }
  stats.wall_time_s = seconds_per_world_;
  stats.natural_map = natural_map_residual(pr, law_, d.lambda, d.v_plus, d.residual_scratch);
}

}  // namespace contactlab
