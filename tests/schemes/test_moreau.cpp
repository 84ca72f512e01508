// Moreau–Jean midpoint scheme (schemes/moreau_scheme.hpp; docs/moreau.md):
// its order against analytic references, the issue's incline targets, resting
// contact, impacts, and the elementary validations of studies/validation.hpp.
//
// Order. The midpoint drift q_{k+1} = q_k + (h/2)(u_k + u+) with u+ = u_k + h a
// integrates a constant acceleration exactly (the local error is
// h^3 x'''/12 + ..., and x''' = 0), so on ballistic flight, the sliding block
// and the rolling sphere the error is the solver's tolerance at every h: the
// ratio 4 of a second-order method cannot be observed there; the tests assert
// the stronger property (error <= 1e-6 relative at h and h/2) and that the
// velocity scheme on the same scenes is first order (error exactly h/T: ratio
// 2 within 1 %). The pendulum's acceleration is not constant: there the error
// of theta(T) against the ODE's reference halves twice per halving of h.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/kinematics.hpp"
#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/registry.hpp"
#include "sim/simulation.hpp"
#include "studies/validation.hpp"

using namespace contactlab;

namespace {

constexpr double kG = 9.81;

PartChoice parts(const std::string& scheme) {
  PartChoice p;
  p.scheme = scheme;
  return p;
}

void tight(Simulation& sim) {
  for (const char* kv : {"solver.tol_primal=1e-12", "solver.tol_dual=1e-12", "solver.tol_compl=1e-12",
                         "solver.max_iterations=5000"})
    sim.set_option(kv);
}

// Steps sim to time T with steps h (T/h an integer).
void run_to(Simulation& sim, double T, double h) {
  const int n = static_cast<int>(std::lround(T / h));
  for (int k = 0; k < n; ++k) sim.step(h);
}

const char* kBallistic = R"(
<mujoco model="ballistic">
  <option timestep="0.01" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="ball" pos="0 0 1">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="1"/>
    </body>
  </worldbody>
</mujoco>)";

// |x(T) - x_exact(T)| of a ball thrown with v0 and spin w0 (no contact).
double ballistic_error(const std::string& scheme, double h) {
  Simulation sim(load_mjcf_string(kBallistic, "ballistic"), parts(scheme));
  const Vec3 v0(1.0, 0.5, 4.0), w0(0.0, 0.0, 3.0);
  sim.data().v_W[0] = v0;
  sim.data().w_W[0] = w0;
  const Vec3 x0 = sim.data().x_W[0];
  const double T = 0.8;
  run_to(sim, T, h);
  const Vec3 exact = x0 + T * v0 + 0.5 * T * T * Vec3(0, 0, -kG);
  return (sim.data().x_W[0] - exact).norm();
}

// Distance down the incline after T of incline_box with friction mu < tan(phi)
// (sliding) or incline_sphere (rolling), relative to the analytic reference.
double incline_error(const std::string& scene, const std::string& scheme, double h, double mu = -1) {
  Model model = load_scene(scene);
  if (mu >= 0)
    for (Geom& g : model.geoms) g.friction = mu;
  const double phi = 20.0 * M_PI / 180.0, T = 1.0;
  const double a = scene == "incline_sphere" ? 5.0 / 7.0 * kG * std::sin(phi)
                                             : kG * (std::sin(phi) - mu * std::cos(phi));
  const double reference = 0.5 * a * T * T;
  const Vec3 down = incline_downhill(model);
  Simulation sim(model, parts(scheme));
  tight(sim);
  const Vec3 x0 = sim.data().x_W[0];
  run_to(sim, T, h);
  return std::abs((sim.data().x_W[0] - x0).dot(down) - reference) / reference;
}

// The pendulum scene's ODE theta'' = -(m g l / I) sin theta, integrated by
// classical RK4 with steps of at most 1e-5 s (error ~1e-16 over 1 s).
struct PendulumReference {
  double th, om;
  void advance(double h) {
    const double k = kG / (1.0 + 1e-4);  // m g l / I_pivot
    const int n = static_cast<int>(std::ceil(h / 1e-5));
    const double dt = h / n;
    auto f = [&](double t) { return -k * std::sin(t); };
    for (int i = 0; i < n; ++i) {
      const double k1t = om, k1o = f(th);
      const double k2t = om + 0.5 * dt * k1o, k2o = f(th + 0.5 * dt * k1t);
      const double k3t = om + 0.5 * dt * k2o, k3o = f(th + 0.5 * dt * k2t);
      const double k4t = om + dt * k3o, k4o = f(th + dt * k3t);
      th += dt / 6 * (k1t + 2 * k2t + 2 * k3t + k4t);
      om += dt / 6 * (k1o + 2 * k2o + 2 * k3o + k4o);
    }
  }
};

// max over the steps in [0, T] of |theta_k - theta(t_k)| (the scene starts at
// 0.2 rad, at rest): a trajectory norm, so that error terms of opposite signs
// cannot cancel at one sampled instant.
double pendulum_error(const std::string& scheme, double h, double T,
                      const std::vector<std::string>& sets = {}) {
  Simulation sim(load_scene("pendulum"), parts(scheme));
  tight(sim);
  for (const std::string& kv : sets) sim.set_option(kv);
  PendulumReference ref{0.2, 0.0};
  const int n = static_cast<int>(std::lround(T / h));
  double worst = 0;
  for (int k = 0; k < n; ++k) {
    sim.step(h);
    ref.advance(h);
    worst = std::max(worst, std::abs(joint_position(sim.model(), sim.data(), 0) - ref.th));
  }
  return worst;
}

void check_all(const ValidationResult& r) {
  REQUIRE(!r.quantities.empty());
  for (const auto& q : r.quantities) {
    CAPTURE(r.name);
    CAPTURE(q.name);
    CAPTURE(q.measured);
    CAPTURE(q.reference);
    CAPTURE(q.tolerance);
    CHECK(std::isfinite(q.measured));
    CHECK(q.error <= q.tolerance);
  }
}

}  // namespace

TEST_CASE("moreau: ballistic flight is exact (constant acceleration), the velocity scheme first order") {
  for (double h : {0.02, 0.01}) {
    CAPTURE(h);
    CHECK(ballistic_error("moreau", h) < 1e-12);
  }
  // Semi-implicit Euler: x_N = x0 + v0 T + (g T^2 / 2)(1 + h/T): error g T h / 2.
  const double e1 = ballistic_error("velocity", 0.02), e2 = ballistic_error("velocity", 0.01);
  CHECK(e1 == doctest::Approx(0.5 * kG * 0.8 * 0.02).epsilon(1e-9));
  CHECK(e1 / e2 == doctest::Approx(2.0).epsilon(1e-9));
}

TEST_CASE("moreau: pendulum (no contact) converges at second order") {
  // max_k |theta_k - theta(t_k)| over one period (T = 2 s, 0.2 rad amplitude)
  // against the ODE's RK4 reference. Measured (docs/moreau.md): 125, 26.1,
  // 5.93, 1.41, 0.343 urad at h = 20, 10, 5, 2.5, 1.25 ms, ratios 4.79, 4.39,
  // 4.21, 4.11: second order with an O(h^3) term that still shows at 10 ms.
  // The band [3.5, 4.5] for h = 10 -> 5 -> 2.5 ms holds that and excludes
  // first order (2) by far. The velocity scheme on the same runs: ratio 2.00.
  const double T = 2.0;
  const double e[3] = {pendulum_error("moreau", 0.01, T), pendulum_error("moreau", 0.005, T),
                       pendulum_error("moreau", 0.0025, T)};
  for (int i = 0; i < 2; ++i) {
    CAPTURE(i);
    CAPTURE(e[i]);
    CAPTURE(e[i + 1]);
    CHECK(e[i] / e[i + 1] >= 3.5);
    CHECK(e[i] / e[i + 1] <= 4.5);
  }
  const double v1 = pendulum_error("velocity", 0.01, T), v2 = pendulum_error("velocity", 0.005, T);
  CAPTURE(v1);
  CAPTURE(v2);
  CHECK(v1 / v2 == doctest::Approx(2.0).epsilon(0.05));
  CHECK(e[0] < 0.01 * v1);
}

TEST_CASE("moreau: incline slide and roll within 1 % at h = 50 ms, exact to the solver tolerance") {
  // The issue's targets: at most 1 % at 50 ms (velocity scheme: h/T = 5 %).
  // Sliding: incline_box with mu = 0.2 < tan(20 deg) = 0.364; rolling: incline_sphere.
  // The order sweep of docs/moreau.md ("Measured order"), h = 100, 50, 25,
  // 12.5 ms over 1 s: a constant acceleration, so the midpoint drift has no
  // truncation error and moreau's error is the solver's (measured <= 1.6e-7
  // sliding, <= 2.6e-7 rolling with default settings; tight settings here):
  // no ratio of 4 can be observed on these scenes (the order 2 is asserted on
  // the pendulum, above). The velocity scheme's error is exactly h/T: ratio 2.
  const double hs[] = {0.1, 0.05, 0.025, 0.0125};
  double vs[4], vr[4];
  for (int i = 0; i < 4; ++i) {
    const double h = hs[i];
    CAPTURE(h);
    const double slide = incline_error("incline_box", "moreau", h, 0.2);
    const double roll = incline_error("incline_sphere", "moreau", h);
    CAPTURE(slide);
    CAPTURE(roll);
    // Constant acceleration: exact up to the solver's tolerance (hence also
    // within the issue's 1 % at 50 ms).
    CHECK(slide <= 1e-6);
    CHECK(roll <= 1e-6);
    vs[i] = incline_error("incline_box", "velocity", h, 0.2);
    vr[i] = incline_error("incline_sphere", "velocity", h);
    CHECK(vs[i] == doctest::Approx(h / 1.0).epsilon(0.01));  // h/T
    CHECK(vr[i] == doctest::Approx(h / 1.0).epsilon(0.01));
    if (i > 0) {
      CHECK(vs[i - 1] / vs[i] == doctest::Approx(2.0).epsilon(0.01));  // first order
      CHECK(vr[i - 1] / vr[i] == doctest::Approx(2.0).epsilon(0.01));
    }
  }
  // The issue's bounds at h = 50 ms, stated as such.
  CHECK(incline_error("incline_box", "moreau", 0.05, 0.2) <= 0.01);
  CHECK(incline_error("incline_sphere", "moreau", 0.05) <= 0.01);
  CHECK(vs[1] <= 0.05 * 1.01);
  CHECK(vr[1] <= 0.05 * 1.01);
}

TEST_CASE("moreau: every law and solver the velocity scheme takes, and within 1 % on the inclines") {
  // The combinations' refusal rules are the velocity scheme's (MoreauScheme::
  // accepts is its phases'): the same triples run. Each valid one rolls
  // incline_sphere and slides sliding_box (stop included) at h = 50 ms within
  // 1 % of the analytic distance; measured <= 3e-6 m of 1.198 m rolling and
  // <= 1.3e-3 m of 0.408 m sliding (ccp's compliance), default solver settings.
  const std::unique_ptr<Scheme> moreau = make_scheme("moreau"), velocity = make_scheme("velocity");
  int valid = 0;
  for (const PartInfo& law_info : contact_model_names())
    for (const PartInfo& solver_info : solver_names()) {
      if (!law_info.builtin || !solver_info.builtin) continue;  // parts other tests register
      const auto law = make_contact_model(law_info.name);
      const auto solver = make_solver(solver_info.name);
      CAPTURE(law_info.name);
      CAPTURE(solver_info.name);
      const bool runs = combination_refusal(*moreau, *law, *solver).empty();
      CHECK(runs == combination_refusal(*velocity, *law, *solver).empty());
      if (!runs) continue;
      ++valid;
      PartChoice p{law_info.name, solver_info.name, "moreau"};
      const double h = 0.05;
      {
        Model model = load_scene("incline_sphere");
        const double reference = incline_sphere_distance(model, 1.0).value;
        const Vec3 down = incline_downhill(model);
        Simulation sim(model, p);
        const Vec3 x0 = sim.data().x_W[0];
        run_to(sim, 1.0, h);
        CHECK(std::abs((sim.data().x_W[0] - x0).dot(down) - reference) <= 0.01 * reference);
      }
      {
        Model model = load_scene("sliding_box");
        Simulation sim(model, p);
        const double reference = sliding_box_distance(sim.model(), sim.data()).value;
        const Vec3 x0 = sim.data().x_W[0];
        run_to(sim, 1.0, h);
        CHECK(std::abs((sim.data().x_W[0] - x0).x() - reference) <= 0.01 * reference);
      }
    }
  CHECK(valid >= 10);
}

TEST_CASE("moreau: resting contact is stable") {
  // incline_box sticks (mu = 0.5 > tan 20 deg): it must stay where it is, with
  // the gap at the midpoint predicted over h/2 keeping penetration bounded.
  for (double h : {0.001, 0.05}) {
    CAPTURE(h);
    Simulation sim(load_scene("incline_box"), parts("moreau"));
    tight(sim);
    const Vec3 x0 = sim.data().x_W[0];
    double pen = 0;
    const int n = static_cast<int>(std::lround(2.0 / h));
    for (int k = 0; k < n; ++k) {
      sim.step(h);
      pen = std::max(pen, sim.data().metrics.max_penetration);
    }
    CHECK((sim.data().x_W[0] - x0).norm() < 1e-6);
    CHECK(sim.data().v_W[0].norm() < 1e-6);
    CHECK(pen < 1e-5);
  }
  // A stack at rest, every mass ratio (the validation's tolerances).
  for (double ratio : {1.0, 100.0, 0.01}) {
    CAPTURE(ratio);
    check_all(validate_stacked_boxes(parts("moreau"), ratio, 1e-3));
  }
}

TEST_CASE("moreau: an inelastic impact (e = 0) stops the ball and never adds energy") {
  // bouncing_ball with restitution 0: Moreau's impact law v_n+ >= 0. After the
  // impact the ball rests on the floor; its energy never rises above the
  // initial potential energy (the impact only dissipates).
  Simulation sim(load_scene("bouncing_ball"), parts("moreau"));
  sim.set_option("scheme.restitution=0");
  tight(sim);
  const double h = 1e-3;
  const double m = sim.model().bodies[0].mass;
  auto energy = [&] {
    const Data& d = sim.data();
    return 0.5 * m * d.v_W[0].squaredNorm() + m * kG * d.x_W[0].z();
  };
  const double E0 = energy(), z0 = sim.data().x_W[0].z();
  double pen = 0, E_max = E0;
  for (int k = 0; k < 1500; ++k) {
    sim.step(h);
    pen = std::max(pen, sim.data().metrics.max_penetration);
    E_max = std::max(E_max, energy());
  }
  CHECK(E_max <= E0 + 1e-9 * std::abs(E0) + 1e-9);
  CHECK(std::abs(sim.data().v_W[0].z()) < 1e-6);
  CHECK(sim.data().x_W[0].z() < z0 - 0.5);  // it fell and stayed down
  CHECK(pen < 1e-3);
}

TEST_CASE("moreau: the elementary validations pass with their stated tolerances") {
  // The velocity scheme's validations (docs/validation.md) run with
  // moreau + desaxce + padmm at the scenes' steps, with their tolerances but
  // one, and the energy run tightened (the same cells as the validation
  // matrix's row moreau + desaxce + padmm):
  // - bouncing_ball's penetration: contacts are found at q_m, after a free
  //   half-step drift, so the midpoint penetrates by up to (h/2)|v_n| before
  //   the impact acts: (h/2) sqrt(2 g g0) = 2.2 mm at h = 1 ms for the 1 m
  //   drop (measured 1.31 mm; the end-of-step gap is positive after the
  //   rebound). Bound 2.5 mm.
  // - four_bar's largest one-step energy rise with Baumgarte off: with padmm's
  //   default stopping test single midpoint steps gain up to 1.1e-8 J (7.7e-10
  //   of |E|) at 400 Hz and 1.7e-9 J at 1 kHz; with an exact solve (padmm at
  //   tolerance 1e-12, as here; or newton, convex_newton) no step gains more
  //   than 4e-12 J, and the foundation's 1e-12 of |E| holds. The energy run
  //   is tightened, not the bound (docs/moreau.md, "Validations").
  const PartChoice p = parts("moreau");
  ValidationSetup drop;
  drop.tolerances.penetration = 2.5e-3;
  ValidationSetup linkage;
  for (const char* kv : {"solver.tol_primal=1e-12", "solver.tol_dual=1e-12", "solver.tol_compl=1e-12",
                         "solver.max_iterations=5000"})
    linkage.energy_options.push_back(kv);
  check_all(validate_box_ramp(p, 1e-3, ValidationSetup{}));
  check_all(validate_bouncing_ball(p, 1e-3, drop));
  for (double ratio : {1.0, 100.0, 1000.0, 0.01, 0.001}) {
    CAPTURE(ratio);
    check_all(validate_stacked_boxes(p, ratio, 1e-3, ValidationSetup{}));
  }
  check_all(validate_four_bar(p, 1.0 / 400, linkage));
  check_all(validate_four_bar(p, 1.0 / 1000, linkage));
  check_all(validate_pendulum(p, 1e-3, ValidationSetup{}));
}
