#include "io/mjcf_contact_params.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace contactlab {

namespace {

// With different priorities MuJoCo takes the higher geom's friction and
// condim; contactlab's max rule agrees when the higher geom's friction is the
// larger one and all condims are equal. Checked against every lower level
// at once (conservative: geoms that can never touch are compared too).
std::string check_priorities(const Model& model, const std::vector<GeomContactSettings>& s, int* line) {
  std::vector<size_t> order(s.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s[a].priority < s[b].priority; });
  if (order.empty() || s[order.front()].priority == s[order.back()].priority) return "";
  for (const GeomContactSettings& g : s)
    if (g.condim != s.front().condim) {
      *line = g.line;
      return "geom priority with different condims (MuJoCo takes the higher-priority geom's condim)";
    }
  Real lower_max = -1;  // max friction over the priority levels below the current one
  size_t i = 0;
  while (i < order.size()) {
    size_t j = i;
    Real level_max = -1;
    for (; j < order.size() && s[order[j]].priority == s[order[i]].priority; ++j) {
      const Real mu = model.geoms[order[j]].friction;
      if (mu < lower_max) {
        *line = s[order[j]].line;
        return "geom priority that selects a smaller friction than the max of the pair (contactlab mixes by max)";
      }
      level_max = std::max(level_max, mu);
    }
    lower_max = std::max(lower_max, level_max);
    i = j;
  }
  return "";
}

}  // namespace

std::string apply_condim_and_priority(Model& model, const std::vector<GeomContactSettings>& s, int* line) {
  const std::string priority = check_priorities(model, s, line);
  if (!priority.empty()) return priority;
  Real max_frictionless = -1, min_frictional = std::numeric_limits<Real>::infinity();
  int worst_line = 0;
  for (size_t g = 0; g < s.size(); ++g) {
    const Real mu = model.geoms[g].friction;
    if (s[g].condim == 1 && mu > max_frictionless) {
      max_frictionless = mu;
      worst_line = s[g].line;
    }
    if (s[g].condim != 1) min_frictional = std::min(min_frictional, mu);
  }
  if (max_frictionless < 0) return "";  // no condim-1 geom
  if (max_frictionless > min_frictional) {
    *line = worst_line;
    return "geom condim 1 with a friction larger than a condim-3 geom's (MuJoCo's pair then has the larger "
           "friction; contactlab's condim-1 geom has none)";
  }
  for (size_t g = 0; g < s.size(); ++g)
    if (s[g].condim == 1) model.geoms[g].friction = 0;
  return "";
}

}  // namespace contactlab
