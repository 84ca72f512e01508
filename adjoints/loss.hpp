// A loss on the final state of a rollout (`contactlab grad --loss LOSS`).
//
// LOSS is a sum of terms separated by '+', each optionally scaled:
//   final:BODY.FIELD          FIELD in px py pz vx vy vz wx wy wz, as the
//                             trajectory CSV reports them: the body frame's
//                             origin, its velocity, the world angular velocity
//   sumsq:BODY.pos=X,Y,Z      squared distance of the origin to a target
//   sumsq:BODY.vel=X,Y,Z,     the same for the origin's velocity and the
//   sumsq:BODY.angvel=X,Y,Z   angular velocity (0,0,0: a penalty on speed)
//   final:site.NAME.FIELD,    the same for a site (MJCF <site>, Model::sites):
//   sumsq:site.NAME.pos=...   its point, that point's velocity, its body's
//                             angular velocity. A body named "site.NAME"
//                             takes precedence over the site NAME.
//   2.5*final:box.px          a scaled term (the scale may be negative, 1e+3 ok)
// Parse errors name the term and what was expected (std::invalid_argument).
#pragma once

#include <string>
#include <vector>

#include "core/data.hpp"
#include "core/model.hpp"
#include "core/step_adjoint.hpp"

namespace contactlab {

struct LossTerm {
  enum class Kind { Final, SumSq };
  Kind kind = Kind::Final;
  Real scale = 1;
  int body = -1;               // -1: a site on the world (a constant)
  int site = -1;               // the site named, or -1 for the body's origin
  Vec3 point_B = Vec3::Zero(); // the point in the body frame: its origin, or the site
  int field = 0;               // Final: 0..8 for px..wz; SumSq: 0 pos, 3 vel, 6 angvel
  Vec3 target = Vec3::Zero();  // SumSq
  std::string text;            // as written
};

class Loss {
 public:
  static Loss parse(const std::string& spec, const Model& model);
  Real value(const Model& model, const Data& data) const;
  // dL/d(state) per body (size num_bodies), added to `out`.
  void add_gradient(const Model& model, const Data& data, std::vector<BodyCotangent>& out) const;
  const std::vector<LossTerm>& terms() const { return terms_; }

 private:
  std::vector<LossTerm> terms_;
};

// Index of px..wz in "px py pz vx vy vz wx wy wz", or -1.
int state_field_index(const std::string& field);

}  // namespace contactlab
