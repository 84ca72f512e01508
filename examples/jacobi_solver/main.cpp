// An out-of-tree solver (jacobi_solver.hpp) registered at run time and
// compared with the built-in pgs and padmm on box_ramp, whose sliding
// distance has an analytic reference: one table, the same measurements for
// every solver. Exit status 1 when a run fails.
//   jacobi_solver [SCENE]     (default: box_ramp)
#include <contactlab/sim/registry.hpp>
#include <contactlab/studies/comparison.hpp>
#include <cstdio>

#include "jacobi_solver.hpp"

int main(int argc, char** argv) {
  using namespace contactlab;
  register_solver("jacobi", "projected Jacobi on the dual (examples/jacobi_solver)",
                  [] { return std::make_unique<JacobiSolver>(); });
  CompareSettings settings;
  for (const char* solver : {"pgs", "jacobi", "padmm"}) settings.combos.push_back({"velocity", "desaxce", solver});
  settings.dt_factors = {1, 2};
  const SceneComparison sc = compare_scene(argc > 1 ? argv[1] : "box_ramp", settings);
  std::printf("%s: %s\n", sc.label.c_str(), sc.reference.describe().c_str());
  std::printf("%-28s %8s %9s %9s %10s %10s  %s\n", "combo", "dt", "mean it", "solve us", "max r_vi", "error", "status");
  bool ok = true;
  for (const ComparisonRun& r : sc.runs) {
    ok = ok && r.ok;
    std::printf("%-28s %8g %9.1f %9.1f %10.2e %10.2e  %s\n", r.combo.c_str(), r.dt, r.mean_iterations,
                1e6 * r.solve_per_step, r.max_r_vi, r.error, r.ok ? "ok" : r.message.c_str());
  }
  return ok ? 0 : 1;
}
