// The contacts of one step, carried to nearby poses of the bodies without
// rerunning the narrow phase: the contact set and pairing stay, each side's
// surface point follows its feature (contact_feature.hpp), gaps change by the
// features' relative displacement along the normal.
//
// Used by backward Euler (rows at q+ within the step) and by the adjoints (the
// position pull-back differentiates the contacts through this local model, in
// which the narrow phase's result is smooth).
#pragma once

#include <vector>

#include "core/data.hpp"
#include "core/model.hpp"
#include "geometry/contact_feature.hpp"

namespace contactlab {

struct ContactMotionOptions {
  // A face of a moving body (box face, cylinder cap) against a point or round
  // feature: the normal turns with the face's body. Backward Euler keeps the
  // q- normal (a choice measured on wheeled_pallet, docs/solvers.md); the
  // adjoints turn it, as the narrow phase's normal does.
  bool turn_face_normals = false;
  // Contact friction follows the geoms' (the larger of the two, as the narrow phase).
  bool refresh_friction = false;
  // The point stays midway between the two surfaces as the gap changes, as
  // the narrow phase places it (the adjoints' pull-back: the lever arm of an
  // impulse at a contact detected before touching moves by half the change of
  // gap). Backward Euler's rows keep it at its offset from the better located
  // surface instead (otherwise the slip velocity at the point would depend on
  // the normal motion).
  bool point_at_mid_gap = false;
};

class ContactMotion {
 public:
  // Records the features of `base.contacts` at base's poses.
  void capture(const Model& model, const Data& base);
  // Contacts at `at`'s body poses (same count and order as the captured ones).
  void evaluate(const Model& model, const Data& at, std::vector<Contact>& out) const;
  ContactMotionOptions options;

 private:
  Vec3 displacement(const Model& model, const Data& at, size_t k, int side) const;
  std::vector<Contact> base_;                 // contacts at capture
  std::vector<ContactFeature> features_;      // 2 per contact: geom1, geom2
  std::vector<Vec3> feature_at_base_;         // feature points at capture
  std::vector<Quat> face_rotation_at_base_;   // 2 per contact: rotation of each side's body at capture
};

}  // namespace contactlab
