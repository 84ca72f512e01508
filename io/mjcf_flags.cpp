#include "io/mjcf_flags.hpp"

namespace contactlab {

void apply_mjcf_flags(const MjcfFlags& flags, Model& model) {
  if (!flags.gravity) model.options.gravity = Vec3::Zero();
  if (!flags.contact || !flags.constraint) {
    // Empty bitmasks: geometry/pair_filter.cpp then pairs no geom with any other.
    for (Geom& g : model.geoms) g.contype = g.conaffinity = 0;
  }
  if (!flags.limit || !flags.constraint) {
    for (Joint& j : model.joints) j.limited = false;
  }
  if (!flags.equality || !flags.constraint) model.equalities.clear();
}

}  // namespace contactlab
