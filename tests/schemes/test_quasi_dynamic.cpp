// The quasi-dynamic scheme (schemes/quasi_dynamic_scheme.hpp; MATH.md A.3): each
// test against a closed form of the discrete step or an invariant, and the
// validation scenes' quasi-static outcomes (docs/quasi_dynamic.md).
//
// The scheme is driven directly (QuasiDynamicScheme + law + solver objects),
// so these tests do not depend on the factory's table.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/kinematics.hpp"
#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "schemes/quasi_dynamic_scheme.hpp"
#include "schemes/velocity_scheme.hpp"
#include "sim/registry.hpp"
#include "sim/settings.hpp"
#include "sim/simulation.hpp"
#include "studies/validation.hpp"

using namespace contactlab;

namespace {

constexpr double kG = 9.81;

// One world with its parts, stepped by the quasi-dynamic scheme. Not copyable:
// `options` points into the parts.
struct World {
  Model model;
  Data data;
  std::unique_ptr<ContactModel> law;
  std::unique_ptr<Solver> solver;
  QuasiDynamicScheme scheme;
  OptionSet options;

  World(Model m, const std::string& law_name, const std::string& solver_name) : model(std::move(m)) {
    law = make_contact_model(law_name);
    solver = make_solver(solver_name);
    law->bind_options(options, "contact.");
    solver->bind_options(options, "solver.");
    scheme.bind_options(options, "scheme.");
    if (solver_name == "padmm") {
      // Tight solves, so closed forms of the discrete step can be compared closely.
      for (const char* kv : {"solver.tol_primal=1e-12", "solver.tol_dual=1e-12", "solver.tol_compl=1e-12",
                             "solver.max_iterations=5000"})
        options.set_assignment(kv);
    }
    reset();
  }
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  // As Simulation::reset: the model's first keyframe, else qpos0 at rest.
  void reset() {
    data.init(model);
    if (const Keyframe* key = initial_keyframe(model, "")) set_generalized_state(model, key->qpos, key->qvel, data);
  }
  // Scheduled controls (if any) at the current time, then one step.
  void step(double h) {
    for (const ControlSchedule& s : model.control_schedules) data.ctrl[s.actuator] = s.value_at(data.time);
    scheme.step(model, data, *law, *solver, h);
  }
};

Model scene(const std::string& name) { return load_mjcf_file(resolve_scene(name)); }

Model from_xml(const std::string& gravity, const std::string& world, const std::string& extra = "") {
  return load_mjcf_string("<mujoco model=\"qd\"><option gravity=\"" + gravity + "\"/><worldbody>" + world +
                              "</worldbody>" + extra + "</mujoco>",
                          "quasi_dynamic test");
}

// A 1 kg box (half extent 0.1 m, mu = 0.5) resting on a plane, with a motor
// pushing it along world x through its free joint.
const char* kBoxOnPlane =
    "<geom name=\"floor\" type=\"plane\" size=\"10 10 0.1\" friction=\"0.5\"/>"
    "<body name=\"box\" pos=\"0 0 0.1\"><freejoint name=\"box_free\"/>"
    "<geom name=\"box\" type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1\" friction=\"0.5\"/></body>";
const char* kPush = "<actuator><motor name=\"push\" joint=\"box_free\" gear=\"1 0 0 0 0 0\"/></actuator>";

const std::vector<std::pair<std::string, std::string>> kCombos = {{"ccp", "convex_newton"}, {"desaxce", "padmm"}};

}  // namespace

TEST_CASE("quasi_dynamic: options, name, binding and acceptance") {
  QuasiDynamicScheme s;
  CHECK(s.name() == "quasi_dynamic");
  CHECK(s.options.drop == QuasiDynamicOptions::kDropAll);
  CHECK_NOTHROW(s.options.Validate());
  OptionSet set;
  s.bind_options(set, "scheme.");
  set.set_assignment("scheme.drop=none");
  CHECK(s.options.drop == QuasiDynamicOptions::kDropNone);
  set.set_assignment("scheme.contact_baumgarte=0.3");
  CHECK(s.options.stepping.contact_baumgarte == 0.3);
  CHECK_THROWS_AS(set.set_assignment("scheme.drop=some"), std::invalid_argument);
  QuasiDynamicOptions bad;
  bad.drop = 7;
  CHECK_THROWS_AS(bad.Validate(), std::invalid_argument);
  bad = QuasiDynamicOptions{};
  bad.stepping.baumgarte = 2;
  CHECK_THROWS_AS(bad.Validate(), std::invalid_argument);
  // Every law and solver the velocity scheme drives.
  VelocityScheme v;
  for (const PartInfo& l : contact_model_names())
    for (const PartInfo& so : solver_names()) {
      auto law = make_contact_model(l.name);
      auto solver = make_solver(so.name);
      CHECK(s.accepts(*law, *solver, nullptr) == v.accepts(*law, *solver, nullptr));
    }
}

TEST_CASE("quasi_dynamic: a free body under gravity moves h^2 g per step, no velocity accumulates") {
  const std::string ball = "<body name=\"ball\" pos=\"0 0 1\"><freejoint/><geom type=\"sphere\" size=\"0.1\" mass=\"2\"/></body>";
  World w(from_xml("0 0 -9.81", ball), "ccp", "convex_newton");
  const double h = 0.01, z0 = w.data.x_W[0].z();
  const int n = 100;
  for (int i = 0; i < n; ++i) w.step(h);
  // x+ = x- + h (h g) in floating point: n additions of 9.81e-4 to O(1) values
  // round to ~n eps = 2e-14; 1e-12 leaves a margin.
  CHECK(std::abs(w.data.x_W[0].z() - (z0 - n * h * h * kG)) < 1e-12);
  CHECK(std::abs(w.data.v_W[0].z() + h * kG) < 1e-14);  // stored u+ = dq/h, for output only
  CHECK(w.data.x_W[0].head<2>().norm() == 0);
  // Not the free-fall law z0 - g (n h)^2 / 2 (4.9 cm here vs 9.8 mm).
  CHECK(std::abs(w.data.x_W[0].z() - (z0 - 0.5 * kG * (n * h) * (n * h))) > 0.03);

  // drop = none keeps u-: the velocity scheme's semi-implicit Euler,
  // z_n = z0 - g h^2 n (n + 1) / 2 (same rounding argument).
  World keep(from_xml("0 0 -9.81", ball), "ccp", "convex_newton");
  keep.scheme.options.drop = QuasiDynamicOptions::kDropNone;
  for (int i = 0; i < n; ++i) keep.step(h);
  CHECK(std::abs(keep.data.x_W[0].z() - (z0 - kG * h * h * n * (n + 1) / 2)) < 1e-12);
}

TEST_CASE("quasi_dynamic: drop = none is the velocity scheme, bit for bit") {
  // Same phases on the same data: any difference would mean the scheme does
  // more than choose u-. box_ramp's first 1.5 s (sticking, then sliding).
  World q(scene("box_ramp"), "ccp", "convex_newton");
  q.scheme.options.drop = QuasiDynamicOptions::kDropNone;
  Model m = scene("box_ramp");
  Data d;
  d.init(m);
  auto law = make_contact_model("ccp");
  auto solver = make_solver("convex_newton");
  VelocityScheme v;
  const double h = 1e-3;
  for (int i = 0; i < 1500; ++i) {
    for (const ControlSchedule& s : m.control_schedules) d.ctrl[s.actuator] = s.value_at(d.time);
    v.step(m, d, *law, *solver, h);
    q.step(h);
  }
  CHECK(q.data.x_W[0] == d.x_W[0]);
  CHECK(q.data.v_W[0] == d.v_W[0]);
  CHECK(q.data.w_W[0] == d.w_W[0]);
  CHECK(d.v_W[0].x() > 0.01);  // guard: the dynamic box is sliding by then
}

TEST_CASE("quasi_dynamic: box pushed below mu m g stays - above, it moves h^2 (F - mu m g)/m per step") {
  const double h = 0.01, m = 1, mu = 0.5, mumg = mu * m * kG;
  for (const auto& combo : kCombos) {
    const std::string &law = combo.first, &solver = combo.second;  // no structured binding: clang 14 cannot CAPTURE one
    CAPTURE(law);
    World w(from_xml("0 0 -9.81", kBoxOnPlane, kPush), law, solver);
    // No slop: the gliding box's positive gap enters the bias as (gap - slop)/h,
    // which would add mu slop/h to one step's friction of the closed form below.
    w.options.set_assignment("scheme.contact_slop=0");
    const double x0 = w.data.x_W[0].x();
    // Below the threshold: sticking. Creep of a compliant stick is rho_c F h
    // per step in velocity (ccp: 1e-6 * 3.9 * 0.01 = 4e-8 m/s), 4e-10 m per
    // step, 2e-8 m in 50 steps; padmm's tolerance is 1e-12. Bound 1e-7 m.
    w.data.ctrl[0] = 0.8 * mumg;
    for (int i = 0; i < 50; ++i) w.step(h);
    CHECK(std::abs(w.data.x_W[0].x() - x0) < 1e-7);

    // Above: u* = h (F - mu m g)/m per step, constant (no acceleration).
    const double F = 1.5 * mumg, u_star = h * (F - mumg) / m;
    w.data.ctrl[0] = F;
    // desaxce: exact from the first step. ccp glides (docs/solvers.md): the
    // box lifts at mu |v_t| while sliding, so its normal impulse exceeds m g h
    // by mu m (u_k - u_(k-1)) and the friction mu times that; per step
    //   (1 + mu^2) u_k = u* + mu^2 u_(k-1),  u_0 = 0  =>  u_k = u* (1 - c^k),
    // c = mu^2/(1 + mu^2) = 0.2: the same constant rate after a few steps.
    const double c = law == "ccp" ? mu * mu / (1 + mu * mu) : 0.0;
    double x_prev = w.data.x_W[0].x(), worst = 0;
    for (int k = 1; k <= 30; ++k) {
      w.step(h);
      const double dx = w.data.x_W[0].x() - x_prev;
      x_prev = w.data.x_W[0].x();
      worst = std::max(worst, std::abs(dx - h * u_star * (1 - std::pow(c, k))));
    }
    // Relative error: ccp's compliance rho_c m = 1e-6 (the stick creep above,
    // and the friction-cone boundary), padmm's tolerance; 1e-5 of the 2.5e-4 m
    // per-step displacement.
    CHECK(worst < 1e-5 * h * u_star);
    CHECK(w.data.v_W[0].x() == doctest::Approx(u_star).epsilon(1e-5));

    // Force removed: the step it is removed, no motion (no momentum to carry).
    w.data.ctrl[0] = 0;
    const double x_off = w.data.x_W[0].x();
    w.step(h);
    CHECK(std::abs(w.data.x_W[0].x() - x_off) < 1e-9);  // stick creep only (friction impulse ~0)
    for (int i = 0; i < 10; ++i) w.step(h);
    CHECK(std::abs(w.data.x_W[0].x() - x_off) < 1e-9);
    CHECK(w.data.metrics.max_penetration < 1e-6);
  }
}

TEST_CASE("quasi_dynamic: a position servo moves its joint by k_p h^2/(m + k_d h + k_p h^2) of the error per step") {
  // CQDC's revised model on one slide joint of mass m: Q = m/h^2 + k_d/h + k_p,
  // b = -k_p e (e = target - q), dq = -b/Q. Here the servo is the velocity
  // scheme's implicit row with u- = 0 (docs/quasi_dynamic.md).
  const double m = 2, kp = 50, target = 0.3;
  for (const auto& combo : kCombos) {
    const std::string &law = combo.first, &solver = combo.second;  // no structured binding: clang 14 cannot CAPTURE one
    for (double kv : {0.0, 4.0}) {
      for (double h : {0.05, 1.0}) {
        CAPTURE(law);
        CAPTURE(kv);
        CAPTURE(h);
        const std::string body =
            "<body name=\"slider\"><joint name=\"s\" type=\"slide\" axis=\"1 0 0\"/>"
            "<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"2\" contype=\"0\" conaffinity=\"0\"/></body>";
        const std::string act = "<actuator><position name=\"p\" joint=\"s\" kp=\"50\" kv=\"" + std::to_string(kv) +
                                "\"/></actuator>";
        World w(from_xml("0 0 0", body, act), law, solver);
        const double Q = m / (h * h) + kv / h + kp;
        double worst = 0;
        for (int k = 0; k < 20; ++k) {
          w.data.ctrl[0] = target;
          const double e = target - joint_position(w.model, w.data, 0);
          const double q_expected = joint_position(w.model, w.data, 0) + kp * e / Q;
          w.step(h);
          worst = std::max(worst, std::abs(joint_position(w.model, w.data, 0) - q_expected));
        }
        // Solver tolerances (padmm 1e-12, convex_newton 1e-10 m/s times h) and
        // convex_newton's soft off-axis rows (no load on them): 1e-9 m of a
        // 0.3 m error.
        CHECK(worst < 1e-9);
        if (h == 1.0) {
          // k_p h^2 >> m: the servo reaches its target within one step (the
          // quasi-static limit); after 20 steps (m/(m + k_p))^20 ~ 1e-28.
          CHECK(std::abs(joint_position(w.model, w.data, 0) - target) < 1e-9);
        }
      }
    }
  }
}

TEST_CASE("quasi_dynamic: resting contact stays put - warm start, metrics and contact cache work") {
  const double h = 0.01;
  for (const auto& combo : kCombos) {
    const std::string &law = combo.first, &solver = combo.second;  // no structured binding: clang 14 cannot CAPTURE one
    CAPTURE(law);
    World w(from_xml("0 0 -9.81", kBoxOnPlane), law, solver);
    const Vec3 x0 = w.data.x_W[0];
    double max_pen = 0, max_drift = 0;
    long warm_iterations = 0;
    bool all_converged = true;
    const int n = 300;
    for (int i = 0; i < n; ++i) {
      w.step(h);
      max_pen = std::max(max_pen, w.data.metrics.max_penetration);
      max_drift = std::max(max_drift, (w.data.x_W[0] - x0).norm());
      all_converged = all_converged && w.data.metrics.converged;
      if (i > 0) {
        // From the second step on, the previous impulses seed the solver.
        CHECK(w.data.warm.valid);
        warm_iterations += w.data.metrics.iterations;
      }
    }
    // ccp: a resting corner sinks at rho_c m g h/4 (compliance times its
    // quarter of the weight; 2.5e-10 m per step) while inside the slop (1e-6 m,
    // left uncorrected), so 7.4e-8 m after 300 steps; padmm: its tolerance.
    CHECK(max_pen < 1e-6);
    CHECK(max_drift < 1e-6);
    CHECK(all_converged);
    CHECK(w.data.metrics.num_contacts == 4);
    CHECK(w.data.contact_cache.size() == 4u);
    // The cached impulse of each corner carries a quarter of the weight m g h.
    double cached_normal = 0;
    for (const CachedContact& c : w.data.contact_cache) cached_normal += c.lambda_W.z();
    CHECK(cached_normal == doctest::Approx(kG * h).epsilon(1e-6));
    CHECK(w.data.metrics.r_vi < 1e-6);

    // Cold starts on the same steps take at least as many iterations.
    World cold(from_xml("0 0 -9.81", kBoxOnPlane), law, solver);
    cold.options.set_assignment("scheme.warm_start=false");
    long cold_iterations = 0;
    for (int i = 0; i < n; ++i) {
      cold.step(h);
      CHECK_FALSE(cold.data.warm.valid);
      if (i > 0) cold_iterations += cold.data.metrics.iterations;
    }
    CHECK(warm_iterations < cold_iterations);
  }
}

// ---- Validation scenes (studies/validation.hpp) with ccp + convex_newton: the
// quasi-static outcomes each scene can show. The dynamic references (impact
// times, bounce heights, periods, sliding after the push) need inertia and do
// not apply; docs/quasi_dynamic.md lists which validation quantities hold.

TEST_CASE("quasi_dynamic: stacked_boxes - the top box descends h^2 g per step and rests on the fixed bottom box") {
  for (double ratio : {1.0, 100.0, 1000.0, 0.01, 0.001}) {
    CAPTURE(ratio);
    Model model = scene("stacked_boxes");
    const int top = model.find_body("top"), bottom = model.find_body("bottom");
    apply_model_override(model, "body.top.mass", std::to_string(model.bodies[bottom].mass * ratio));
    model.validate();
    World w(std::move(model), "ccp", "convex_newton");
    // CQDC's steps are large: at h = 10 ms the 0.1 m gap closes in 102 steps.
    const double h = 0.01, z0 = w.data.x_W[top].z();
    const Vec3 bottom0 = w.data.x_W[bottom];
    double drift = 0, max_pen = 0, max_rise = 0, z_prev = z0;
    for (int i = 0; i < 150; ++i) {
      w.step(h);
      const double z = w.data.x_W[top].z();
      if (i < 100) CHECK(std::abs(z - (z0 - (i + 1) * h * h * kG)) < 1e-12);  // free descent, rounding only
      max_rise = std::max(max_rise, z - z_prev);
      z_prev = z;
      drift = std::max(drift, (w.data.x_W[bottom] - bottom0).norm());
      max_pen = std::max(max_pen, w.data.metrics.max_penetration);
    }
    // A resting ccp corner sinks at rho_c lambda per step inside the slop
    // (penetration left uncorrected), beyond it eta holds it: the deepest
    // resting penetration is slop + rho_c m g h^2/(4 eta) with m the load on
    // the ground (m_top + m_bottom; 4 corners). A landing box stops at gap =
    // slop (the positive-gap bias is (gap - slop)/h). 1e-9 m: solver tolerance.
    const double slop = 1e-6, rho_c = 1e-6, eta = 0.1;
    const double p_max = slop + rho_c * (1 + ratio) * kG * h * h / (4 * eta) + 1e-9;
    CHECK(drift < p_max);
    CHECK(max_pen < p_max);
    CHECK(std::abs(w.data.x_W[top].z() - 0.3) < 2 * p_max);  // the analytic rest height
    CHECK(max_rise < 1e-12);                                 // no rebound: nothing carries momentum
    CHECK(w.data.x_W[top].head<2>().norm() < 1e-9);          // no sliding
  }
  // In the validation's own run (h = 1 ms, 1 s) the top box has only descended
  // 1000 h^2 g = 9.81 mm: it has not landed (the "rest height" quantity fails).
  World w(scene("stacked_boxes"), "ccp", "convex_newton");
  const int top = w.model.find_body("top");
  const double z0 = w.data.x_W[top].z();
  for (int i = 0; i < 1000; ++i) w.step(1e-3);
  CHECK(std::abs(w.data.x_W[top].z() - (z0 - 1000 * 1e-6 * kG)) < 1e-12);
}

TEST_CASE("quasi_dynamic: box_ramp - sticks until F = mu m g, stops the step the force drops below it") {
  World w(scene("box_ramp"), "ccp", "convex_newton");
  const int box = w.model.find_body("box");
  const double h = 1e-3, mu = 0.5, m = 1, mumg = mu * m * kG;  // the scene's parameters
  const ControlSchedule& push = w.model.control_schedules.front();
  const double T_r = 2.0, t_slip = T_r / 1.5;  // F ramps to 1.5 mu m g over T_r, then 0
  const double x0 = w.data.x_W[box].x();
  // Sliding speed u = h (F - mu m g)/m grows by h^2 dF/dt = 3.7e-6 m/s per
  // step; a sticking ccp contact creeps at ~rho_c F h = 5e-9 m/s. 1e-6 m/s
  // separates them within two steps of the threshold.
  const double v_detect = 1e-6;
  double t_onset = -1, t_stop = -1, expected = 0;
  for (int i = 0; i < 2500; ++i) {
    // The discrete reference: each step moves h^2 (F(t_k) - mu m g)^+/m (F at the step start).
    expected += h * h * std::max(0.0, push.value_at(w.data.time) - mumg) / m;
    w.step(h);
    const double vx = w.data.v_W[box].x();
    if (t_onset < 0 && vx > v_detect) t_onset = w.data.time;
    if (t_onset > 0 && t_stop < 0 && vx < v_detect) t_stop = w.data.time;
  }
  const double x = w.data.x_W[box].x() - x0;
  MESSAGE("box_ramp: onset " << t_onset << " s (t_s " << t_slip << "), stop " << t_stop << " s (quasi-static "
                             << T_r << ", dynamic 2.1667), distance " << x << " m (discrete sum " << expected
                             << ", dynamic 0.2498)");
  CHECK(std::abs(t_onset - t_slip) <= 5 * h);
  CHECK(std::abs(t_stop - T_r) <= 5 * h);  // the dynamic box slides on until 13 T_r/12
  // ccp's gliding lags the sliding rate by mu^2 (u_k - u_(k-1)) per step
  // (test above), 0.1% of the distance here; 1%.
  CHECK(x == doctest::Approx(expected).epsilon(0.01));
  CHECK(x < 0.01 * 0.2498);  // quasi-static: O(h) of the dynamic slide (v(T_r) h = 8.2e-4 m)
}

TEST_CASE("quasi_dynamic: bouncing_ball - no bounce, the ball settles on the floor") {
  // Not a meaningful validation (restitution acts on u-, which is dropped);
  // the quasi-static outcome: a monotone descent at h^2 g per step onto the floor.
  World w(scene("bouncing_ball"), "ccp", "convex_newton");
  const double h = 0.01, r = 0.1, z0 = w.data.x_W[0].z();
  double max_rise = 0, z_prev = z0;
  for (int i = 0; i < 1100; ++i) {  // a 1 m gap closes in 1020 steps
    w.step(h);
    max_rise = std::max(max_rise, w.data.x_W[0].z() - z_prev);
    z_prev = w.data.x_W[0].z();
  }
  CHECK(max_rise < 1e-12);
  // Rests within the slop above (landing) and the resting sink below (1e-9 m).
  CHECK(std::abs(w.data.x_W[0].z() - r) < 1.1e-6);
  CHECK(std::abs(w.data.v_W[0].z()) < 1e-6);
}

TEST_CASE("quasi_dynamic: pendulum - no oscillation, a monotone creep to the bottom") {
  // Not a meaningful validation (the period needs inertia). Quasi-dynamic: the
  // hinge rows leave one coordinate, whose Q is I_pivot/h^2, so the first step
  // turns the pendulum by -h^2 m g d sin(theta0)/I_pivot exactly (linear rows,
  // consistent at theta0).
  const double h = 0.1, m = 1, d = 1, I_pivot = 1.0001;  // scenes/pendulum.xml
  for (const auto& combo : kCombos) {
    const std::string &law = combo.first, &solver = combo.second;  // no structured binding: clang 14 cannot CAPTURE one
    CAPTURE(law);
    World w(scene("pendulum"), law, solver);
    const double theta0 = joint_position(w.model, w.data, 0);
    REQUIRE(theta0 == doctest::Approx(0.2));
    w.step(h);
    const double dtheta = joint_position(w.model, w.data, 0) - theta0;
    // padmm (tolerance 1e-12): 1e-7 relative. convex_newton stalls here at a
    // scaled gradient of 1.2e-5 rad/s and stops at max_iterations: its joint
    // rows are soft (1/R = 1e8) against the bob's 1e-4 kg m^2 rotational
    // inertia (conditioning ~1e12; docs/quasi_dynamic.md); measured 6e-5
    // relative, bound 1e-4.
    const double tol = solver == "padmm" ? 1e-7 : 1e-4;
    CHECK(dtheta == doctest::Approx(-h * h * m * kG * d * std::sin(theta0) / I_pivot).epsilon(tol));
    double prev = joint_position(w.model, w.data, 0);
    bool monotone = true;
    for (int i = 0; i < 150; ++i) {
      w.step(h);
      const double q = joint_position(w.model, w.data, 0);
      monotone = monotone && q < prev && q > 0;
      prev = q;
    }
    CHECK(monotone);
    CHECK(prev < 1e-5 * theta0);  // ~(1 - h^2 g)^151 = 2e-7 of theta0
  }
}

TEST_CASE("quasi_dynamic: four_bar - the loop stays closed and the parallelogram keeps its shape") {
  // The validation's loop-residual bound holds; energy is not a meaningful
  // measure (no kinetic energy carries over). Quasi-static outcome: the
  // coupler translates without rotating while the crank creeps down.
  World w(scene("four_bar"), "ccp", "convex_newton");
  const int coupler = w.model.find_body("coupler");
  const Quat coupler0 = w.data.q_WB[coupler];
  const double h = 1.0 / 400;
  double residual = 0, coupler_turn = 0;
  double prev = joint_position(w.model, w.data, 0);
  bool monotone = true;
  for (int i = 0; i < 800; ++i) {
    w.step(h);
    residual = std::max(residual, w.data.metrics.joint_violation);
    coupler_turn = std::max(coupler_turn, coupler0.angularDistance(w.data.q_WB[coupler]));
    const double q = joint_position(w.model, w.data, 0);
    monotone = monotone && q > prev;  // +y hinge: the crank turns down, towards +q
    prev = q;
  }
  MESSAGE("four_bar: loop residual " << residual << ", coupler rotation " << coupler_turn << " rad, crank turned "
                                     << prev << " rad");
  // The validation bound at 400 Hz is 1e-3 m; quasi-dynamic steps are tiny here.
  CHECK(residual < 1e-6);
  CHECK(coupler_turn < 1e-6);
  CHECK(monotone);
}

TEST_CASE("quasi_dynamic: the validation suite, once the factory lists the scheme") {
  bool listed = false;
  for (const PartInfo& s : scheme_names()) listed = listed || s.name == "quasi_dynamic";
  if (!listed) {
    MESSAGE("scheme 'quasi_dynamic' is not in sim/registry.cpp yet: suite skipped");
    return;
  }
  // The quantities that hold for a quasi-dynamic step (docs/quasi_dynamic.md);
  // the others measure inertia (impact times, apexes, periods, the slide after
  // the push, the top box's landing within 1 s at h = 1 ms) and are only reported.
  const std::set<std::string> hold = {"max penetration", "max |z_top - z_top(ratio 1)|", "bottom box displacement",
                                      "max position-level loop residual",
                                      "largest one-step energy change (Baumgarte off)"};
  std::string reported;
  for (const ValidationResult& r : validation_suite(PartChoice{"ccp", "convex_newton", "quasi_dynamic"})) {
    for (const ValidationQuantity& q : r.quantities) {
      CAPTURE(r.name);
      CAPTURE(q.name);
      if (hold.count(q.name)) {
        CHECK(q.pass());
      } else {
        reported += "\n  " + r.name + " / " + q.name + ": " + std::to_string(q.measured) + " (reference " +
                    std::to_string(q.reference) + ")";
      }
    }
  }
  MESSAGE("not meaningful without inertia:" << reported);
}
