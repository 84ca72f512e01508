// Contact features (geometry/contact_feature.hpp): how a contact's surface
// point follows its geom through a large step, checked against the exact
// geometry, the exponential map's derivative against finite differences, and
// ContactMotion's point against the narrow phase's.
#include <doctest/doctest.h>

#include <cmath>

#include <string>
#include <vector>

#include "core/math.hpp"
#include "geometry/contact_feature.hpp"
#include "geometry/contact_motion.hpp"
#include "io/mjcf.hpp"
#include "schemes/assembly.hpp"

using namespace contactlab;

namespace {

Geom make(GeomType type, const Vec3& size) {
  Geom g;
  g.type = type;
  g.size = size;
  return g;
}

// A wheel: cylinder of radius 0.35, half-width 0.05, axis along world y.
GeomPose wheel_pose(const Vec3& centre, Real spin) {
  GeomPose p;
  p.pos_W = centre;
  const Mat3 axis_to_y = Eigen::AngleAxis<Real>(M_PI / 2, Vec3::UnitX()).toRotationMatrix();  // z -> -y
  p.R_WG = Eigen::AngleAxis<Real>(spin, Vec3::UnitY()).toRotationMatrix() * axis_to_y;
  return p;
}

}  // namespace

TEST_CASE("contact feature: a rolling wheel keeps its contact at the bottom, a carried point would lift") {
  const Geom wheel = make(GeomType::Cylinder, Vec3(0.35, 0.05, 0));
  const Vec3 outward(0, 0, -1);  // the wheel touches the floor below it
  const GeomPose before = wheel_pose(Vec3(0, 0, 0.35), 0);
  const Vec3 bottom(0, 0.05, 0);  // rim point at one end of the line contact
  const ContactFeature f = contact_feature(wheel, before, bottom, outward);
  REQUIRE(f.kind == ContactFeature::Kind::Rim);
  CHECK((feature_point(wheel, f, before, outward) - bottom).norm() < 1e-12);
  // Rolled 1 rad forward (0.35 m): the support point is again at floor level,
  // under the new centre, at the same axial position.
  const GeomPose after = wheel_pose(Vec3(0.35, 0, 0.35), 1.0);
  const Vec3 p = feature_point(wheel, f, after, outward);
  CHECK(p.x() == doctest::Approx(0.35));
  CHECK(p.y() == doctest::Approx(0.05));
  CHECK(std::abs(p.z()) < 1e-12);
  // Guard: the material point carried with the wheel rises by r (1 - cos 1) = 0.161 m.
  const Vec3 carried = after.pos_W + after.R_WG * (before.R_WG.transpose() * (bottom - before.pos_W));
  CHECK(carried.z() == doctest::Approx(0.35 * (1 - std::cos(1.0))));
}

TEST_CASE("contact feature: spheres and capsules use their support point, boxes and caps their material point") {
  const Vec3 down(0, 0, -1);
  const Geom ball = make(GeomType::Sphere, Vec3(0.1, 0, 0));
  GeomPose pose;
  pose.pos_W = Vec3(0, 0, 0.1);
  const ContactFeature fb = contact_feature(ball, pose, Vec3::Zero(), down);
  CHECK(fb.kind == ContactFeature::Kind::Round);
  GeomPose turned = pose;
  turned.pos_W = Vec3(0.3, 0, 0.1);
  turned.R_WG = Eigen::AngleAxis<Real>(2.0, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  CHECK((feature_point(ball, fb, turned, down) - Vec3(0.3, 0, 0)).norm() < 1e-12);

  // Capsule lying along x: the contact's axial coordinate is kept.
  const Geom capsule = make(GeomType::Capsule, Vec3(0.05, 0.2, 0));
  GeomPose cap_pose;
  cap_pose.pos_W = Vec3(0, 0, 0.05);
  cap_pose.R_WG = Eigen::AngleAxis<Real>(M_PI / 2, Vec3::UnitY()).toRotationMatrix();  // axis z -> x
  const ContactFeature fc = contact_feature(capsule, cap_pose, Vec3(0.15, 0, 0), down);
  CHECK(fc.kind == ContactFeature::Kind::Round);
  CHECK((feature_point(capsule, fc, cap_pose, down) - Vec3(0.15, 0, 0)).norm() < 1e-12);

  // A box corner on the floor: material, face-aligned normal (not point-like).
  const Geom box = make(GeomType::Box, Vec3(0.1, 0.1, 0.1));
  GeomPose box_pose;
  box_pose.pos_W = Vec3(0, 0, 0.1);
  const ContactFeature fx = contact_feature(box, box_pose, Vec3(0.1, 0.1, 0), down);
  CHECK(fx.kind == ContactFeature::Kind::Material);
  CHECK_FALSE(fx.point_like);
  // The same corner against a normal that leaves every face normal: an edge/corner.
  const ContactFeature fe = contact_feature(box, box_pose, Vec3(0.1, 0.1, 0), Vec3(1, 0, -1).normalized());
  CHECK(fe.point_like);
  // Carried rigidly: turning the box about its centre moves the corner with it.
  GeomPose box_turned = box_pose;
  box_turned.R_WG = Eigen::AngleAxis<Real>(0.3, Vec3::UnitZ()).toRotationMatrix();
  const Vec3 corner = box_turned.pos_W + box_turned.R_WG * Vec3(0.1, 0.1, -0.1);
  CHECK((feature_point(box, fx, box_turned, down) - corner).norm() < 1e-12);

  // A cylinder standing on its cap: n along the axis, the cap point is material.
  const Geom can = make(GeomType::Cylinder, Vec3(0.1, 0.2, 0));
  GeomPose can_pose;
  can_pose.pos_W = Vec3(0, 0, 0.2);
  const ContactFeature fcap = contact_feature(can, can_pose, Vec3(0.1, 0, 0), down);
  CHECK(fcap.kind == ContactFeature::Kind::Material);
}

TEST_CASE("contact feature: a wheel's rim pressed into a box face below its edge is a point, not the rim") {
  // Wheel centre at height 0.4; a rim point 0.9 rad below the front touches a
  // vertical box face with the face's normal (1, 0, 0), which is not the rim's.
  const Geom wheel = make(GeomType::Cylinder, Vec3(0.35, 0.05, 0));
  const GeomPose pose = wheel_pose(Vec3(0.75, 0, 0.4), 0);
  const Vec3 rim_point = pose.pos_W + 0.35 * Vec3(std::sin(0.9), 0, -std::cos(0.9));
  const ContactFeature f = contact_feature(wheel, pose, rim_point, Vec3(1, 0, 0));
  CHECK(f.kind == ContactFeature::Kind::Material);
  CHECK(f.point_like);
  // Where the face normal is the rim's own normal (the rim's front point) it is the rim.
  const ContactFeature front = contact_feature(wheel, pose, pose.pos_W + Vec3(0.35, 0, 0), Vec3(1, 0, 0));
  CHECK(front.kind == ContactFeature::Kind::Rim);
  // Ranks: round 3 > point 2 > face 1 > plane 0.
  CHECK(feature_rank(wheel, front) == 3);
  CHECK(feature_rank(wheel, f) == 2);
  CHECK(feature_rank(make(GeomType::Plane, Vec3::Zero()), ContactFeature{}) == 0);
}

TEST_CASE("contact feature: a wheel against a box edge gets the exact normal and gap") {
  const Geom wheel = make(GeomType::Cylinder, Vec3(0.35, 0.05, 0));
  const GeomPose pose = wheel_pose(Vec3(0.8, 0, 0.4), 0.7);
  const Vec3 edge(1.0, 0.03, 0.144);
  ContactFeature rim;
  rim.kind = ContactFeature::Kind::Rim;
  rim.local_G = Vec3(0, 0, -0.03);  // axial coordinate: the wheel's axis is -y in world
  Vec3 outward, surface;
  Real gap = 0;
  REQUIRE(round_against_point(wheel, rim, pose, edge, outward, gap, surface));
  const Vec3 d(1.0 - 0.8, 0, 0.144 - 0.4);  // from the axis, in the wheel's plane
  CHECK(gap == doctest::Approx(d.norm() - 0.35));
  CHECK((outward - d.normalized()).norm() < 1e-12);
  CHECK((surface - (Vec3(0.8, 0.03, 0.4) + 0.35 * d.normalized())).norm() < 1e-12);
  // Degenerate: the point on the axis has no normal.
  CHECK_FALSE(round_against_point(wheel, rim, pose, Vec3(0.8, 0.5, 0.4), outward, gap, surface));
}

TEST_CASE("so3_left_jacobian is the derivative of integrate_quaternion (central differences)") {
  const Quat q0(Eigen::AngleAxis<Real>(0.4, Vec3(0.3, -1, 0.2).normalized()));
  const Real h = 0.1;
  for (const Vec3& w : {Vec3(0.1, 4.0, -0.2), Vec3(-7, 3, 9), Vec3(1e-8, 0, 0)}) {
    CAPTURE(w.transpose());
    const Mat3 J = so3_left_jacobian(h * w);
    const Quat q = integrate_quaternion(q0, w, h);
    const Real eps = 1e-6;
    for (int i = 0; i < 3; ++i) {
      Vec3 dw = Vec3::Zero();
      dw[i] = eps;
      const Quat qp = integrate_quaternion(q0, w + dw, h), qm = integrate_quaternion(q0, w - dw, h);
      // World-frame rotation between the two perturbed results, per unit of w.
      const Eigen::AngleAxis<Real> turn(qp * qm.conjugate());
      const Vec3 fd = turn.angle() * turn.axis() / (2 * eps);
      CHECK((fd - h * J.col(i)).norm() < 1e-7);
    }
    (void)q;
  }
}

TEST_CASE("contact motion: the point stays midway between the surfaces as the narrow phase puts it") {
  // A ball 5 mm above the floor (contact detected within the margin), moved by
  // (10, 0, 2) mm: the narrow phase's point is midway between the ball's
  // bottom and the floor; ContactMotion with point_at_mid_gap reproduces it,
  // and its default (backward Euler's rows) keeps the point's offset from the
  // ball (1 mm higher): the lever arm the adjoints' pull-back differentiates.
  Model model = load_mjcf_file(std::string(CONTACTLAB_TEST_DATA) + "/impact_ball.xml");
  Data base;
  base.init(model);
  base.x_W[0] = Vec3(0, 0, 0.105);
  detect_contacts(model, base, 0.01);
  REQUIRE(base.contacts.size() == 1);
  CHECK(base.contacts[0].gap == doctest::Approx(0.005));
  Data moved;
  moved.init(model);
  moved.x_W[0] = base.x_W[0] + Vec3(0.01, 0, 0.002);
  detect_contacts(model, moved, 0.01);
  REQUIRE(moved.contacts.size() == 1);
  for (bool mid : {true, false}) {
    CAPTURE(mid);
    ContactMotion motion;
    motion.options.point_at_mid_gap = mid;
    motion.capture(model, base);
    std::vector<Contact> out;
    motion.evaluate(model, moved, out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].gap == doctest::Approx(moved.contacts[0].gap).epsilon(1e-12));
    const Real dz = out[0].point_W.z() - moved.contacts[0].point_W.z();
    CHECK(std::abs(out[0].point_W.x() - moved.contacts[0].point_W.x()) < 1e-12);
    if (mid)
      CHECK(std::abs(dz) < 1e-12);
    else
      CHECK(dz == doctest::Approx(0.001).epsilon(1e-9));
  }
}

TEST_CASE("contact motion: between round bodies the normal runs between the centres, as the narrow phase's") {
  // Sphere-sphere and capsule-sphere contacts captured, the bodies then moved
  // sideways and turned: ContactMotion's normal, gap and point against the
  // narrow phase's at the new poses.
  for (const char* file : {"/balls_oblique.xml", "/capsule_ball.xml"}) {
    CAPTURE(file);
    Model model = load_mjcf_file(std::string(CONTACTLAB_TEST_DATA) + file);
    Data base, moved;
    base.init(model);
    moved.init(model);
    base.x_W[0] = Vec3(0.12, 0.0, 0.0);  // within the margin of b, not touching
    detect_contacts(model, base, 0.05);
    REQUIRE(base.contacts.size() == 1);
    moved.x_W[0] = base.x_W[0] + Vec3(0.01, -0.02, 0.015);
    moved.q_WB[0] = integrate_quaternion(base.q_WB[0], Vec3(0.1, 0.2, -0.1), 1.0);
    moved.x_W[1] = base.x_W[1] + Vec3(-0.005, 0.01, 0.0);
    detect_contacts(model, moved, 0.05);
    REQUIRE(moved.contacts.size() == 1);
    ContactMotion motion;
    motion.capture(model, base);
    std::vector<Contact> out;
    motion.evaluate(model, moved, out);
    const Contact& want = moved.contacts[0];
    CHECK((out[0].normal_W - want.normal_W).norm() < 1e-12);
    CHECK(out[0].gap == doctest::Approx(want.gap).epsilon(1e-12));
    CHECK((out[0].point_W - want.point_W).norm() < 1e-12);
    // Guard: the captured normal differs by the turn.
    CHECK((base.contacts[0].normal_W - want.normal_W).norm() > 1e-2);
  }
}
