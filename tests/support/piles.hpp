// The step problem of a bench-scale pile (studies/piles.hpp) after it has
// fallen for a while: many contacts, many islands, some holding stacks. For
// the island and sparse-Delassus tests.
#pragma once

#include "core/constraint_problem.hpp"
#include "io/mjcf.hpp"
#include "sim/simulation.hpp"
#include "studies/piles.hpp"

namespace contactlab {
namespace test {

// `steps` steps of 2 ms with pgs (cheap, and not a solver under test), then
// one more prepare: the returned problem is the next step's.
inline ConstraintProblem landed_pile_problem(PileShape shape, int bodies, int steps) {
  PileSpec spec;
  spec.shape = shape;
  spec.bodies = bodies;
  Simulation sim(load_mjcf_string(make_pile(spec).xml, "pile"), PartChoice{"desaxce", "pgs", "velocity"});
  sim.reset();
  for (int s = 0; s < steps; ++s) sim.step(0.002);
  sim.scheme().prepare(sim.model(), sim.data(), sim.contact_model(), 0.002);
  return sim.data().problem;
}

}  // namespace test
}  // namespace contactlab
