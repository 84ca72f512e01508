// Buffers of the collision pass's broad phase (geometry/broad_phase.hpp),
// kept in Data so that they keep their capacity between steps. The type
// lives in core/ because Data does and core may not include geometry/
// (cmake/layers.txt); it holds plain arrays and no behaviour.
#pragma once

#include <cstdint>
#include <vector>

#include "core/math.hpp"

namespace contactlab {

// A geom pair for the narrow phase, geom1 < geom2.
struct GeomPair {
  int geom1 = -1, geom2 = -1;
};

// A bounded geom in the sweep: the low end of its interval along the sweep axis.
struct SweepEntry {
  Real lo = 0;
  int geom = -1;
};

struct BroadPhaseScratch {
  std::vector<Vec3> pos_W;              // (ng) geom origins, world frame
  std::vector<Mat3> R_WG;               // (ng) geom axes, world frame
  std::vector<Real> reach;              // (ng) half-width of the geom's cube, margin included
  std::vector<SweepEntry> sweep;        // (bounded geoms) sorted by lo
  std::vector<int> unbounded;           // geoms paired with every other (planes, non-finite poses)
  std::vector<std::uint64_t> pair_keys; // (candidates) geom1 << 32 | geom2, sorted
  std::vector<GeomPair> pairs;          // (candidates) the output, in all-pairs loop order
};

}  // namespace contactlab
