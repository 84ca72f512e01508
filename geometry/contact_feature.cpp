#include "geometry/contact_feature.hpp"

#include <algorithm>
#include <cmath>

namespace contactlab {

namespace {

// A cylinder contact counts as side/rim contact when n leaves the axis by more
// than this (sin of about 17°) and the point is on the rim circle; below it the
// contact is on a cap face and the cap point is a material feature.
constexpr Real kRimMinOffAxis = 0.3;
constexpr Real kRimRadiusFraction = 0.9;
// ... and the rim's radial direction at the point within about 18° of n.
constexpr Real kRimAligned = 0.95;
// A box contact whose normal is within about 2.5° of a face normal is a face
// contact (the point slides over the face); otherwise an edge or a corner.
constexpr Real kFaceAligned = 0.999;

}  // namespace

template <class T>
ContactFeatureT<T> contact_feature(const Geom& g, const GeomPoseT<T>& pose, const NoDeduceT<Vec3T<T>>& surface_W,
                                   const NoDeduceT<Vec3T<T>>& outward_W) {
  using std::hypot;
  ContactFeatureT<T> f;
  const Vec3T<T> p_G = pose.R_WG.transpose() * (surface_W - pose.pos_W);
  f.local_G = p_G;
  switch (g.type) {
    case GeomType::Sphere:
      f.kind = FeatureKind::Round;
      f.local_G = Vec3T<T>::Zero();
      break;
    case GeomType::Capsule:
      f.kind = FeatureKind::Round;
      f.local_G = Vec3T<T>(T(0), T(0), std::clamp(p_G.z(), T(-g.size.y()), T(g.size.y())));
      break;
    case GeomType::Cylinder: {
      // Rim feature only where the contact is a support point of the rim: n
      // leaves the axis and the rim's own normal at the point is n. A rim point
      // pressed into a box face below its edge (normal along the face, not the
      // rim's) is a material corner of the cylinder instead.
      const Vec3T<T> n_G = pose.R_WG.transpose() * outward_W;
      const T off_axis = hypot(n_G.x(), n_G.y());
      const T radial = hypot(p_G.x(), p_G.y());
      const bool on_rim = radial >= T(kRimRadiusFraction * g.size.x());
      const bool rim_normal = on_rim && off_axis >= T(kRimMinOffAxis) &&
                              (p_G.x() * n_G.x() + p_G.y() * n_G.y()) >= T(kRimAligned) * radial * off_axis;
      if (rim_normal) {
        f.kind = FeatureKind::Rim;
        f.local_G = Vec3T<T>(T(0), T(0), std::clamp(p_G.z(), T(-g.size.y()), T(g.size.y())));
      } else {
        f.point_like = on_rim && off_axis >= T(kRimMinOffAxis);
      }
      break;
    }
    case GeomType::Box: {
      const Vec3T<T> n_G = pose.R_WG.transpose() * outward_W;
      f.point_like = value_of(n_G.cwiseAbs().maxCoeff()) < kFaceAligned;
      break;
    }
    case GeomType::Plane:
    case GeomType::Mesh:  // a hull point is a material point (vertex, edge or face)
    case GeomType::HField:
      break;
  }
  return f;
}

template <class T>
Vec3T<T> feature_point(const Geom& g, const ContactFeatureT<T>& f, const GeomPoseT<T>& pose,
                       const NoDeduceT<Vec3T<T>>& outward_W) {
  const Vec3T<T> on_axis = pose.pos_W + pose.R_WG * f.local_G;
  switch (f.kind) {
    case FeatureKind::Material:
      return on_axis;
    case FeatureKind::Round:
      return on_axis + T(g.size.x()) * outward_W;
    case FeatureKind::Rim: {
      const Vec3T<T> axis = pose.R_WG.col(2);
      const Vec3T<T> radial = outward_W - outward_W.dot(axis) * axis;
      const T len = radial.norm();
      // The geom may tip within the step until n runs along its axis; the
      // radial direction is then undefined and the axis point is kept.
      if (!(len > T(1e-9))) return on_axis;
      return on_axis + (T(g.size.x()) / len) * radial;
    }
  }
  return on_axis;
}

template <class T>
bool round_against_point(const Geom& round, const ContactFeatureT<T>& f, const GeomPoseT<T>& pose,
                         const NoDeduceT<Vec3T<T>>& point_W, Vec3T<T>& outward_W, T& gap, Vec3T<T>& surface_W) {
  if (f.kind == FeatureKind::Material) return false;
  const Vec3T<T> centre = pose.pos_W + pose.R_WG * f.local_G;
  Vec3T<T> d = point_W - centre;
  if (f.kind == FeatureKind::Rim || round.type == GeomType::Capsule) {
    const Vec3T<T> axis = pose.R_WG.col(2);
    d -= d.dot(axis) * axis;  // from the centre line, in the cross-section
  }
  const T dist = d.norm();
  if (!(dist > T(1e-9))) return false;
  outward_W = d / dist;
  gap = dist - T(round.size.x());
  surface_W = centre + T(round.size.x()) * outward_W;
  return true;
}

#define CONTACTLAB_FEATURE_INSTANCES(T)                                                                        \
  template ContactFeatureT<T> contact_feature<T>(const Geom&, const GeomPoseT<T>&, const NoDeduceT<Vec3T<T>>&,    \
                                                 const NoDeduceT<Vec3T<T>>&);                                     \
  template Vec3T<T> feature_point<T>(const Geom&, const ContactFeatureT<T>&, const GeomPoseT<T>&,                  \
                                     const NoDeduceT<Vec3T<T>>&);                                                 \
  template bool round_against_point<T>(const Geom&, const ContactFeatureT<T>&, const GeomPoseT<T>&,               \
                                       const NoDeduceT<Vec3T<T>>&, Vec3T<T>&, T&, Vec3T<T>&);
CONTACTLAB_FEATURE_INSTANCES(Real)
CONTACTLAB_FEATURE_INSTANCES(Dual)
#undef CONTACTLAB_FEATURE_INSTANCES

}  // namespace contactlab
