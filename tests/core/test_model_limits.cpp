// core/model_limits.hpp: the bounds at their edges, and Model::validate
// applying them to any model (not only to MJCF files).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/model.hpp"
#include "core/model_limits.hpp"

using namespace contactlab;

namespace {

bool accepted(const Range& r, Real v) { return range_violation(r, v).empty(); }

// One free box on nothing: the smallest valid moving model.
Model one_body() {
  Model m;
  Body b;
  b.name = "box";
  b.mass = 1;
  b.inertia_B = Mat3::Identity() * 0.1;
  m.bodies.push_back(b);
  Joint j;
  j.type = JointType::Free;
  j.body = 0;
  m.joints.push_back(j);
  m.nq = 7;
  m.nv = 6;
  return m;
}

std::string why_invalid(const Model& m) {
  try {
    m.validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("model limits: each bound accepts its edge and refuses just beyond it") {
  const Real inf = std::numeric_limits<Real>::infinity(), nan = std::nan("");
  struct Edge {
    const char* name;
    Range range;
    Real largest_accepted, smallest_refused_above, smallest_accepted, largest_refused_below;
  };
  const Edge edges[] = {
      {"position", limits::kPosition, 1e6, std::nextafter(1e6, inf), -1e6, std::nextafter(-1e6, -inf)},
      {"mass", limits::kMass, 1e9, std::nextafter(1e9, inf), 1e-9, std::nextafter(1e-9, 0.0)},
      {"gravity", limits::kGravity, 1e4, std::nextafter(1e4, inf), -1e4, std::nextafter(-1e4, -inf)},
      {"time step", limits::kTimeStep, 1, std::nextafter(1.0, 2.0), 1e-9, std::nextafter(1e-9, 0.0)},
      {"speed", limits::kSpeed, 1e6, std::nextafter(1e6, inf), -1e6, std::nextafter(-1e6, -inf)},
      {"gain", limits::kGain, 1e12, std::nextafter(1e12, inf), 0, -std::numeric_limits<Real>::denorm_min()},
      {"gear", limits::kGear, 1e6, std::nextafter(1e6, inf), -1e6, std::nextafter(-1e6, -inf)},
      {"control", limits::kControl, 1e9, std::nextafter(1e9, inf), -1e9, std::nextafter(-1e9, -inf)},
      {"size", limits::kSize, 1e6, std::nextafter(1e6, inf), std::nextafter(0.0, 1.0), 0},
      {"friction", limits::kFriction, 1e3, std::nextafter(1e3, inf), 0, -std::numeric_limits<Real>::denorm_min()},
      {"inertia", limits::kInertiaDiagonal, 1e15, std::nextafter(1e15, inf), 0, std::nextafter(0.0, -1.0)},
      {"duration", limits::kDuration, 1e6, std::nextafter(1e6, inf), 0, std::nextafter(0.0, -1.0)},
  };
  for (const Edge& e : edges) {
    CAPTURE(e.name);
    CHECK(accepted(e.range, e.largest_accepted));
    CHECK(!accepted(e.range, e.smallest_refused_above));
    CHECK(accepted(e.range, e.smallest_accepted));
    CHECK(!accepted(e.range, e.largest_refused_below));
    CHECK(!accepted(e.range, nan));
    CHECK(!accepted(e.range, inf));
    CHECK(!accepted(e.range, -inf));
    CHECK(!accepted(e.range, 1e308));
  }
  CHECK(range_violation(limits::kMass, 1e308) == "must be finite and in [1e-09, 1e+09] kg, got 1e+308");
  CHECK(range_violation(limits::kSize, 0) == "must be finite and in (0, 1e+06] m, got 0");
  CHECK(range_violation(limits::kPosition, Vec3(0, 2e6, 0)).rfind("[1] must be finite", 0) == 0);
}

TEST_CASE("model limits: the inertia triangle inequality") {
  CHECK(inertia_triangle_violation(Vec3(1, 1, 2).asDiagonal().toDenseMatrix()).empty());  // the edge: a flat disc
  CHECK(inertia_triangle_violation(Vec3(1, 1, 2.0000001).asDiagonal().toDenseMatrix()).empty());  // rounding
  CHECK(!inertia_triangle_violation(Vec3(1, 1, 2.01).asDiagonal().toDenseMatrix()).empty());
  CHECK(!inertia_triangle_violation(Vec3(1, 1, 3).asDiagonal().toDenseMatrix()).empty());
}

TEST_CASE("model limits: Model::validate refuses out-of-range values of any model, naming the element") {
  CHECK(why_invalid(one_body()).empty());
  Model m = one_body();
  m.bodies[0].mass = 1e308;
  CHECK(why_invalid(m).find("body 0 'box': mass must be finite") != std::string::npos);
  m = one_body();
  m.bodies[0].pos0_W = Vec3(1e308, 0, 0);
  CHECK(why_invalid(m).find("body 0 'box': position[0]") != std::string::npos);
  m = one_body();
  m.options.gravity = Vec3(0, 0, 1e5);
  CHECK(why_invalid(m).find("option: gravity[2]") != std::string::npos);
  m = one_body();
  m.options.timestep = 2;
  CHECK(why_invalid(m).find("option: timestep") != std::string::npos);
  m = one_body();
  m.bodies[0].inertia_B = Vec3(0.1, 0.1, 0.3).asDiagonal();
  CHECK(why_invalid(m).find("triangle inequality") != std::string::npos);
  m = one_body();
  Keyframe k;
  k.qpos = {0, 0, 0, 1, 0, 0, 0};
  k.qvel = {1e300, 0, 0, 0, 0, 0};
  m.keyframes.push_back(k);
  CHECK(why_invalid(m).find("qvel must be finite") != std::string::npos);
}

TEST_CASE("model limits: a moving body lighter than the mass bound is refused") {
  Model m = one_body();
  m.bodies[0].mass = 1e-300;
  CHECK(why_invalid(m).find("body 0 'box': mass must be finite and in [1e-09, 1e+09] kg, got 1e-300") !=
        std::string::npos);
  m.bodies[0].mass = 1e-9;
  m.bodies[0].inertia_B = Mat3::Identity() * 1e-12;
  CHECK(why_invalid(m).empty());
}
