#include "adjoints/contact_redetection.hpp"

#include <algorithm>
#include <limits>

#include "geometry/collision.hpp"
#include "schemes/assembly.hpp"

namespace contactlab {

void ContactRedetection::capture(const Model& model, const Data& base, Real margin) {
  margin_ = margin;
  motion.options.turn_face_normals = true;
  motion.options.refresh_friction = true;
  motion.options.point_at_mid_gap = true;
  motion.capture(model, base);
  base_ = base.contacts;
  pairs_.clear();
  for (const Contact& c : base.contacts)
    if (std::find(pairs_.begin(), pairs_.end(), std::make_pair(c.geom1, c.geom2)) == pairs_.end())
      pairs_.emplace_back(c.geom1, c.geom2);
}

bool ContactRedetection::evaluate(const Model& model, Data& at) {
  motion.evaluate(model, at, predicted_);
  at.contacts = predicted_;
  bool all_matched = true;
  for (const auto& [i, j] : pairs_) {
    const Geom& gi = model.geoms[i];
    const Geom& gj = model.geoms[j];
    // Pairs whose routine searches or samples keep the prediction (their
    // points move in steps of the search's resolution).
    if (!pair_closed_form(gi.type, gj.type)) {
      all_matched = false;
      continue;
    }
    // The narrow phase on this pair, as detect_contacts runs it.
    GeomPose pi, pj;
    geom_world_pose(model, at, i, pi.pos_W, pi.R_WG);
    geom_world_pose(model, at, j, pj.pos_W, pj.R_WG);
    found_.clear();
    collide_geoms(gi, pi, i, gj, pj, j, margin_ + std::max(gi.margin, gj.margin), found_);
    // Each recorded contact of the pair takes the nearest found one, one to one.
    size_t recorded = 0;
    for (const Contact& p : predicted_) recorded += p.geom1 == i && p.geom2 == j;
    bool matched = found_.size() == recorded;
    used_.assign(found_.size(), 0);
    pick_.clear();
    for (size_t k = 0; k < predicted_.size() && matched; ++k) {
      if (predicted_[k].geom1 != i || predicted_[k].geom2 != j) continue;
      size_t best = found_.size();
      Real best_distance = std::numeric_limits<Real>::infinity();
      for (size_t f = 0; f < found_.size(); ++f) {
        const Real d = (found_[f].point_W - predicted_[k].point_W).norm();
        if (!used_[f] && d < best_distance) {
          best_distance = d;
          best = f;
        }
      }
      matched = best < found_.size() && best_distance <= match_distance;
      if (matched) {
        used_[best] = 1;
        pick_.push_back(k);
        pick_.push_back(best);
      }
    }
    if (!matched) {
      all_matched = false;
      continue;  // this pair keeps the prediction
    }
    for (size_t t = 0; t < pick_.size(); t += 2) at.contacts[pick_[t]] = found_[pick_[t + 1]];
  }
  return all_matched;
}

}  // namespace contactlab
