#include "studies/kim_cito_tasks.hpp"

#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "io/mjcf.hpp"

namespace contactlab {

namespace {

constexpr Real kContactGap = 1e-3;  // m: "touching" for the mode labels
constexpr Real kStickSpeed = 1e-3;  // m/s

std::string point_mass_xml(Real gravity, Real z0, Real vx0, Real fx_max) {
  std::ostringstream x;
  x << R"(<mujoco model="kim_point_mass">
  <option timestep="0.05" gravity="0 0 )" << -gravity << R"("/>
  <worldbody>
    <geom name="floor" type="plane" size="10 10 0.1" friction="0.8"/>
    <body name="mass" pos="0 0 )" << z0 << R"(">
      <freejoint name="free"/>
      <inertial pos="0 0 0" mass="1" diaginertia="100 100 100"/>
      <geom name="ball" type="sphere" size="0.05" friction="0.8"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="fx" joint="free" gear="1 0 0 0 0 0" ctrllimited="true" ctrlrange=")"
    << -fx_max << " " << fx_max << R"("/>
    <motor name="fz" joint="free" gear="0 0 1 0 0 0" ctrllimited="true" ctrlrange="-30 30"/>
  </actuator>
  <keyframe>
    <key name="start" qpos="0 0 )" << z0 << R"( 1 0 0 0" qvel=")" << vx0 << R"( 0 0 0 0 0"/>
  </keyframe>
</mujoco>)";
  return x.str();
}

}  // namespace

const std::vector<std::string>& cito_task_names() {
  static const std::vector<std::string> names = {"lift_off", "traverse", "braking"};
  return names;
}

CitoTask make_cito_task(const std::string& name) {
  CitoTask task;
  task.name = name;
  Real gravity = 9.81, z0 = 0.05, vx0 = 0, fx_max = 30;
  Vec3 offset = Vec3::Zero();  // target - start
  if (name == "lift_off") {
    offset = Vec3(0, 0, 0.5);
  } else if (name == "traverse") {
    offset = Vec3(0.5, 0, 0);
  } else if (name == "braking") {
    gravity = 0;
    z0 = 0.07;
    vx0 = 1;
    fx_max = 1;
  } else {
    throw std::invalid_argument("task '" + name + "': expected lift_off, traverse or braking");
  }
  task.spec.scene = "kim_point_mass";
  task.spec.model = std::make_shared<const Model>(load_mjcf_string(point_mass_xml(gravity, z0, vx0, fx_max), "kim"));
  task.spec.steps = 30;
  task.spec.keyframe = "start";
  task.spec.sets = {"scheme.contact_margin=0.1"};
  // Position error weighted 1 per step, 100 at the end, final velocity 1,
  // controls 1e-3 (STUDIES.md's suggestion; TrackingCost halves each term).
  VecX q = VecX::Zero(12), qf = VecX::Zero(12);
  q.segment<3>(0).setConstant(1.0);
  qf.segment<3>(0).setConstant(100.0);
  qf.segment<3>(6).setConstant(1.0);
  task.cost.Q = q.asDiagonal();
  task.cost.Qf = qf.asDiagonal();
  task.cost.R = 1e-3 * MatX::Identity(2, 2);
  RigidState target;
  target.x = Vec3(0, 0, z0) + offset;
  target.q = Quat::Identity();
  target.v = Vec3::Zero();
  target.w = Vec3::Zero();
  task.cost.target = {target};
  return task;
}

std::vector<std::string> cito_contact_modes(const CitoTask& task, const Trajectory& tr) {
  std::vector<std::string> modes;
  for (size_t t = 1; t < tr.x.size(); ++t) {
    const RigidState& s = tr.x[t][0];
    if (s.x.z() - task.radius > kContactGap)
      modes.emplace_back("free");
    else
      modes.emplace_back(std::abs(s.v.x()) < kStickSpeed ? "stick" : "slide");
  }
  return modes;
}

}  // namespace contactlab
