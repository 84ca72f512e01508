#include "core/island_solve.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/worker_pool.hpp"

namespace contactlab {

IslandWorkspace::IslandWorkspace() = default;
IslandWorkspace::~IslandWorkspace() = default;

SolverWorkspace::SolverWorkspace() = default;
SolverWorkspace::~SolverWorkspace() = default;

void IslandOptions::Validate() const {
  if (threads < 0) throw std::invalid_argument("IslandOptions.threads must be >= 0 (0: hardware concurrency)");
}

void IslandOptions::bind(OptionSet& set, const std::string& prefix) {
  set.add(prefix + "islands", &enabled, "solve each island (bodies connected by rows) on its own");
  set.add(prefix + "island_threads", &threads, "threads solving islands, the caller included; 0 = all cores", 0);
  set.add_validator([this] { Validate(); });
}

namespace {

int severity(SolveStatus s) {
  switch (s) {
    case SolveStatus::Converged: return 0;
    case SolveStatus::MaxIterations: return 1;
    case SolveStatus::NumericalFailure: return 2;
  }
  return 2;
}

struct IslandTasks {
  const Solver* solver;
  const ContactModel* law;
  IslandWorkspace* ws;
  void (*solve_one)(const IslandTasks&, int);
};

}  // namespace

void merge_island_stats(const std::vector<IslandSolve>& islands, int count, SolveStats& stats) {
  stats.status = SolveStatus::Converged;
  stats.iterations = 0;
  stats.r_primal = stats.r_dual = stats.r_compl = 0;
  stats.penalty = 0;
  stats.residual_history.clear();
  size_t longest = 0, most_rows = 0;
  for (int i = 0; i < count; ++i) {
    const SolveStats& s = islands[i].stats;
    if (severity(s.status) > severity(stats.status)) stats.status = s.status;
    stats.iterations = std::max(stats.iterations, s.iterations);
    stats.r_primal = std::max(stats.r_primal, s.r_primal);
    stats.r_dual = std::max(stats.r_dual, s.r_dual);
    stats.r_compl = std::max(stats.r_compl, s.r_compl);
    longest = std::max(longest, s.residual_history.size());
    // The next step starts every island from the largest island's penalty.
    if (islands[i].lambda.size() > most_rows || i == 0) {
      most_rows = islands[i].lambda.size();
      stats.penalty = s.penalty;
    }
  }
  if (!stats.record_history) return;
  stats.residual_history.assign(longest, 0);
  for (int i = 0; i < count; ++i) {
    const std::vector<Real>& h = islands[i].stats.residual_history;
    for (size_t k = 0; k < longest && !h.empty(); ++k)
      stats.residual_history[k] = std::max(stats.residual_history[k], h[std::min(k, h.size() - 1)]);
  }
}

bool Solver::solve_by_islands(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                              SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                              SolveStats& stats) const {
  // Fewer than two bodies make at most one island with bodies (a row on no
  // moving body alone would split off, but is not worth a split solve).
  if (!islands.enabled || problem.explicit_delassus() || problem.num_rows() == 0 || problem.num_bodies < 2)
    return false;
  if (problem.nonlinear_rows && relinearises()) return false;  // its rows are evaluated as a whole
  if (!workspace.islands) workspace.islands = std::make_unique<IslandWorkspace>();
  IslandWorkspace& ws = *workspace.islands;
  partition_islands(problem, ws.partition);
  const IslandPartition& part = ws.partition;
  const int n = part.num_islands;
  if (n < 2) return false;

  const int m = problem.num_rows();
  const bool use_warm =
      warm.valid && static_cast<int>(warm.lambda.size()) == m && static_cast<int>(warm.v.size()) == m;
  if (static_cast<int>(ws.islands.size()) < n) ws.islands.resize(n);
  for (int i = 0; i < n; ++i) {
    IslandSolve& is = ws.islands[i];
    extract_island(problem, part, i, is.problem);
    if (!is.workspace) is.workspace = make_workspace();
    const int r0 = part.row_begin[i], k = part.row_begin[i + 1] - r0;
    is.warm.valid = use_warm;
    is.warm.penalty = warm.penalty;
    if (use_warm) {
      is.warm.lambda.resize(k);
      is.warm.v.resize(k);
      for (int s = 0; s < k; ++s) {
        is.warm.lambda[s] = warm.lambda[part.rows[r0 + s]];
        is.warm.v[s] = warm.v[part.rows[r0 + s]];
      }
    }
    is.stats.record_history = stats.record_history;
  }

  // The islands' solves are independent: any order and any thread gives the
  // same answer, bit for bit.
  IslandTasks tasks{this, &law, &ws, [](const IslandTasks& t, int i) {
                      IslandSolve& is = t.ws->islands[i];
                      t.solver->do_solve(is.problem, *t.law, is.warm, *is.workspace, is.lambda, is.v_plus, is.stats);
                    }};
  const int threads = islands.threads == 0 ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))
                                           : islands.threads;
  if (threads > 1 && n > 1) {
    if (!ws.pool || ws.pool_threads != threads) {
      ws.pool = std::make_unique<WorkerPool>(threads);
      ws.pool_threads = threads;
    }
    ws.pool->run(n, [](void* c, int i) { const auto& t = *static_cast<IslandTasks*>(c); t.solve_one(t, i); },
                 &tasks);
  } else {
    for (int i = 0; i < n; ++i) tasks.solve_one(tasks, i);
  }

  lambda.resize(m);
  v_plus.resize(m);
  for (int i = 0; i < n; ++i) {
    const IslandSolve& is = ws.islands[i];
    const int r0 = part.row_begin[i], k = part.row_begin[i + 1] - r0;
    for (int s = 0; s < k; ++s) {
      lambda[part.rows[r0 + s]] = is.lambda[s];
      v_plus[part.rows[r0 + s]] = is.v_plus[s];
    }
  }
  merge_island_stats(ws.islands, n, stats);
  return true;
}

}  // namespace contactlab
