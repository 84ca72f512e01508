// BatchSolver: one solver call for the problems of many worlds (a Batch in
// its batched mode, sim/batch.hpp). A Solver that has a batched form makes
// one (Solver::make_batch_solver); the batch runs every world's scheme
// prepare, then solve() over all worlds, then per world (in parallel)
// collect() and the scheme's finish.
#pragma once

#include <vector>

#include "core/data.hpp"

namespace contactlab {

enum class BatchDevice { Cpu, Cuda };
const char* to_string(BatchDevice d);  // "cpu", "cuda"

class BatchSolver {
 public:
  virtual ~BatchSolver() = default;
  // Throws std::invalid_argument naming the option when the solver's current
  // options cannot run batched. Called before every batched step (options may
  // change between steps); must not allocate when they can.
  virtual void check_options() const = 0;
  // Solves every world's data.problem from its data.warm. Runs on the calling thread.
  virtual void solve(std::vector<Data>& worlds) = 0;
  // World w's answer into data.lambda, data.v_plus and data.solve_stats.
  // Safe to call for different worlds from different threads.
  virtual void collect(int world, Data& data) const = 0;
};

}  // namespace contactlab
