// padmm's tolerances tightened to 1e-11 (2000 iterations at most), so that a
// test comparing a run with a closed form measures the step map, not the
// solver's default tolerance.
#pragma once

#include "sim/simulation.hpp"

namespace contactlab {
namespace test {

inline void tighten_solves(Simulation& sim) {
  for (const char* kv : {"solver.tol_primal=1e-11", "solver.tol_dual=1e-11", "solver.tol_compl=1e-11",
                         "solver.max_iterations=2000"})
    sim.set_option(kv);
}

}  // namespace test
}  // namespace contactlab
