// A contact-free point mass for the optimiser tests (tests/data/point_mass.xml,
// which the Python tests read too): a 2 kg sphere on a free
// joint, no gravity and nothing to touch, pushed by world-frame motors fx,
// fy (ctrlrange +-50 N) at h = 0.01 s. The velocity scheme's step is then
// exactly semi-implicit Euler, v+ = v + h u / m, x+ = x + h v+, so from
// rest  x_T = x_0 + (h^2 / m) sum_t (T - t) u_t  (the tests' analytic reference).
#pragma once

#include <memory>
#include <string>

#include "io/mjcf.hpp"
#include "sim/rollout_setup.hpp"

namespace contactlab {
namespace test {

constexpr double kPointMass = 2.0;  // kg
constexpr double kPointMassStep = 0.01;  // s

inline std::shared_ptr<const Model> point_mass_model() {
  return std::make_shared<const Model>(load_mjcf_file(std::string(CONTACTLAB_TEST_DATA) + "/point_mass.xml"));
}

inline RolloutSpec point_mass_spec(long steps) {
  RolloutSpec spec;
  spec.scene = "point_mass";
  spec.model = point_mass_model();
  spec.steps = steps;
  return spec;
}

}  // namespace test
}  // namespace contactlab
