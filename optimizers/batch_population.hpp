// A population objective (optimizers/evolution_strategies.hpp) that rolls out
// every candidate of a ControlObjective at once, one world each, on a Batch
// (sim/batch.hpp, per_world mode: the worlds spread over a thread pool and
// each bit-identical to its own Simulation). The batch is made at the first
// call for that population size and reset (warm starts forgotten) at every call.
#pragma once

#include "optimizers/control_objective.hpp"
#include "optimizers/evolution_strategies.hpp"

namespace contactlab {

// `objective` must outlive the returned function. threads: BatchOptions::threads.
PopulationObjective batch_population(const ControlObjective& objective, int threads = 0);

}  // namespace contactlab
