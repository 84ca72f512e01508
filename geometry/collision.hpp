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
// The same over any scalar; instantiated for Real and Dual. For Dual only the
// closed-form pairs (pair_closed_form) are available: the others throw
// std::logic_error.
template <class T>
int collide_geoms_t(const Geom& a, const GeomPoseT<T>& pa, int id_a, const Geom& b, const GeomPoseT<T>& pb, int id_b,
                    Real margin, std::vector<ContactT<T>>& out);

// Whether the narrow phase has a routine for this pair of types (in either order).
bool pair_supported(GeomType a, GeomType b);

// Whether the pair's routine is closed form, so that its contacts are smooth
// functions of the poses away from feature switches: false for the pairs that
// locate a point by golden-section search or by sampling (capsule-box,
// capsule-cylinder, box-cylinder, cylinder-cylinder), whose points move in
// steps of the search's resolution (~4e-10 of a segment) and so have no usable
// finite-difference derivative at small steps.
bool pair_closed_form(GeomType a, GeomType b);

}  // namespace contactlab
