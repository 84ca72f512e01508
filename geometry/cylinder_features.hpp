// Private to the narrow phase: a cylinder placed in the world and the
// features the sampled cylinder routines take from it (cap rims, the support
// line towards a face), over the scalar T of the pose.
#pragma once

#include <cmath>

#include "geometry/argmin_pullback.hpp"
#include "geometry/collision_detail.hpp"

namespace contactlab {
namespace collision_detail {

constexpr int kRimSamples = 8;  // points per cap rim in the sampled routines

template <class T>
struct CylFrame {
  Vec3T<T> c_W;     // centre
  Vec3T<T> axis_W;  // local z in world
  Mat3T<T> R;       // axes (columns), world
  Real r, h;        // radius, half-length
  GeomPoseT<T> pose;
};

template <class T>
CylFrame<T> cyl_frame(const Geom& g, const GeomPoseT<T>& p) {
  return CylFrame<T>{p.pos_W, p.R_WG.col(2), p.R_WG, g.size.x(), g.size.y(), p};
}

// Point of the cap rim (cap = +1 or -1) at angle theta in the geom's xy axes.
template <class T>
Vec3T<T> rim_sample(const CylFrame<T>& c, Real cap, const T& theta) {
  using std::cos;
  using std::sin;
  return c.c_W + T(cap * c.h) * c.axis_W + T(c.r) * (cos(theta) * c.R.col(0) + sin(theta) * c.R.col(1));
}

// Feeds `add` the kRimSamples points of each cap rim (fixed angles: carried
// rigidly, smooth in the pose) and, per cap, the rim point of least `dist`
// (signed distance to the other shape) over the arc between the neighbours of
// the best sample, located by search and made exact and differentiable by
// argmin_01_t: a rim crossing an edge or a curved side between two samples.
template <class T, class Dist, class Add>
void add_rim_points(const CylFrame<T>& c, Real margin, const Dist& dist, const Add& add) {
  const Real step = 2 * kPi / kRimSamples;
  for (int cap = -1; cap <= 1; cap += 2) {
    int best = 0;
    Real best_d = 1e300;
    for (int k = 0; k < kRimSamples; ++k) {
      const Vec3T<T> p_W = rim_sample(c, cap, T(step * k));
      add(p_W);
      const Real d = value_of(dist(p_W));
      if (d < best_d) { best_d = d; best = k; }
    }
    // The distance is 1-Lipschitz: nothing on the arc (chord < r step) can be
    // within the margin if the best sample is that much beyond it.
    if (best_d >= margin + c.r * step) continue;
    const Real theta0 = step * (best - 1);
    const T s = argmin_01_t<T>([&](const T& u) { return dist(rim_sample(c, cap, T(theta0) + T(2 * step) * u)); },
                               2 * step * c.r);
    add(rim_sample(c, cap, T(theta0) + T(2 * step) * s));
  }
}

// The cylinder's support line towards -w_W (w: outward normal of a face of
// the other shape): the segment joining the two caps' rim points furthest
// along -w. False when the axis is parallel to w (the cap is flat against the
// face and the rim samples cover it).
template <class T>
bool support_line(const CylFrame<T>& c, const Vec3T<T>& w_W, SegmentT<T>& line) {
  Vec3T<T> u_W = -(w_W - w_W.dot(c.axis_W) * c.axis_W);
  const T len = u_W.norm();
  if (len < T(1e-6)) return false;
  u_W /= len;
  line = SegmentT<T>{c.c_W - T(c.h) * c.axis_W + T(c.r) * u_W, T(2 * c.h) * c.axis_W};
  return true;
}

}  // namespace collision_detail
}  // namespace contactlab
