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

ContactFeature contact_feature(const Geom& g, const GeomPose& pose, const Vec3& surface_W, const Vec3& outward_W) {
  ContactFeature f;
  const Vec3 p_G = pose.R_WG.transpose() * (surface_W - pose.pos_W);
  f.local_G = p_G;
  switch (g.type) {
    case GeomType::Sphere:
      f.kind = ContactFeature::Kind::Round;
      f.local_G = Vec3::Zero();
      break;
    case GeomType::Capsule:
      f.kind = ContactFeature::Kind::Round;
      f.local_G = Vec3(0, 0, std::clamp(p_G.z(), -g.size.y(), g.size.y()));
      break;
    case GeomType::Cylinder: {
      // Rim feature only where the contact is a support point of the rim: n
      // leaves the axis and the rim's own normal at the point is n. A rim point
      // pressed into a box face below its edge (normal along the face, not the
      // rim's) is a material corner of the cylinder instead.
      const Vec3 n_G = pose.R_WG.transpose() * outward_W;
      const Real off_axis = std::hypot(n_G.x(), n_G.y());
      const Real radial = std::hypot(p_G.x(), p_G.y());
      const bool on_rim = radial >= kRimRadiusFraction * g.size.x();
      const bool rim_normal = on_rim && off_axis >= kRimMinOffAxis &&
                              (p_G.x() * n_G.x() + p_G.y() * n_G.y()) >= kRimAligned * radial * off_axis;
      if (rim_normal) {
        f.kind = ContactFeature::Kind::Rim;
        f.local_G = Vec3(0, 0, std::clamp(p_G.z(), -g.size.y(), g.size.y()));
      } else {
        f.point_like = on_rim && off_axis >= kRimMinOffAxis;
      }
      break;
    }
    case GeomType::Box: {
      const Vec3 n_G = pose.R_WG.transpose() * outward_W;
      f.point_like = n_G.cwiseAbs().maxCoeff() < kFaceAligned;
      break;
    }
    case GeomType::Plane:
      break;
  }
  return f;
}

Vec3 feature_point(const Geom& g, const ContactFeature& f, const GeomPose& pose, const Vec3& outward_W) {
  const Vec3 on_axis = pose.pos_W + pose.R_WG * f.local_G;
  switch (f.kind) {
    case ContactFeature::Kind::Material:
      return on_axis;
    case ContactFeature::Kind::Round:
      return on_axis + g.size.x() * outward_W;
    case ContactFeature::Kind::Rim: {
      const Vec3 axis = pose.R_WG.col(2);
      const Vec3 radial = outward_W - outward_W.dot(axis) * axis;
      const Real len = radial.norm();
      // The geom may tip within the step until n runs along its axis; the
      // radial direction is then undefined and the axis point is kept.
      if (!(len > 1e-9)) return on_axis;
      return on_axis + (g.size.x() / len) * radial;
    }
  }
  return on_axis;
}

bool round_against_point(const Geom& round, const ContactFeature& f, const GeomPose& pose, const Vec3& point_W,
                         Vec3& outward_W, Real& gap, Vec3& surface_W) {
  if (f.kind == ContactFeature::Kind::Material) return false;
  const Vec3 centre = pose.pos_W + pose.R_WG * f.local_G;
  Vec3 d = point_W - centre;
  if (f.kind == ContactFeature::Kind::Rim || round.type == GeomType::Capsule) {
    const Vec3 axis = pose.R_WG.col(2);
    d -= d.dot(axis) * axis;  // from the centre line, in the cross-section
  }
  const Real dist = d.norm();
  if (!(dist > 1e-9)) return false;
  outward_W = d / dist;
  gap = dist - round.size.x();
  surface_W = centre + round.size.x() * outward_W;
  return true;
}

int feature_rank(const Geom& g, const ContactFeature& f) {
  if (f.kind != ContactFeature::Kind::Material) return 3;
  if (f.point_like) return 2;
  return g.type == GeomType::Plane ? 0 : 1;
}

}  // namespace contactlab
