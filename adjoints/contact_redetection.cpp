#include "adjoints/contact_redetection.hpp"

#include <limits>

#include "core/assembly.hpp"
#include "geometry/collision.hpp"

namespace contactlab {

void ContactRedetection::capture(const Model& model, const Data& base, Real margin) {
  margin_ = margin;
  motion.options.turn_face_normals = true;
  motion.options.refresh_friction = true;
  motion.options.point_at_mid_gap = true;
  motion.capture(model, base);
}

bool ContactRedetection::evaluate(const Model& model, Data& at) {
  motion.evaluate(model, at, predicted_);
  detect_contacts(model, at, margin_);
  const size_t n = predicted_.size();
  bool matched = at.contacts.size() == n;
  // Pairs whose routine searches or samples keep the prediction (their points
  // move in steps of the search's resolution).
  for (size_t k = 0; k < n && matched; ++k)
    matched = pair_closed_form(model.geoms[predicted_[k].geom1].type, model.geoms[predicted_[k].geom2].type);
  if (matched) {
    found_ = at.contacts;
    used_.assign(n, 0);
    for (size_t k = 0; k < n && matched; ++k) {
      const Contact& p = predicted_[k];
      size_t best = n;
      Real best_distance = std::numeric_limits<Real>::infinity();
      for (size_t j = 0; j < n; ++j) {
        if (used_[j] || found_[j].geom1 != p.geom1 || found_[j].geom2 != p.geom2) continue;
        const Real d = (found_[j].point_W - p.point_W).norm();
        if (d < best_distance) {
          best_distance = d;
          best = j;
        }
      }
      matched = best < n && best_distance <= match_distance;
      if (matched) {
        used_[best] = 1;
        at.contacts[k] = found_[best];
      }
    }
  }
  if (!matched) at.contacts = predicted_;
  return matched;
}

}  // namespace contactlab
