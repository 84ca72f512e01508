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
// tests/geometry/test_contact_motion.cpp), and so did the gradients.
//
// Only the recorded contacts' geom pairs are rerun, pair by pair (a contact
// of another pair appearing would change the set; the step's contacts are
// kept). Matching: nearest to ContactMotion's prediction within
// match_distance, one to one. Where a pair's set differs (a contact appears
// or vanishes at the margin, a manifold keeps other corners) or its routine
// is not closed form, that pair's contacts are the prediction.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "core/data.hpp"
#include "core/dual.hpp"
#include "core/kinematics.hpp"
#include "core/model.hpp"
#include "geometry/collision.hpp"
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
  // The captured contacts in dual numbers at the dual poses `s` (values: the
  // base poses): the closed-form narrow phase rerun in dual numbers, its
  // contacts taken in emission order (that of the recorded ones, checked to
  // 1e-10 m: the values agree with the double run up to rounding). A pair
  // whose routine searches or samples, or whose rerun does not reproduce the
  // recorded contacts, gets its tangents from `difference(sign)`: the
  // contacts (double) at the poses moved by +-eps along the seed, divided by
  // 2 eps by the caller's choice of eps. Returns false where that happened.
  template <class Difference>
  bool evaluate_dual(const Model& model, const BodyStatesT<Dual>& s, Real eps, Difference&& difference,
                     std::vector<ContactT<Dual>>& out);

  ContactMotion motion;       // the predictor (and the fallback)
  Real match_distance = 1e-4; // m; contacts of one manifold lie further apart

 private:
  Real margin_ = 0;
  std::vector<std::pair<int, int>> pairs_;  // distinct (geom1, geom2) of the recorded contacts
  std::vector<Contact> predicted_, found_;
  std::vector<char> used_;
  std::vector<size_t> pick_;  // (recorded index, found index) pairs of one geom pair
  std::vector<Contact> base_;  // the recorded contacts
  std::vector<ContactT<Dual>> found_dual_;
  std::vector<Contact> plus_, minus_;
};

template <class Difference>
bool ContactRedetection::evaluate_dual(const Model& model, const BodyStatesT<Dual>& s, Real eps,
                                       Difference&& difference, std::vector<ContactT<Dual>>& out) {
  const size_t n = base_.size();
  out.resize(n);
  std::vector<char> done(n, 0);
  bool exact = true;
  for (const auto& [i, j] : pairs_) {
    const Geom& gi = model.geoms[i];
    const Geom& gj = model.geoms[j];
    if (!pair_closed_form(gi.type, gj.type)) continue;
    GeomPoseT<Dual> pi, pj;
    geom_world_pose_t<Dual>(model, s, i, pi.pos_W, pi.R_WG);
    geom_world_pose_t<Dual>(model, s, j, pj.pos_W, pj.R_WG);
    found_dual_.clear();
    collide_geoms_t<Dual>(gi, pi, i, gj, pj, j, margin_ + std::max(gi.margin, gj.margin), found_dual_);
    // The recorded contacts of this pair, in order; the rerun must reproduce them.
    size_t f = 0;
    bool same = true;
    for (size_t k = 0; k < n && same; ++k) {
      if (base_[k].geom1 != i || base_[k].geom2 != j) continue;
      // Equal up to rounding (Eigen vectorises double arithmetic, not Dual's:
      // the last bits may differ); manifold points lie >= 1e-5 m apart.
      same = f < found_dual_.size() && std::abs(value_of(found_dual_[f].gap) - base_[k].gap) <= 1e-12 &&
             (found_dual_[f].point_W - base_[k].point_W.template cast<Dual>()).norm().v <= 1e-10;
      ++f;
    }
    same = same && f == found_dual_.size();
    if (!same) continue;
    f = 0;
    for (size_t k = 0; k < n; ++k) {
      if (base_[k].geom1 != i || base_[k].geom2 != j) continue;
      out[k] = found_dual_[f++];
      done[k] = 1;
    }
  }
  // The rest: central differences of the double contacts along the seed.
  bool any = false;
  for (size_t k = 0; k < n; ++k) any = any || !done[k];
  if (!any) return true;
  exact = false;
  difference(+1, plus_);
  difference(-1, minus_);
  auto dual3 = [&](const Vec3& v, const Vec3& p, const Vec3& m) {
    Vec3T<Dual> out3;
    for (int c = 0; c < 3; ++c) out3[c] = Dual(v[c], (p[c] - m[c]) / (2 * eps));
    return out3;
  };
  for (size_t k = 0; k < n; ++k) {
    if (done[k]) continue;
    const Contact& b = base_[k];
    ContactT<Dual>& c = out[k];
    c.geom1 = b.geom1;
    c.geom2 = b.geom2;
    c.body1 = b.body1;
    c.body2 = b.body2;
    c.point_W = dual3(b.point_W, plus_[k].point_W, minus_[k].point_W);
    c.normal_W = dual3(b.normal_W, plus_[k].normal_W, minus_[k].normal_W);
    c.tangent1_W = dual3(b.tangent1_W, plus_[k].tangent1_W, minus_[k].tangent1_W);
    c.tangent2_W = dual3(b.tangent2_W, plus_[k].tangent2_W, minus_[k].tangent2_W);
    c.gap = Dual(b.gap, (plus_[k].gap - minus_[k].gap) / (2 * eps));
    c.friction = Dual(b.friction);
  }
  return exact;
}

}  // namespace contactlab
