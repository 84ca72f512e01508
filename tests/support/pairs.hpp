// Shared by the narrow-phase derivative tests (test_contact_motion.cpp,
// test_exact_pullback.cpp): a two-geom scene (a plane or a free body "a", a
// free body "b") and a generic pose for it, turned at random and a few
// millimetres apart, so that every contact is within the margin but none
// touches.
#pragma once

#include <algorithm>
#include <random>
#include <string>

#include "core/data.hpp"
#include "core/math.hpp"
#include "core/model.hpp"
#include "schemes/assembly.hpp"

namespace contactlab {
namespace test_pairs {

// The geom of one body of a pair scene; type is sphere, capsule, box or
// cylinder (anything else is a cylinder), sizes fixed per type.
inline std::string pair_geom_xml(const std::string& type, const std::string& name) {
  if (type == "sphere") return "<geom name=\"" + name + "\" type=\"sphere\" size=\"0.1\" mass=\"1\"/>";
  if (type == "capsule") return "<geom name=\"" + name + "\" type=\"capsule\" size=\"0.05 0.15\" mass=\"1\"/>";
  if (type == "box") return "<geom name=\"" + name + "\" type=\"box\" size=\"0.1 0.15 0.2\" mass=\"1\"/>";
  return "<geom name=\"" + name + "\" type=\"cylinder\" size=\"0.1 0.05\" mass=\"1\"/>";
}

// MJCF of geoms "ga" (type a: a world plane when a == "plane", else on free
// body "a" at the origin) and "gb" (type b, on free body "b" at z = 0.5),
// without gravity.
inline std::string pair_scene_xml(const std::string& a, const std::string& b) {
  std::string xml = "<mujoco model=\"p\"><option gravity=\"0 0 0\"/><worldbody>";
  if (a == "plane") xml += "<geom name=\"ga\" type=\"plane\" size=\"5 5 0.1\"/>";
  else xml += "<body name=\"a\" pos=\"0 0 0\"><freejoint/>" + pair_geom_xml(a, "ga") + "</body>";
  xml += "<body name=\"b\" pos=\"0 0 0.5\"><freejoint/>" + pair_geom_xml(b, "gb") + "</body></worldbody></mujoco>";
  return xml;
}

// Turns the pair's free bodies at random (b, then a when it is a body), then
// moves b from a along a random direction (straight up over a plane) to the
// separation at which the closest contact's gap is `gap` (bisected to
// machine precision, from above).
inline void pose_pair_at_gap(const Model& model, Data& d, std::mt19937& rng, double gap) {
  std::uniform_real_distribution<double> u(-1, 1);
  const int nb = model.num_bodies(), ib = nb - 1;
  d.q_WB[ib] = integrate_quaternion(Quat::Identity(), Vec3(u(rng), u(rng), u(rng)), 1.0);
  if (nb == 2) d.q_WB[0] = integrate_quaternion(Quat::Identity(), Vec3(u(rng), u(rng), u(rng)), 1.0);
  const Vec3 dir = nb == 1 ? Vec3(0, 0, 1) : Vec3(u(rng), u(rng), 1).normalized();
  double lo = 0, hi = 1;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    d.x_W[ib] = mid * dir;
    detect_contacts(model, d, 1.0);
    double g = 1e9;
    for (const Contact& c : d.contacts) g = std::min(g, c.gap);
    (g > gap ? hi : lo) = mid;
  }
  d.x_W[ib] = hi * dir;
}

}  // namespace test_pairs
}  // namespace contactlab
