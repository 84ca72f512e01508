// iLQR (optimizers/ilqr.hpp) and the step Jacobians it runs on
// (optimizers/step_jacobians.hpp).
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "optimizers/ilqr.hpp"
#include "optimizers/step_jacobians.hpp"
#include "support/point_mass.hpp"
#include "support/scenes.hpp"

using namespace contactlab;

namespace {

constexpr long kSteps = 30;

// Position and velocity weights on the point mass's 12 coordinates
// (x, theta, v, w); rotation and spin uncosted.
MatX weights(Real position, Real velocity) {
  VecX d = VecX::Zero(12);
  d.segment<3>(0).setConstant(position);
  d.segment<3>(6).setConstant(velocity);
  return d.asDiagonal();
}

}  // namespace

TEST_CASE("ilqr: step Jacobians by reverse mode against central differences") {
  // Contact-free point mass: A, B are exactly semi-implicit Euler's.
  {
    StepwiseRollout rollout(test::point_mass_spec(3));
    Trajectory tr;
    rollout.run([](long t, const BodyStates&, VecX& u) { u << 3.0 - t, 1.5; }, tr);
    std::vector<MatX> A, B, Af, Bf;
    rollout.jacobians(A, B);
    finite_difference_jacobians(rollout.spec(), tr, 1e-6, Af, Bf);
    const Real h = test::kPointMassStep, m = test::kPointMass;
    for (long t = 0; t < 3; ++t) {
      // dx+/dv = h, dv+/du = h/m (gear along world x and y).
      CHECK(A[t](0, 6) == doctest::Approx(h).epsilon(1e-14));
      CHECK(B[t](6, 0) == doctest::Approx(h / m).epsilon(1e-14));
      CHECK(B[t](7, 1) == doctest::Approx(h / m).epsilon(1e-14));
      // Differences of a linear map: rounding only (~1e-16 / 1e-6 = 1e-10).
      CHECK((A[t] - Af[t]).cwiseAbs().maxCoeff() < 1e-8);
      CHECK((B[t] - Bf[t]).cwiseAbs().maxCoeff() < 1e-8);
    }
  }
  // Through contact: the box of box_ramp sliding under a 6 N push on the
  // frictional floor (four corner contacts, sliding friction), started
  // 0.1 mm into the floor. The contact bias has a kink at zero gap (the
  // one-sided Baumgarte term, docs/design.md "Limit rows"): resting exactly
  // on the floor, +-eps in pz straddles it and the differences mix the two
  // sides (measured 4e-5 off in d(wy)/d(pz)). Inside the floor the step map
  // is smooth; padmm is tightened to 1e-11 so the differences (eps 1e-6)
  // see the step map, not the solver's tolerance.
  {
    std::ifstream file(resolve_scene("box_ramp"));
    std::string xml((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const std::string resting = "<body name=\"box\" pos=\"0 0 0.1\">";
    REQUIRE(xml.find(resting) != std::string::npos);
    xml.replace(xml.find(resting), resting.size(), "<body name=\"box\" pos=\"0 0 0.0999\">");
    RolloutSpec spec;
    spec.scene = "box_ramp";
    spec.model = std::make_shared<const Model>(load_mjcf_string(xml, "box_ramp_penetrating"));
    spec.dt = 0.01;
    spec.steps = 3;
    spec.sets = {"solver.tol_primal=1e-11", "solver.tol_dual=1e-11", "solver.tol_compl=1e-11",
                 "solver.max_iterations=2000"};
    StepwiseRollout rollout(spec);
    Trajectory tr;
    rollout.run([](long, const BodyStates&, VecX& u) { u << 6.0; }, tr);
    std::vector<MatX> A, B, Af, Bf;
    rollout.jacobians(A, B);
    finite_difference_jacobians(spec, tr, 1e-6, Af, Bf);
    for (long t = 1; t < 3; ++t) {  // step 0 starts at rest (the stick/slip switch)
      CHECK(tr.x[t][0].x.z() < 0.1 - 1e-5);  // still inside the floor, clear of the kink
      CAPTURE(t);
      const Real scale = std::max(A[t].cwiseAbs().maxCoeff(), 1.0);
      MESSAGE("box step " << t << ": |A - A_fd| = " << (A[t] - Af[t]).cwiseAbs().maxCoeff()
                          << ", |B - B_fd| = " << (B[t] - Bf[t]).cwiseAbs().maxCoeff());
      // Tolerance 1e-5 of the largest entry: FD truncation O(eps^2) is
      // negligible, the solver's 1e-11 residual divided by eps gives 1e-5.
      CHECK((A[t] - Af[t]).cwiseAbs().maxCoeff() < 1e-5 * scale);
      CHECK((B[t] - Bf[t]).cwiseAbs().maxCoeff() < 1e-5);
      // dv+/du for the push is h/m while sliding (friction is mu m g h, independent of F).
      CHECK(B[t](6, 0) == doctest::Approx(0.01).epsilon(1e-6));
    }
  }
}

TEST_CASE("ilqr: linear-quadratic point mass against the discrete Riccati solution") {
  StepwiseRollout rollout(test::point_mass_spec(kSteps));
  TrackingCost cost;
  cost.Q = weights(1.0, 0.1);
  cost.Qf = weights(100.0, 10.0);
  cost.R = 1e-3 * MatX::Identity(2, 2);
  cost.target = read_body_states(rollout.model(), prepare_rollout(rollout.spec()).sim.data());
  cost.target[0].x += Vec3(0.5, -0.3, 0);

  // Independent reference: the finite-horizon LQR of the reduced double
  // integrator z = (px, py, vx, vy), e = z - z*, e+ = A e + B u with
  // A = [I hI; 0 I], B = [h^2/m I; h/m I] (semi-implicit Euler), by the
  // backward Riccati recursion P_T = Qf, K = (R + B'PB)^-1 B'PA, P = Q + A'P(A - BK).
  const Real h = test::kPointMassStep, m = test::kPointMass;
  MatX Ar = MatX::Identity(4, 4), Br = MatX::Zero(4, 2);
  Ar.block(0, 2, 2, 2) = h * MatX::Identity(2, 2);
  Br.block(0, 0, 2, 2) = h * h / m * MatX::Identity(2, 2);
  Br.block(2, 0, 2, 2) = h / m * MatX::Identity(2, 2);
  VecX qd(4), qfd(4);
  qd << 1, 1, 0.1, 0.1;
  qfd << 100, 100, 10, 10;
  const MatX Qr = qd.asDiagonal(), Qfr = qfd.asDiagonal(), Rr = cost.R;
  std::vector<MatX> Kr(kSteps);
  MatX P = Qfr;
  for (long t = kSteps - 1; t >= 0; --t) {
    Kr[t] = (Rr + Br.transpose() * P * Br).ldlt().solve(Br.transpose() * P * Ar);
    P = Qr + Ar.transpose() * P * (Ar - Br * Kr[t]);
  }
  VecX e(4);
  e << -0.5, 0.3, 0, 0;
  MatX u_ref(kSteps, 2);
  Real J_ref = 0;
  for (long t = 0; t < kSteps; ++t) {
    const VecX u = -Kr[t] * e;
    u_ref.row(t) = u.transpose();
    J_ref += 0.5 * e.dot(Qr * e) + 0.5 * u.dot(Rr * u);
    e = Ar * e + Br * u;
  }
  J_ref += 0.5 * e.dot(Qfr * e);
  // The optimal cost equals 1/2 e0' P_0 e0 (a check of the reference itself).
  VecX e0(4);
  e0 << -0.5, 0.3, 0, 0;
  CHECK(J_ref == doctest::Approx(0.5 * e0.dot(P * e0)).epsilon(1e-12));

  IlqrOptions opt;
  opt.iterations = 10;
  const IlqrResult r = ilqr_minimize(rollout, cost, MatX(), opt);
  MESSAGE("ilqr LQ: cost " << r.cost << " Riccati " << J_ref << " from " << r.cost_history.front() << " in "
                           << r.iterations << " iterations, control error "
                           << (r.trajectory.u - u_ref).cwiseAbs().maxCoeff() / u_ref.cwiseAbs().maxCoeff());
  CHECK(r.converged);
  // Linear dynamics, quadratic cost: the first full step is the optimum;
  // the second finds nothing to gain.
  CHECK(r.iterations == 1);
  // Agreement to rounding: 1e-9 relative on the controls (the two Riccati
  // passes differ in dimension and order of operations), 1e-12 on the cost.
  CHECK((r.trajectory.u - u_ref).cwiseAbs().maxCoeff() < 1e-9 * u_ref.cwiseAbs().maxCoeff());
  CHECK(r.cost == doctest::Approx(J_ref).epsilon(1e-12));
  CHECK(r.cost < r.cost_history.front());
}

TEST_CASE("ilqr: clamped controls, regularisation and line search still descend") {
  // The same problem with a +-5 N range: the LQR solution (up to ~40 N) is
  // infeasible, iLQR's clamped forward pass must still lower the cost
  // monotonically and keep every control inside the range, and it cannot
  // beat the unconstrained optimum (14.1278, the Riccati cost of the case above).
  RolloutSpec spec = test::point_mass_spec(kSteps);
  Model model = *spec.model;
  for (Actuator& a : model.actuators) a.ctrl_lo = -5, a.ctrl_hi = 5;
  spec.model = std::make_shared<const Model>(model);
  StepwiseRollout rollout(spec);
  TrackingCost cost;
  cost.Q = weights(1.0, 0.1);
  cost.Qf = weights(100.0, 10.0);
  cost.R = 1e-3 * MatX::Identity(2, 2);
  cost.target = read_body_states(rollout.model(), prepare_rollout(spec).sim.data());
  cost.target[0].x += Vec3(0.5, -0.3, 0);
  IlqrOptions opt;
  opt.iterations = 30;
  opt.mu_initial = 1e-6;
  const IlqrResult r = ilqr_minimize(rollout, cost, MatX(), opt);
  MESSAGE("ilqr clamped: cost " << r.cost << " from " << r.cost_history.front() << " in " << r.iterations
                                << " iterations, " << r.rollouts << " rollouts");
  CHECK(r.trajectory.u.cwiseAbs().maxCoeff() <= 5.0);
  for (size_t i = 1; i < r.cost_history.size(); ++i) CHECK(r.cost_history[i] <= r.cost_history[i - 1]);
  CHECK(r.cost < r.cost_history.front() - 1.0);
  CHECK(r.cost > 14.1278);
}

TEST_CASE("ilqr: bad costs and options name the field") {
  StepwiseRollout rollout(test::point_mass_spec(5));
  TrackingCost cost;
  cost.Q = MatX::Identity(12, 12);
  cost.Qf = MatX::Identity(12, 12);
  cost.R = MatX::Identity(3, 3);
  cost.target = read_body_states(rollout.model(), prepare_rollout(rollout.spec()).sim.data());
  CHECK_THROWS_WITH_AS(ilqr_minimize(rollout, cost, MatX()), doctest::Contains("R must be 2 x 2"),
                       std::invalid_argument);
  cost.R = -MatX::Identity(2, 2);
  CHECK_THROWS_WITH_AS(ilqr_minimize(rollout, cost, MatX()), doctest::Contains("R must be positive definite"),
                       std::invalid_argument);
  cost.R = MatX::Identity(2, 2);
  IlqrOptions opt;
  opt.mu_factor = 1;
  CHECK_THROWS_WITH_AS(ilqr_minimize(rollout, cost, MatX(), opt), doctest::Contains("mu_factor"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ilqr_minimize(rollout, cost, MatX::Zero(4, 2)), doctest::Contains("u0 must be (5 x 2)"),
                       std::invalid_argument);
}
