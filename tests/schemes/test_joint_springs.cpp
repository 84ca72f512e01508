// Joint springs (MJCF stiffness/springref), implicit rows like the position
// servos: oscillation periods against 2 pi sqrt(m/k) and against the scheme's
// own closed-form discrete period, energy, and MuJoCo on the same file.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/kinematics.hpp"
#include "core/metrics.hpp"
#include "io/mjcf.hpp"
#include "sim/simulation.hpp"
#include "support/tight_solves.hpp"

#ifdef CONTACTLAB_HAVE_MUJOCO
#include "peers/mujoco_peer.hpp"
#endif

using namespace contactlab;

namespace {

Simulation make(const std::string& body_xml, const std::string& compiler = "<compiler angle=\"radian\"/>") {
  const std::string xml = "<mujoco model=\"t\">" + compiler +
                          "<option timestep=\"0.001\" gravity=\"0 0 0\"/><worldbody>" + body_xml +
                          "</worldbody></mujoco>";
  Simulation sim(load_mjcf_string(xml, "test"), PartChoice{"desaxce", "padmm", "velocity"});
  test::tighten_solves(sim);
  sim.reset();
  return sim;
}

// Mean spacing of the upward zero crossings of x(t) (linear interpolation
// between steps), over `steps` steps of h.
double measured_period(Simulation& sim, int joint, double offset, double h, int steps, int* crossings) {
  std::vector<double> times;
  double prev = joint_position(sim.model(), sim.data(), joint) - offset;
  for (int n = 1; n <= steps; ++n) {
    sim.step(h);
    const double x = joint_position(sim.model(), sim.data(), joint) - offset;
    if (prev < 0 && x >= 0) times.push_back(h * (n - 1 + prev / (prev - x)));
    prev = x;
  }
  *crossings = static_cast<int>(times.size());
  if (times.size() < 2) return 0;
  return (times.back() - times.front()) / static_cast<double>(times.size() - 1);
}

// The velocity scheme's implicit spring, v+ = (v - h w^2 q) / (1 + (w h)^2) and
// q+ = q + h v+, turns the phase by atan(w h) per step: period 2 pi h / atan(w h).
double discrete_period(double omega, double h) { return 2 * kPi * h / std::atan(omega * h); }

}  // namespace

TEST_CASE("joint springs: a slide spring-mass oscillates with period 2 pi sqrt(m/k)") {
  // m = 2 kg, k = 50 N/m: T = 1.2566 s; released at rest 0.1 m from springref.
  Simulation sim = make(
      "<body name=\"cart\"><joint name=\"s\" type=\"slide\" axis=\"1 0 0\" stiffness=\"50\" springref=\"0.1\"/>"
      "<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"2\" contype=\"0\" conaffinity=\"0\"/></body>");
  const double h = 0.001, m = 2, k = 50, omega = std::sqrt(k / m);
  int crossings = 0;
  const double period = measured_period(sim, 0, 0.1, h, 5000, &crossings);
  REQUIRE(crossings >= 3);
  // Against the discrete period: the crossing interpolation errs by O((w h)^2 h)
  // per crossing, 1e-9 s here; 1e-6 relative leaves room for solver tolerance.
  CHECK(period == doctest::Approx(discrete_period(omega, h)).epsilon(1e-6));
  // Against the continuous 2 pi sqrt(m/k): the scheme's O((w h)^2 / 3) = 8e-6 shift.
  CHECK(period == doctest::Approx(2 * kPi * std::sqrt(m / k)).epsilon(2e-5));
}

TEST_CASE("joint springs: a torsional hinge oscillator and springref in degrees") {
  // Box 0.4 x 0.2 x 0.1 m, 2 kg, about z: I = m (a^2 + b^2) / 12; k = 3 N m/rad;
  // springref 30 degrees under compiler angle="degree" is pi/6 rad.
  Simulation sim = make(
      "<body name=\"rotor\"><joint name=\"j\" type=\"hinge\" axis=\"0 0 1\" stiffness=\"3\" springref=\"30\"/>"
      "<geom type=\"box\" size=\"0.2 0.1 0.05\" mass=\"2\" contype=\"0\" conaffinity=\"0\"/></body>",
      "<compiler angle=\"degree\"/>");
  CHECK(sim.model().joints[0].springref == doctest::Approx(kPi / 6).epsilon(1e-15));
  const double h = 0.001, I = 2.0 * (0.4 * 0.4 + 0.2 * 0.2) / 12.0, k = 3, omega = std::sqrt(k / I);
  // Released at q = 0, the oscillation spans [0, pi/3]: its largest angle checks the centre.
  int crossings = 0;
  const double period = measured_period(sim, 0, kPi / 6, h, 3000, &crossings);
  REQUIRE(crossings >= 3);
  CHECK(period == doctest::Approx(discrete_period(omega, h)).epsilon(1e-6));  // as the slide case
  CHECK(period == doctest::Approx(2 * kPi * std::sqrt(I / k)).epsilon(1e-4));  // (w h)^2 / 3 = 3.3e-5
}

TEST_CASE("joint springs: the spring energy is counted and the implicit spring never adds energy") {
  // The discrete map v+ = (v - h w^2 q) / (1 + a), q+ = q + h v+ (a = (w h)^2)
  // satisfies (1 + a) E+ = E exactly for E = (m/2) v^2 + (k/2) q^2 (expand
  // both sides), so without damping E_n = E_0 (1 + a)^-n: never a rise.
  Simulation sim = make(
      "<body name=\"cart\"><joint name=\"s\" type=\"slide\" axis=\"1 0 0\" stiffness=\"50\" springref=\"0.1\"/>"
      "<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"2\" contype=\"0\" conaffinity=\"0\"/></body>");
  const double h = 0.001, k = 50, m = 2, a = k / m * h * h;
  const double e0 = mechanical_energy(sim.model(), sim.data());
  CHECK(e0 == doctest::Approx(0.5 * k * 0.1 * 0.1).epsilon(1e-12));  // at rest, 0.1 m from springref
  double previous = e0, largest_rise = -1;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    sim.step(h);
    const double e = mechanical_energy(sim.model(), sim.data());
    largest_rise = std::max(largest_rise, e - previous);
    previous = e;
  }
  // Each step removes a E ~ 6e-6 J; solver tolerance 1e-11 on velocities ~0.5 m/s
  // moves E by ~1e-11 J: a rise above 1e-10 J would be the scheme's.
  CHECK(largest_rise <= 1e-10);
  CHECK(largest_rise < 0);
  // Closed form over 2000 steps (a 4.9 % loss); 1e-6 relative covers the accumulated solver error.
  CHECK(previous == doctest::Approx(e0 * std::pow(1 + a, -n)).epsilon(1e-6));
}

#ifdef CONTACTLAB_HAVE_MUJOCO
TEST_CASE("joint springs: a spring pendulum agrees with MuJoCo and converges to it with the step") {
  // tests/data/spring_pendulum.xml: gravity and a spring toward 20 degrees. Both
  // engines are first-order (MuJoCo's Euler with an explicit spring, contactlab's
  // implicit one), so the orientation difference over 1 s must fall about tenfold
  // from h = 1 ms to 0.1 ms; 0.2 allows the second-order terms. The energy, a
  // stiffness-ignoring reading's failure (it gains tens of J), must agree too.
  const std::string path = std::string(CONTACTLAB_TEST_DATA) + "/spring_pendulum.xml";
  double worst_at[2] = {0, 0}, energy_gap[2] = {0, 0};
  const double steps[2] = {1e-3, 1e-4};
  for (int c = 0; c < 2; ++c) {
    const double dt = steps[c];
    CAPTURE(dt);
    Simulation sim(load_mjcf_file(path), PartChoice{"desaxce", "padmm", "velocity"});
    sim.reset();
    MujocoPeer peer(path, sim.model());
    peer.set_timestep(dt);
    peer.reset();
    Data theirs;
    theirs.init(sim.model());
    const long n = std::lround(1.0 / dt);
    for (long s = 0; s < n; ++s) {
      sim.step(dt);
      peer.step({});
      peer.read_state(theirs);
      for (int b = 0; b < sim.model().num_bodies(); ++b)
        worst_at[c] = std::max(worst_at[c], sim.data().q_WB[b].angularDistance(theirs.q_WB[b]));
      energy_gap[c] = std::max(energy_gap[c], std::abs(mechanical_energy(sim.model(), sim.data()) -
                                                       mechanical_energy(sim.model(), theirs)));
    }
  }
  CAPTURE(worst_at[0]);
  CAPTURE(worst_at[1]);
  CAPTURE(energy_gap[0]);
  CAPTURE(energy_gap[1]);
  MESSAGE("spring pendulum vs MuJoCo: orientation " << worst_at[0] << " rad at 1 ms, " << worst_at[1]
                                                   << " rad at 0.1 ms; energy " << energy_gap[0] << " J, "
                                                   << energy_gap[1] << " J");
  CHECK(worst_at[1] > 0);  // guard: two engines, not one
  CHECK(worst_at[1] <= 0.2 * worst_at[0]);
  CHECK(energy_gap[1] <= 0.2 * energy_gap[0]);
  // The spring stores 0.5 k (20 deg)^2 = 0.30 J at the start; at 0.1 ms the two
  // engines' energies must agree far better than that.
  CHECK(energy_gap[1] <= 0.01);
}
#endif
