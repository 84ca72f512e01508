#include "geometry/pair_filter.hpp"

#include <cmath>

#include "geometry/collision.hpp"

namespace contactlab {

namespace {

// Fixed bodies and the world have infinite mass.
bool is_moving(const Model& model, int body) { return body >= 0 && !model.bodies[body].fixed; }

}  // namespace

bool geoms_may_collide(const Model& model, int geom_a, int geom_b) {
  const Geom& ga = model.geoms[geom_a];
  const Geom& gb = model.geoms[geom_b];
  if (ga.body == gb.body) return false;
  if (!((ga.contype & gb.conaffinity) || (gb.contype & ga.conaffinity))) return false;
  if (!is_moving(model, ga.body) && !is_moving(model, gb.body)) return false;
  const int ba = ga.body, bb = gb.body;
  if (ba >= 0 && bb >= 0 && (model.bodies[ba].parent == bb || model.bodies[bb].parent == ba)) return false;
  if (model.bodies_excluded(ba, bb)) return false;
  return pair_supported(ga.type, gb.type);
}

Real geom_bounding_radius(const Geom& g) {
  switch (g.type) {
    case GeomType::Sphere: return g.size.x();
    case GeomType::Capsule: return g.size.x() + g.size.y();
    case GeomType::Cylinder: return std::sqrt(g.size.x() * g.size.x() + g.size.y() * g.size.y());
    case GeomType::Box: return g.size.norm();
    case GeomType::Plane: return Real(-1);
  }
  return Real(-1);
}

bool bounding_spheres_apart(const Geom& a, const Vec3& pos_a_W, const Geom& b, const Vec3& pos_b_W, Real pair_margin) {
  const Real ra = geom_bounding_radius(a), rb = geom_bounding_radius(b);
  // Written as the comparison the collision pass has always made, so that
  // NaN positions are not rejected here (the narrow phase sees them).
  return ra >= 0 && rb >= 0 && (pos_a_W - pos_b_W).norm() > ra + rb + pair_margin;
}

}  // namespace contactlab
