// iLQR through contact (optimizers/ilqr.hpp) with the backward pass's
// sensitivity kinds (Kim et al.'s lift-off task in miniature): a 1 kg
// sphere resting on the floor (gravity 9.81, mu 0.8), pushed by world-frame
// motors fx, fz (+-30 N), 30 steps of 50 ms from zero control, target 0.5 m
// above its start. Resting, the mass is clamped: the exact sensitivity of
// its height to fz is zero (the normal impulse absorbs a small push), so
// iLQR with the exact gradient cannot leave the ground; the central-path
// relaxation gives a non-zero sensitivity and lifts it off.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

#include "io/mjcf.hpp"
#include "optimizers/ilqr.hpp"

using namespace contactlab;

namespace {

RolloutSpec resting_sphere() {
  const std::string xml = R"(<mujoco model="resting_sphere">
  <option timestep="0.05" gravity="0 0 -9.81"/>
  <worldbody>
    <geom name="floor" type="plane" size="10 10 0.1" friction="0.8"/>
    <body name="mass" pos="0 0 0.05">
      <freejoint name="free"/>
      <geom name="ball" type="sphere" size="0.05" mass="1" friction="0.8"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="fx" joint="free" gear="1 0 0 0 0 0" ctrllimited="true" ctrlrange="-30 30"/>
    <motor name="fz" joint="free" gear="0 0 1 0 0 0" ctrllimited="true" ctrlrange="-30 30"/>
  </actuator>
</mujoco>)";
  RolloutSpec spec;
  spec.scene = "resting_sphere";
  spec.model = std::make_shared<const Model>(load_mjcf_string(xml, "resting_sphere"));
  spec.steps = 30;
  return spec;
}

IlqrResult lift_off(SensitivityKind kind, Real rho) {
  StepAdjointOptions adjoint;
  adjoint.sensitivity.kind = kind;
  adjoint.sensitivity.rho = rho;
  StepwiseRollout rollout(resting_sphere(), adjoint);
  TrackingCost cost;
  VecX q = VecX::Zero(12), qf = VecX::Zero(12);
  q.segment<3>(0).setConstant(1.0);
  qf.segment<3>(0).setConstant(100.0);
  qf.segment<3>(6).setConstant(1.0);
  cost.Q = q.asDiagonal();
  cost.Qf = qf.asDiagonal();
  cost.R = 1e-3 * MatX::Identity(2, 2);
  cost.target = read_body_states(rollout.model(), prepare_rollout(rollout.spec()).sim.data());
  cost.target[0].x.z() += 0.5;
  IlqrOptions opt;
  opt.iterations = 30;
  opt.mu_initial = 1e-6;
  return ilqr_minimize(rollout, cost, MatX(), opt);
}

}  // namespace

TEST_CASE("ilqr: lift-off through contact, exact gradient stuck, central path lifts off") {
  const IlqrResult exact = lift_off(SensitivityKind::Exact, 1e-6);
  const IlqrResult relaxed = lift_off(SensitivityKind::CentralPath, 0.3);
  const Real start = exact.cost_history.front();
  MESSAGE("lift-off: start " << start << ", exact " << exact.cost << " (" << exact.iterations
                             << " iterations), central_path " << relaxed.cost << " (" << relaxed.iterations
                             << " iterations), final height " << relaxed.trajectory.x.back()[0].x.z());
  CHECK(relaxed.cost_history.front() == start);  // the same forward pass
  CHECK(relaxed.cost < 0.5 * start);
  // The exact open-loop gradient at zero control is zero (clamped contact,
  // target straight above: nothing lateral either), so iLQR stops at once
  // as at a stationary point; the relaxed one is not.
  MESSAGE("open-loop gradient norms: exact " << exact.history.front().grad_norm << ", central_path "
                                             << relaxed.history.front().grad_norm);
  CHECK(exact.history.front().grad_norm <= 1e-9 * relaxed.history.front().grad_norm);
  CHECK(relaxed.history.front().grad_norm > 1e-2);  // measured 0.159
  CHECK(exact.converged);
  CHECK(exact.cost == start);
  // Lifted off: ends within 0.1 m of the target height (0.55 m).
  CHECK(std::abs(relaxed.trajectory.x.back()[0].x.z() - 0.55) < 0.1);
}
