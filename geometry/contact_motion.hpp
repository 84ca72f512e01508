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
#include "core/kinematics.hpp"
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

// Over any scalar T (ContactMotion: T = Real; dual numbers in the exact
// pull-back of backward Euler). Instantiated for Real and Dual.
template <class T>
class ContactMotionT {
 public:
  // Records the features of `contacts` at the poses `base`.
  void capture(const Model& model, const BodyStatesT<T>& base, const std::vector<ContactT<T>>& contacts);
  // Contacts at the poses `at` (same count and order as the captured ones).
  void evaluate(const Model& model, const BodyStatesT<T>& at, std::vector<ContactT<T>>& out) const;
  // Data's poses and contacts (T = Real).
  void capture(const Model& model, const Data& base) { capture(model, body_states(base), base.contacts); }
  void evaluate(const Model& model, const Data& at, std::vector<ContactT<T>>& out) const {
    evaluate(model, body_states(at), out);
  }
  ContactMotionOptions options;

 private:
  Vec3T<T> displacement(const Model& model, const BodyStatesT<T>& at, size_t k, int side) const;
  std::vector<ContactT<T>> base_;                 // contacts at capture
  std::vector<ContactFeatureT<T>> features_;      // 2 per contact: geom1, geom2
  std::vector<Vec3T<T>> feature_at_base_;         // feature points at capture
  std::vector<QuatT<T>> face_rotation_at_base_;   // 2 per contact: rotation of each side's body at capture
};
using ContactMotion = ContactMotionT<Real>;

}  // namespace contactlab
