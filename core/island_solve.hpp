// What Solver::solve keeps to solve a problem island by island: the
// partition, one sub-problem with its own solver workspace, warm start,
// answer and statistics per island, and the pool that solves islands in
// parallel. Held by the world's SolverWorkspace, grown on demand and never
// shrunk, so a step allocates nothing once it has seen its largest split.
#pragma once

#include <memory>
#include <vector>

#include "core/islands.hpp"
#include "core/solver.hpp"

namespace contactlab {

class WorkerPool;

struct IslandSolve {
  ConstraintProblem problem;
  std::unique_ptr<SolverWorkspace> workspace;
  WarmStart warm;
  std::vector<Real> lambda, v_plus;
  SolveStats stats;
};

class IslandWorkspace {
 public:
  IslandWorkspace();
  ~IslandWorkspace();

  IslandPartition partition;
  std::vector<IslandSolve> islands;  // the first partition.num_islands are this step's
  std::unique_ptr<WorkerPool> pool;  // when IslandOptions::threads asks for more than one
  int pool_threads = 0;
};

// The statistics of a split solve from its islands': the worst status
// (numerical failure, then the iteration limit, then converged), the most
// iterations, the largest own residuals, a history whose k-th entry is the
// largest over islands (an island that stopped earlier counts its last value),
// and the penalty of the island with the most rows.
// wall_time_s and natural_map are left to Solver::solve.
void merge_island_stats(const std::vector<IslandSolve>& islands, int count, SolveStats& stats);

}  // namespace contactlab
