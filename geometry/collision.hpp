// Narrow phase for primitive shapes. All functions append contacts whose gap
// is below `margin` and return how many they appended.
#pragma once

#include <vector>

#include "core/contact.hpp"
#include "core/math.hpp"
#include "core/model.hpp"

namespace contactlab {

// World pose of a geom: origin and rotation (columns are the geom's axes),
// over any scalar (GeomPose: Real; dual numbers in the exact pull-back).
template <class T>
struct GeomPoseT {
  Vec3T<T> pos_W = Vec3T<T>::Zero();
  Mat3T<T> R_WG = Mat3T<T>::Identity();
};
using GeomPose = GeomPoseT<Real>;

// Geom-vs-geom test for one pair. Fills body/geom ids, friction and the tangent
// frame; geom a becomes geom1. Returns the number of contacts appended.
int collide_geoms(const Geom& a, const GeomPose& pa, int id_a, const Geom& b, const GeomPose& pb, int id_b,
                  Real margin, std::vector<Contact>& out);
// The same over any scalar; instantiated for Real and Dual (every pair).
template <class T>
int collide_geoms_t(const Geom& a, const GeomPoseT<T>& pa, int id_a, const Geom& b, const GeomPoseT<T>& pb, int id_b,
                    Real margin, std::vector<ContactT<T>>& out);

// Whether the narrow phase has a routine for this pair of types (in either order).
bool pair_supported(GeomType a, GeomType b);

// Whether the pair's contacts are smooth functions of the poses away from
// feature switches, with dual-number derivatives (collide_geoms_t<Dual>):
// true for every pair. The four that locate a point by search (capsule-box,
// capsule-cylinder, box-cylinder, cylinder-cylinder) make the located
// minimiser exact and differentiable by the implicit-function theorem
// (geometry/argmin_pullback.hpp; docs/geometry.md).
bool pair_closed_form(GeomType a, GeomType b);

}  // namespace contactlab
