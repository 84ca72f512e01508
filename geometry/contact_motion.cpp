#include "geometry/contact_motion.hpp"

#include <algorithm>

namespace contactlab {

namespace {

template <class T>
Vec3T<T> outward_of(const ContactT<T>& c, int side) { return side == 0 ? c.normal_W : Vec3T<T>(-c.normal_W); }
template <class T>
int geom_of(const ContactT<T>& c, int side) { return side == 0 ? c.geom1 : c.geom2; }
template <class T>
int body_of(const ContactT<T>& c, int side) { return side == 0 ? c.body1 : c.body2; }

// The point of a capsule's axis segment closest to p.
template <class T>
Vec3T<T> closest_on_axis(const Geom& capsule, const GeomPoseT<T>& pose, const Vec3T<T>& p) {
  const Vec3T<T> axis = pose.R_WG.col(2);
  const T t = std::clamp(T(axis.dot(p - pose.pos_W)), T(-capsule.size.y()), T(capsule.size.y()));
  return pose.pos_W + t * axis;
}

template <class T>
GeomPoseT<T> pose_of(const Model& model, const BodyStatesT<T>& s, int geom) {
  GeomPoseT<T> pose;
  geom_world_pose_t<T>(model, s, geom, pose.pos_W, pose.R_WG);
  return pose;
}

}  // namespace

template <class T>
void ContactMotionT<T>::capture(const Model& model, const BodyStatesT<T>& base, const std::vector<ContactT<T>>& contacts) {
  base_ = contacts;
  features_.resize(2 * base_.size());
  feature_at_base_.resize(2 * base_.size());
  face_rotation_at_base_.resize(2 * base_.size());
  for (size_t k = 0; k < base_.size(); ++k) {
    const ContactT<T>& c = base_[k];
    for (int side = 0; side < 2; ++side) {
      // point_W is midway between the surfaces: geom1's is gap/2 behind it along n.
      const Vec3T<T> surface = c.point_W + T(side == 0 ? -0.5 : 0.5) * c.gap * c.normal_W;
      const int geom = geom_of(c, side), body = body_of(c, side);
      const GeomPoseT<T> pose = pose_of(model, base, geom);
      const Geom& g = model.geoms[geom];
      features_[2 * k + side] = contact_feature(g, pose, surface, outward_of(c, side));
      feature_at_base_[2 * k + side] = feature_point(g, features_[2 * k + side], pose, outward_of(c, side));
      face_rotation_at_base_[2 * k + side] = body >= 0 ? base.q[body] : QuatT<T>(QuatT<T>::Identity());
    }
  }
}

template <class T>
Vec3T<T> ContactMotionT<T>::displacement(const Model& model, const BodyStatesT<T>& at, size_t k, int side) const {
  const ContactT<T>& c = base_[k];
  const int body = body_of(c, side);
  if (body < 0 || model.bodies[body].fixed) return Vec3T<T>::Zero();
  const int geom = geom_of(c, side);
  return feature_point(model.geoms[geom], features_[2 * k + side], pose_of(model, at, geom), outward_of(c, side)) -
         feature_at_base_[2 * k + side];
}

template <class T>
void ContactMotionT<T>::evaluate(const Model& model, const BodyStatesT<T>& at, std::vector<ContactT<T>>& out) const {
  out.resize(base_.size());
  for (size_t k = 0; k < base_.size(); ++k) {
    const ContactT<T>& c0 = base_[k];
    ContactT<T>& ck = out[k];
    ck = c0;
    if (options.refresh_friction)
      ck.friction = T(std::max(model.geoms[c0.geom1].friction, model.geoms[c0.geom2].friction));
    const Vec3T<T> d1 = displacement(model, at, k, 0), d2 = displacement(model, at, k, 1);
    const ContactFeatureT<T>& f1 = features_[2 * k];
    const ContactFeatureT<T>& f2 = features_[2 * k + 1];
    const int rank1 = feature_rank(model.geoms[c0.geom1], f1), rank2 = feature_rank(model.geoms[c0.geom2], f2);
    // The point follows the side whose feature locates it best, keeping its
    // offset from that side's surface (it does not slide along n with the gap:
    // the slip velocity at the point would then depend on the normal motion).
    ck.point_W = c0.point_W + (rank1 > rank2 ? d1 : rank2 > rank1 ? d2 : Vec3T<T>(T(0.5) * (d1 + d2)));
    ck.gap = c0.gap + c0.normal_W.dot(d2 - d1);
    // The better located side's surface point s is gap/2 behind (geom1) or
    // ahead of (geom2) the point along n: point = s + side_sign gap/2 n.
    const Real side_sign = rank1 > rank2 ? Real(1) : rank2 > rank1 ? Real(-1) : Real(0);
    auto place_at_mid_gap = [&]() {
      if (options.point_at_mid_gap)
        ck.point_W += T(0.5 * side_sign) * (ck.gap * ck.normal_W - c0.gap * c0.normal_W);
    };

    // Two round features (spheres, capsules): the normal runs between their
    // centres as the narrow phase's does, and turns as they pass each other
    // (an oblique sphere-sphere impact: the pull-back was off by 0.4 % with
    // the captured normal). A capsule's centre is the point of its axis
    // closest to a sphere's centre; two capsules keep their captured axial
    // points (the narrow phase's closest points move along the axes).
    if (f1.kind == FeatureKind::Round && f2.kind == FeatureKind::Round) {
      const Geom& g1 = model.geoms[c0.geom1];
      const Geom& g2 = model.geoms[c0.geom2];
      const GeomPoseT<T> p1 = pose_of(model, at, c0.geom1), p2 = pose_of(model, at, c0.geom2);
      Vec3T<T> a = p1.pos_W + p1.R_WG * f1.local_G, b = p2.pos_W + p2.R_WG * f2.local_G;
      if (g1.type == GeomType::Capsule && g2.type == GeomType::Sphere) a = closest_on_axis(g1, p1, b);
      if (g2.type == GeomType::Capsule && g1.type == GeomType::Sphere) b = closest_on_axis(g2, p2, a);
      const Vec3T<T> d = b - a;
      const T dist = d.norm();
      if (dist > T(1e-9) && d.dot(c0.normal_W) >= T(0.5) * dist) {  // turned further within one step: keep the estimate
        const Vec3T<T> n = d / dist;
        const QuatT<T> turn = QuatT<T>::FromTwoVectors(c0.normal_W, n);
        ck.normal_W = n;
        ck.tangent1_W = turn * c0.tangent1_W;
        ck.tangent2_W = turn * c0.tangent2_W;
        ck.gap = dist - T(g1.size.x()) - T(g2.size.x());
        ck.point_W = T(0.5) * ((a + T(g1.size.x()) * n) + (b - T(g2.size.x()) * n));
      }
      continue;
    }

    // A wheel on a box edge: the normal runs from the wheel's axis through the
    // edge point and turns as the wheel climbs; with the q- normal the gap of a
    // wheel 0.1 m further on is off by centimetres. Evaluated exactly.
    const bool round1 = f1.kind != FeatureKind::Material && f2.point_like;
    const bool round2 = f2.kind != FeatureKind::Material && f1.point_like;
    if (round1 || round2) {
      const int side = round1 ? 0 : 1;
      const int geom = geom_of(c0, side);
      const Vec3T<T> point = feature_at_base_[2 * k + 1 - side] + (side == 0 ? d2 : d1);
      Vec3T<T> outward, surface;
      T gap;
      if (round_against_point(model.geoms[geom], features_[2 * k + side], pose_of(model, at, geom), point, outward, gap,
                              surface)) {
        const Vec3T<T> n = side == 0 ? outward : Vec3T<T>(-outward);
        if (n.dot(c0.normal_W) >= T(0.5)) {  // turned further within one step: keep the q- estimate
          const QuatT<T> turn = QuatT<T>::FromTwoVectors(c0.normal_W, n);
          ck.normal_W = n;
          ck.tangent1_W = turn * c0.tangent1_W;
          ck.tangent2_W = turn * c0.tangent2_W;
          ck.gap = gap;
          ck.point_W = T(0.5) * (point + surface);
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
      const QuatT<T> turn = at.q[body] * face_rotation_at_base_[2 * k + side].conjugate();
      const Vec3T<T> n = turn * c0.normal_W;
      const Vec3T<T> p1 = feature_at_base_[2 * k] + d1, p2 = feature_at_base_[2 * k + 1] + d2;
      // The feature points at base are gap0 apart along n0; their offset in the
      // tangent plane carries over, so the gap is measured along the turned n.
      const Vec3T<T> offset0 = feature_at_base_[2 * k + 1] - feature_at_base_[2 * k];
      ck.normal_W = n;
      ck.tangent1_W = turn * c0.tangent1_W;
      ck.tangent2_W = turn * c0.tangent2_W;
      ck.gap = c0.gap + n.dot(p2 - p1) - c0.normal_W.dot(offset0);
      break;
    }
    place_at_mid_gap();
  }
}

template class ContactMotionT<Real>;
template void ContactMotionT<Dual>::capture(const Model&, const BodyStatesT<Dual>&, const std::vector<ContactT<Dual>>&);
template void ContactMotionT<Dual>::evaluate(const Model&, const BodyStatesT<Dual>&, std::vector<ContactT<Dual>>&) const;

}  // namespace contactlab
