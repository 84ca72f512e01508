// A contact-free point mass for the optimiser tests: a 2 kg sphere on a free
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
  const std::string xml = R"(<mujoco model="point_mass">
  <option timestep="0.01" gravity="0 0 0"/>
  <worldbody>
    <body name="mass" pos="0 0 1">
      <freejoint name="free"/>
      <geom name="ball" type="sphere" size="0.05" mass="2"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="fx" joint="free" gear="1 0 0 0 0 0" ctrllimited="true" ctrlrange="-50 50"/>
    <motor name="fy" joint="free" gear="0 1 0 0 0 0" ctrllimited="true" ctrlrange="-50 50"/>
  </actuator>
</mujoco>)";
  return std::make_shared<const Model>(load_mjcf_string(xml, "point_mass"));
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
