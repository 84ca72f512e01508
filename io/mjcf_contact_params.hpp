// MJCF geom condim and priority mapped onto contactlab's per-geom friction,
// whose pair law is the max of the two geoms' coefficients (geometry/collision.cpp),
// which is MuJoCo's rule when priorities are equal.
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"

namespace contactlab {

struct GeomContactSettings {
  int condim = 3;    // 1 or 3 (4 and 6 are refused by the reader)
  int priority = 0;  // MuJoCo: the pair takes the higher-priority geom's condim and friction
  int line = 0;      // of the geom, for messages
};

// condim 1 becomes friction 0 on that geom, which is exact when no condim-1
// geom has a larger friction than any condim-3 geom (a 1-3 pair is condim 3
// with max friction in MuJoCo). Returns "" when the mapping is exact, else
// what contactlab cannot express, with *line the geom's line; the friction
// is then left as read.
std::string apply_condim_and_priority(Model& model, const std::vector<GeomContactSettings>& settings, int* line);

}  // namespace contactlab
