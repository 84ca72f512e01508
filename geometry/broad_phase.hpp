// Broad phase of the collision pass: the geom pairs worth a narrow-phase
// call, found by sweep and prune instead of testing all n(n-1)/2 pairs.
//
// The output is exactly the list the all-pairs loop would hand the narrow
// phase: the pairs (geom1 < geom2) that pass the pair filters
// (geometry/pair_filter.hpp), bounding-sphere test included, in the loop's
// order (geom1 ascending, then geom2), so that contacts, and every
// trajectory, are bit-identical to the all-pairs pass.
#pragma once

#include "core/broad_phase_scratch.hpp"
#include "core/data.hpp"
#include "core/model.hpp"

namespace contactlab {

// Fills scratch.pos_W / R_WG with every geom's world pose (the narrow phase
// reads them from there) and scratch.pairs with the candidate pairs for the
// pass margin `margin`. No allocation once the buffers have grown.
void find_candidate_pairs(const Model& model, const Data& data, Real margin, BroadPhaseScratch& scratch);

// The same output by testing every pair: the reference for tests and timings.
void find_candidate_pairs_all(const Model& model, const Data& data, Real margin, BroadPhaseScratch& scratch);

}  // namespace contactlab
