#include "geometry/contact_motion.hpp"

#include <algorithm>

namespace contactlab {

namespace {

Vec3 outward_of(const Contact& c, int side) { return side == 0 ? c.normal_W : Vec3(-c.normal_W); }
int geom_of(const Contact& c, int side) { return side == 0 ? c.geom1 : c.geom2; }
int body_of(const Contact& c, int side) { return side == 0 ? c.body1 : c.body2; }

// The point of a capsule's axis segment closest to p.
Vec3 closest_on_axis(const Geom& capsule, const GeomPose& pose, const Vec3& p) {
  const Vec3 axis = pose.R_WG.col(2);
  const Real t = std::clamp(axis.dot(p - pose.pos_W), -capsule.size.y(), capsule.size.y());
  return pose.pos_W + t * axis;
}

GeomPose pose_of(const Model& model, const Data& data, int geom) {
  GeomPose pose;
  geom_world_pose(model, data, geom, pose.pos_W, pose.R_WG);
  return pose;
}

}  // namespace

void ContactMotion::capture(const Model& model, const Data& base) {
  base_ = base.contacts;
  features_.resize(2 * base_.size());
  feature_at_base_.resize(2 * base_.size());
  face_rotation_at_base_.resize(2 * base_.size());
  for (size_t k = 0; k < base_.size(); ++k) {
    const Contact& c = base_[k];
    for (int side = 0; side < 2; ++side) {
      // point_W is midway between the surfaces: geom1's is gap/2 behind it along n.
      const Vec3 surface = c.point_W + (side == 0 ? -0.5 : 0.5) * c.gap * c.normal_W;
      const int geom = geom_of(c, side), body = body_of(c, side);
      const GeomPose pose = pose_of(model, base, geom);
      const Geom& g = model.geoms[geom];
      features_[2 * k + side] = contact_feature(g, pose, surface, outward_of(c, side));
      feature_at_base_[2 * k + side] = feature_point(g, features_[2 * k + side], pose, outward_of(c, side));
      face_rotation_at_base_[2 * k + side] = body >= 0 ? base.q_WB[body] : Quat::Identity();
    }
  }
}

Vec3 ContactMotion::displacement(const Model& model, const Data& at, size_t k, int side) const {
  const Contact& c = base_[k];
  const int body = body_of(c, side);
  if (body < 0 || model.bodies[body].fixed) return Vec3::Zero();
  const int geom = geom_of(c, side);
  return feature_point(model.geoms[geom], features_[2 * k + side], pose_of(model, at, geom), outward_of(c, side)) -
         feature_at_base_[2 * k + side];
}

void ContactMotion::evaluate(const Model& model, const Data& at, std::vector<Contact>& out) const {
  out.resize(base_.size());
  for (size_t k = 0; k < base_.size(); ++k) {
    const Contact& c0 = base_[k];
    Contact& ck = out[k];
    ck = c0;
    if (options.refresh_friction)
      ck.friction = std::max(model.geoms[c0.geom1].friction, model.geoms[c0.geom2].friction);
    const Vec3 d1 = displacement(model, at, k, 0), d2 = displacement(model, at, k, 1);
    const ContactFeature& f1 = features_[2 * k];
    const ContactFeature& f2 = features_[2 * k + 1];
    const int rank1 = feature_rank(model.geoms[c0.geom1], f1), rank2 = feature_rank(model.geoms[c0.geom2], f2);
    // The point follows the side whose feature locates it best, keeping its
    // offset from that side's surface (it does not slide along n with the gap:
    // the slip velocity at the point would then depend on the normal motion).
    ck.point_W = c0.point_W + (rank1 > rank2 ? d1 : rank2 > rank1 ? d2 : Vec3(0.5 * (d1 + d2)));
    ck.gap = c0.gap + c0.normal_W.dot(d2 - d1);
    // The better located side's surface point s is gap/2 behind (geom1) or
    // ahead of (geom2) the point along n: point = s + side_sign gap/2 n.
    const Real side_sign = rank1 > rank2 ? Real(1) : rank2 > rank1 ? Real(-1) : Real(0);
    auto place_at_mid_gap = [&]() {
      if (options.point_at_mid_gap)
        ck.point_W += 0.5 * side_sign * (ck.gap * ck.normal_W - c0.gap * c0.normal_W);
    };

    // Two round features (spheres, capsules): the normal runs between their
    // centres as the narrow phase's does, and turns as they pass each other
    // (an oblique sphere-sphere impact: the pull-back was off by 0.4 % with
    // the captured normal). A capsule's centre is the point of its axis
    // closest to a sphere's centre; two capsules keep their captured axial
    // points (the narrow phase's closest points move along the axes).
    if (f1.kind == ContactFeature::Kind::Round && f2.kind == ContactFeature::Kind::Round) {
      const Geom& g1 = model.geoms[c0.geom1];
      const Geom& g2 = model.geoms[c0.geom2];
      const GeomPose p1 = pose_of(model, at, c0.geom1), p2 = pose_of(model, at, c0.geom2);
      Vec3 a = p1.pos_W + p1.R_WG * f1.local_G, b = p2.pos_W + p2.R_WG * f2.local_G;
      if (g1.type == GeomType::Capsule && g2.type == GeomType::Sphere) a = closest_on_axis(g1, p1, b);
      if (g2.type == GeomType::Capsule && g1.type == GeomType::Sphere) b = closest_on_axis(g2, p2, a);
      const Vec3 d = b - a;
      const Real dist = d.norm();
      if (dist > 1e-9 && d.dot(c0.normal_W) >= 0.5 * dist) {  // turned further within one step: keep the estimate
        const Vec3 n = d / dist;
        const Quat turn = Quat::FromTwoVectors(c0.normal_W, n);
        ck.normal_W = n;
        ck.tangent1_W = turn * c0.tangent1_W;
        ck.tangent2_W = turn * c0.tangent2_W;
        ck.gap = dist - g1.size.x() - g2.size.x();
        ck.point_W = 0.5 * ((a + g1.size.x() * n) + (b - g2.size.x() * n));
      }
      continue;
    }

    // A wheel on a box edge: the normal runs from the wheel's axis through the
    // edge point and turns as the wheel climbs; with the q- normal the gap of a
    // wheel 0.1 m further on is off by centimetres. Evaluated exactly.
    const bool round1 = f1.kind != ContactFeature::Kind::Material && f2.point_like;
    const bool round2 = f2.kind != ContactFeature::Kind::Material && f1.point_like;
    if (round1 || round2) {
      const int side = round1 ? 0 : 1;
      const int geom = geom_of(c0, side);
      const Vec3 point = feature_at_base_[2 * k + 1 - side] + (side == 0 ? d2 : d1);
      Vec3 outward, surface;
      Real gap;
      if (round_against_point(model.geoms[geom], features_[2 * k + side], pose_of(model, at, geom), point, outward, gap,
                              surface)) {
        const Vec3 n = side == 0 ? outward : Vec3(-outward);
        if (n.dot(c0.normal_W) >= 0.5) {  // turned further within one step: keep the q- estimate
          const Quat turn = Quat::FromTwoVectors(c0.normal_W, n);
          ck.normal_W = n;
          ck.tangent1_W = turn * c0.tangent1_W;
          ck.tangent2_W = turn * c0.tangent2_W;
          ck.gap = gap;
          ck.point_W = 0.5 * (point + surface);
        }
      }
      continue;
    }
    // A face of a moving body under a point or round feature: the normal turns
    // with the face, and the gap is the other feature's height over the face.
    if (!options.turn_face_normals) {
      place_at_mid_gap();
      continue;
    }
    for (int side = 0; side < 2; ++side) {
      const int face_rank = side == 0 ? rank1 : rank2, other_rank = side == 0 ? rank2 : rank1;
      const int body = body_of(c0, side);
      if (face_rank != 1 || other_rank < 2 || body < 0 || model.bodies[body].fixed) continue;
      const Quat turn = at.q_WB[body] * face_rotation_at_base_[2 * k + side].conjugate();
      const Vec3 n = turn * c0.normal_W;
      const Vec3 p1 = feature_at_base_[2 * k] + d1, p2 = feature_at_base_[2 * k + 1] + d2;
      // The feature points at base are gap0 apart along n0; their offset in the
      // tangent plane carries over, so the gap is measured along the turned n.
      const Vec3 offset0 = feature_at_base_[2 * k + 1] - feature_at_base_[2 * k];
      ck.normal_W = n;
      ck.tangent1_W = turn * c0.tangent1_W;
      ck.tangent2_W = turn * c0.tangent2_W;
      ck.gap = c0.gap + n.dot(p2 - p1) - c0.normal_W.dot(offset0);
      break;
    }
    place_at_mid_gap();
  }
}

}  // namespace contactlab
