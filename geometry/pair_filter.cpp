#include "geometry/pair_filter.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "geometry/collision.hpp"

namespace contactlab {

namespace {

// Fixed bodies and the world have infinite mass.
bool is_moving(const Model& model, int body) { return body >= 0 && !model.bodies[body].fixed; }

// Every test but the one on the types.
bool filters_pass(const Model& model, int geom_a, int geom_b) {
  const Geom& ga = model.geoms[geom_a];
  const Geom& gb = model.geoms[geom_b];
  if (ga.body == gb.body) return false;
  if (!((ga.contype & gb.conaffinity) || (gb.contype & ga.conaffinity))) return false;
  if (!is_moving(model, ga.body) && !is_moving(model, gb.body)) return false;
  const int ba = ga.body, bb = gb.body;
  if (ba >= 0 && bb >= 0 && (model.bodies[ba].parent == bb || model.bodies[bb].parent == ba)) return false;
  return !model.bodies_excluded(ba, bb);
}

}  // namespace

bool geoms_may_collide(const Model& model, int geom_a, int geom_b) {
  return filters_pass(model, geom_a, geom_b) &&
         pair_supported(model.geoms[geom_a].type, model.geoms[geom_b].type);
}

void check_pairs_supported(const Model& model) {
  const int ng = static_cast<int>(model.geoms.size());
  auto name = [&](int g) {
    const Geom& geom = model.geoms[g];
    return "geom " + std::to_string(g) + (geom.name.empty() ? "" : " '" + geom.name + "'") + " (" +
           to_string(geom.type) + ")";
  };
  for (int i = 0; i < ng; ++i)
    for (int j = i + 1; j < ng; ++j) {
      const GeomType a = model.geoms[i].type, b = model.geoms[j].type;
      // Two static types (plane, height field) never collide: no routine needed.
      const bool both_static = (a == GeomType::Plane || a == GeomType::HField) && (b == GeomType::Plane || b == GeomType::HField);
      if (pair_supported(a, b) || both_static) continue;
      if (filters_pass(model, i, j))
        throw std::invalid_argument(name(i) + " and " + name(j) + " may collide, but contactlab has no " +
                                    to_string(a) + "-" + to_string(b) +
                                    " routine yet (docs/geometry.md); set their contype/conaffinity so they "
                                    "cannot touch, or exclude their bodies");
    }
}

Real geom_bounding_radius(const Geom& g) {
  switch (g.type) {
    case GeomType::Sphere: return g.size.x();
    case GeomType::Capsule: return g.size.x() + g.size.y();
    case GeomType::Cylinder: return std::sqrt(g.size.x() * g.size.x() + g.size.y() * g.size.y());
    case GeomType::Box: return g.size.norm();
    case GeomType::Plane: return Real(-1);
    case GeomType::Mesh: return g.hull ? g.hull->bounding_radius : Real(-1);
    case GeomType::HField:
      return g.hfield ? std::sqrt(g.hfield->sx * g.hfield->sx + g.hfield->sy * g.hfield->sy +
                                  std::pow(std::max(g.hfield->top, g.hfield->base), 2))
                      : Real(-1);
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
