// Sweep and prune over axis-aligned cubes: each bounded geom is the cube
// around its bounding sphere (grown by its share of the margin); the cubes
// are sorted by their low end along the axis where the geom origins spread
// most, and a sweep pairs each cube with the ones that start before it ends,
// keeping those that also overlap on the other two axes.
//
// Why sweep and prune rather than a uniform grid: it needs no cell size, so a
// large box among small spheres or a scene that spreads over time costs
// nothing to tune, and it is one sort (near-sorted from step to step) plus a
// linear sweep. Piles spread along at least one axis; a scene with every geom
// at one point degrades to the all-pairs cost, not worse.
//
// Why cubes around the bounding sphere rather than tight boxes (|R| times a
// box's half-extents, a capsule's end caps): the all-pairs pass rejects a
// pair on that sphere test and nothing earlier, and some narrow-phase
// routines report a gap below the true distance (box-box edge axes and the
// cylinder routines measure separations along an axis, a lower bound), so a
// tight box can drop a pair that the narrow phase would still give a contact
// (tests/geometry/test_broad_phase.cpp shows one). The sphere's cube
// contains every pair that passes the sphere test, so the candidates are
// exactly the all-pairs ones by construction.
#include "geometry/broad_phase.hpp"

#include <algorithm>
#include <cmath>

#include "geometry/pair_filter.hpp"

namespace contactlab {

namespace {

constexpr Real kUnbounded = -1;  // reach of a geom paired with every other

void store_geom_poses(const Model& model, const Data& data, BroadPhaseScratch& s) {
  const int ng = static_cast<int>(model.geoms.size());
  s.pos_W.resize(ng);
  s.R_WG.resize(ng);
  for (int g = 0; g < ng; ++g) geom_world_pose(model, data, g, s.pos_W[g], s.R_WG[g]);
}

// Half-width of geom g's cube. Each geom carries half the pass margin and all
// of its own margin, so two reaches add up to at least the pair margin. The
// relative padding covers the rounding of the cube ends, so that a pair the
// sphere test passes by an ulp is never lost. Planes and geoms whose pose is
// not finite (a diverged state: the all-pairs pass still hands them to the
// narrow phase) are unbounded.
Real geom_reach(const Geom& g, const Vec3& pos_W, Real margin) {
  const Real radius = geom_bounding_radius(g);
  if (radius < 0) return kUnbounded;
  const Real reach = std::max(Real(0), radius + std::max(Real(0), g.margin) + Real(0.5) * margin);
  if (!std::isfinite(reach) || !pos_W.allFinite()) return kUnbounded;
  return reach + 1e-12 * (reach + pos_W.cwiseAbs().maxCoeff());
}

// The axis along which the bounded geoms' origins have the largest variance.
int sweep_axis(const BroadPhaseScratch& s) {
  Vec3 mean = Vec3::Zero();
  int n = 0;
  for (size_t g = 0; g < s.reach.size(); ++g)
    if (s.reach[g] != kUnbounded) mean += s.pos_W[g], ++n;
  if (n == 0) return 0;
  mean /= n;
  Vec3 spread = Vec3::Zero();
  for (size_t g = 0; g < s.reach.size(); ++g)
    if (s.reach[g] != kUnbounded) spread += (s.pos_W[g] - mean).cwiseAbs2();
  int axis = 0;
  spread.maxCoeff(&axis);
  return axis;
}

// Applies the pair filters to a pair that may touch; keeps it as a key that
// sorts in the all-pairs loop order.
void consider_pair(const Model& model, int a, int b, Real margin, BroadPhaseScratch& s) {
  const int i = std::min(a, b), j = std::max(a, b);
  if (!geoms_may_collide(model, i, j)) return;
  const Geom& gi = model.geoms[i];
  const Geom& gj = model.geoms[j];
  if (bounding_spheres_apart(gi, s.pos_W[i], gj, s.pos_W[j], pair_margin(gi, gj, margin))) return;
  s.pair_keys.push_back(static_cast<std::uint64_t>(i) << 32 | static_cast<std::uint32_t>(j));
}

void keys_to_pairs(BroadPhaseScratch& s) {
  s.pairs.resize(s.pair_keys.size());
  for (size_t k = 0; k < s.pair_keys.size(); ++k) {
    s.pairs[k].geom1 = static_cast<int>(s.pair_keys[k] >> 32);
    s.pairs[k].geom2 = static_cast<int>(s.pair_keys[k] & 0xffffffffu);
  }
}

bool cubes_overlap_off_axis(const BroadPhaseScratch& s, int a, int b, int axis) {
  const Real reach = s.reach[a] + s.reach[b];
  for (int k = 0; k < 3; ++k)
    if (k != axis && std::abs(s.pos_W[a](k) - s.pos_W[b](k)) > reach) return false;
  return true;
}

}  // namespace

void find_candidate_pairs(const Model& model, const Data& data, Real margin, BroadPhaseScratch& s) {
  const int ng = static_cast<int>(model.geoms.size());
  store_geom_poses(model, data, s);
  s.reach.resize(ng);
  s.unbounded.clear();
  for (int g = 0; g < ng; ++g) {
    s.reach[g] = geom_reach(model.geoms[g], s.pos_W[g], margin);
    if (s.reach[g] == kUnbounded) s.unbounded.push_back(g);
  }
  const int axis = sweep_axis(s);
  s.sweep.clear();
  for (int g = 0; g < ng; ++g)
    if (s.reach[g] != kUnbounded) s.sweep.push_back(SweepEntry{s.pos_W[g](axis) - s.reach[g], g});
  std::sort(s.sweep.begin(), s.sweep.end(), [](const SweepEntry& x, const SweepEntry& y) {
    return x.lo < y.lo || (x.lo == y.lo && x.geom < y.geom);
  });

  s.pair_keys.clear();
  for (size_t p = 0; p < s.sweep.size(); ++p) {
    const int a = s.sweep[p].geom;
    const Real hi = s.pos_W[a](axis) + s.reach[a];
    for (size_t q = p + 1; q < s.sweep.size() && s.sweep[q].lo <= hi; ++q) {
      const int b = s.sweep[q].geom;
      if (cubes_overlap_off_axis(s, a, b, axis)) consider_pair(model, a, b, margin, s);
    }
  }
  // Each unbounded geom meets every bounded one and every later unbounded one.
  for (const int u : s.unbounded)
    for (int g = 0; g < ng; ++g)
      if (g != u && (s.reach[g] != kUnbounded || g > u)) consider_pair(model, u, g, margin, s);
  std::sort(s.pair_keys.begin(), s.pair_keys.end());
  keys_to_pairs(s);
}

void find_candidate_pairs_all(const Model& model, const Data& data, Real margin, BroadPhaseScratch& s) {
  const int ng = static_cast<int>(model.geoms.size());
  store_geom_poses(model, data, s);
  s.pair_keys.clear();
  for (int i = 0; i < ng; ++i)
    for (int j = i + 1; j < ng; ++j) consider_pair(model, i, j, margin, s);
  keys_to_pairs(s);
}

}  // namespace contactlab
