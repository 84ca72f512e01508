// PADMM's batched form (core/batch_solver.hpp): all worlds' problems loaded
// into one BatchPadmmState and iterated together by the dense kernel, on the
// CPU (solvers/batch_padmm_cpu.hpp) or with CUDA (solvers/cuda/batch_padmm.hpp),
// each world stopping on its own flag. Its answers are those of PadmmSolver's
// dense path with the same options: the kernel inlines the hard de Saxce
// cone functions (contact_models/cone.hpp), so the law must use exactly
// those (ContactModel::uses_hard_coulomb_cones), and it runs a fixed
// penalty, so solver.balanced_penalty must be false.
#pragma once

#include <vector>

#include "core/batch_solver.hpp"
#include "solvers/batch_padmm_cpu.hpp"
#include "solvers/batch_padmm_state.hpp"
#include "solvers/padmm.hpp"

namespace contactlab {

class BatchPadmmSolver final : public BatchSolver {
 public:
  // `solver` and `law` must outlive this object (the options are read at every step).
  BatchPadmmSolver(const PadmmSolver& solver, const ContactModel& law, BatchDevice device)
      : solver_(solver), law_(law), device_(device) {}
  void check_options() const override;
  void solve(std::vector<Data>& worlds) override;
  // Also stats.wall_time_s (the batched solve's time over the worlds) and
  // stats.natural_map (as Solver::solve measures it).
  void collect(int world, Data& data) const override;

 private:
  const PadmmSolver& solver_;
  const ContactModel& law_;
  BatchDevice device_;
  double seconds_per_world_ = 0;      // of the last solve()
  BatchPadmmState state_;             // all worlds' iterations
  BatchPadmmLoadScratch load_scratch_;  // host buffers of the serial loads
};

}  // namespace contactlab
