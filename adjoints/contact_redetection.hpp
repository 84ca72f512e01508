// The contacts a step's forward pass would find at perturbed poses, for the
// position pull-back: the narrow phase rerun there (what the forward does at
// every step), each contact matched to the recorded one it continues, so that
// differences of the step's data are derivatives of the forward's geometry.
//
// Why not ContactMotion alone: carrying features with their bodies agrees
// with the narrow phase to first order only for some pairs (plane contacts,
// sphere-sphere, sphere-capsule); for others (capsule-capsule, sphere or
// capsule against a box, cylinder pairs, some box-box manifolds) its normal
// and point moved at a different rate (measured in
// tests/test_contact_motion.cpp), and so did the gradients.
//
// Only the recorded contacts' geom pairs are rerun, pair by pair (a contact
// of another pair appearing would change the set; the step's contacts are
// kept). Matching: nearest to ContactMotion's prediction within
// match_distance, one to one. Where a pair's set differs (a contact appears
// or vanishes at the margin, a manifold keeps other corners) or its routine
// is not closed form, that pair's contacts are the prediction.
#pragma once

#include <utility>
#include <vector>

#include "core/data.hpp"
#include "core/model.hpp"
#include "geometry/contact_motion.hpp"

namespace contactlab {

class ContactRedetection {
 public:
  // Records the step's contacts (base.contacts at base's poses). margin: the
  // forward scheme's contact margin.
  void capture(const Model& model, const Data& base, Real margin);
  // at.contacts <- the contacts at at's poses, in the captured order. Returns
  // false where some contacts kept the prediction (a pair's set changed, or
  // its routine is not closed form).
  bool evaluate(const Model& model, Data& at);

  ContactMotion motion;       // the predictor (and the fallback)
  Real match_distance = 1e-4; // m; contacts of one manifold lie further apart

 private:
  Real margin_ = 0;
  std::vector<std::pair<int, int>> pairs_;  // distinct (geom1, geom2) of the recorded contacts
  std::vector<Contact> predicted_, found_;
  std::vector<char> used_;
  std::vector<size_t> pick_;  // (recorded index, found index) pairs of one geom pair
};

}  // namespace contactlab
