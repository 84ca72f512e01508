// How a contact's surface point on one geom follows that geom through a step.
//
// Backward Euler evaluates contact gaps at q+ with the contact set and normal
// fixed at q-. Carrying the surface point rigidly with its body is right for a
// box corner, but wrong for a round surface: a wheel turning by an angle θ in
// one step lifts its material contact point by r(1 - cos θ) (0.16 m for a
// 0.35 m wheel at 10 rad/s and h = 0.1 s), so the scheme would let the wheel
// sink by that much. On round features the point is instead the geom's
// support point in the contact direction, which is where the surface touches
// the other body after the motion:
//   sphere:   centre + r n
//   capsule:  the axis point at the contact's axial coordinate + r n
//   cylinder: on the side or the rim, the rim point at the contact's axial
//             coordinate whose radial direction is n projected off the axis
//             (a rolling wheel keeps its contact at the bottom); on a cap face
//             (n nearly along the axis) the point is material.
//   box, plane: material point carried rigidly (vertices and faces are features).
// n is the outward direction of this geom at the contact (+normal for geom1,
// -normal for geom2). The choice of feature is made once at q- and kept for the step.
#pragma once

#include "core/dual.hpp"
#include "core/math.hpp"
#include "core/model.hpp"
#include "geometry/collision.hpp"

namespace contactlab {

enum class FeatureKind { Material, Round, Rim };

template <class T>
struct ContactFeatureT {
  using Kind = FeatureKind;
  Kind kind = Kind::Material;
  Vec3T<T> local_G = Vec3T<T>::Zero();  // Material: the surface point in geom coordinates; Round/Rim: (0, 0, axial coordinate)
  // Material only: a box edge or corner (the contact normal leaves every face
  // normal), or a cylinder rim point whose own normal is not the contact's.
  // Against a round feature the normal of a box edge or corner turns with
  // the motion: it runs from the round surface's centre line through the point.
  bool point_like = false;
};
using ContactFeature = ContactFeatureT<Real>;

// Feature of the surface point surface_W of geom g (at pose) for a contact whose
// outward direction on g is outward_W (unit).
// Over any scalar (instantiated for Real and Dual; the choice of feature
// reads values only).
template <class T>
ContactFeatureT<T> contact_feature(const Geom& g, const GeomPoseT<T>& pose, const NoDeduceT<Vec3T<T>>& surface_W,
                                   const NoDeduceT<Vec3T<T>>& outward_W);

// The feature's point when g is at pose, for the same outward direction.
template <class T>
Vec3T<T> feature_point(const Geom& g, const ContactFeatureT<T>& f, const GeomPoseT<T>& pose,
                       const NoDeduceT<Vec3T<T>>& outward_W);

// How well the feature locates the contact point along the surface: 3 for a
// round feature (the support point is the contact), 2 for a point-like
// material feature (a box edge or corner, a cylinder's rim point pressed into a
// face), 1 for a face of a finite shape, 0 for a plane (its material point is
// arbitrary: a box sliding on the floor drags its contact along with it). Where the two
// sides differ, the contact point at q+ follows the higher-ranked side; a
// midpoint would lag half a step's displacement behind a rolling wheel and
// the normal impulse would turn it.
template <class T>
int feature_rank(const Geom& g, const ContactFeatureT<T>& f) {
  if (f.kind != FeatureKind::Material) return 3;
  if (f.point_like) return 2;
  return g.type == GeomType::Plane ? 0 : 1;
}

// A point-like feature (point_W, fixed on its body) against a round one at
// pose: the contact normal out of the round surface, the gap and the round
// surface point, exactly, for the iterate. Returns false where the geometry
// degenerates (the point on the centre line), and the caller keeps the
// fixed-normal estimate.
template <class T>
bool round_against_point(const Geom& round, const ContactFeatureT<T>& f, const GeomPoseT<T>& pose,
                         const NoDeduceT<Vec3T<T>>& point_W, Vec3T<T>& outward_W, T& gap, Vec3T<T>& surface_W);

}  // namespace contactlab
