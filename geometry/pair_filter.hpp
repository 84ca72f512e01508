// The tests a geom pair must pass to reach the narrow phase. One definition,
// shared by the broad phase and the all-pairs reference, so that both hand
// the narrow phase the same pairs.
#pragma once

#include <algorithm>

#include "core/math.hpp"
#include "core/model.hpp"

namespace contactlab {

// From the model alone: different bodies, contype/conaffinity masks, not
// both static, not parent and child (MuJoCo; the world excepted), not
// excluded by <contact>, and a narrow-phase routine exists for the types.
bool geoms_may_collide(const Model& model, int geom_a, int geom_b);

// Throws std::invalid_argument naming both geoms when a pair passes every
// test above but the narrow phase has no routine for its types (so such a
// pair is refused at load, never skipped in silence). Plane-plane is fine.
void check_pairs_supported(const Model& model);

// Radius about the geom origin of a sphere enclosing the geom; -1 for a
// plane (unbounded).
Real geom_bounding_radius(const Geom& g);

// Margin of a pair: the pass's margin plus the larger of the geoms' own.
inline Real pair_margin(const Geom& a, const Geom& b, Real margin) { return margin + std::max(a.margin, b.margin); }

// Whether the pair's bounding spheres are farther apart than the pair margin
// (the cheap rejection before the narrow phase). Never for a plane.
bool bounding_spheres_apart(const Geom& a, const Vec3& pos_a_W, const Geom& b, const Vec3& pos_b_W, Real pair_margin);

}  // namespace contactlab
