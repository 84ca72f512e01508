// Fixed tendons (limit, spring, damper) and joint/tendon equalities: rows of
// one coordinate each (schemes/tendon_rows.hpp), against closed-form motion.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/kinematics.hpp"
#include "core/metrics.hpp"
#include "io/mjcf.hpp"
#include "sim/simulation.hpp"
#include "support/tight_solves.hpp"

using namespace contactlab;

namespace {

// Two rotors about z hinged to the world (no gravity), inertias I1 = 2 I0 and
// I2 = I0 with I0 = (0.4^2 + 0.2^2)/12 kg m^2 (a 1 kg box 0.4 x 0.2 x 0.1 m),
// motors m1, m2, and `extra` sections.
Simulation rotors(const std::string& extra, const std::string& joint2_attrs = "") {
  const std::string xml =
      "<mujoco><compiler angle=\"radian\"/><option timestep=\"0.001\" gravity=\"0 0 0\"/><worldbody>"
      "<body name=\"r1\"><joint name=\"j1\" type=\"hinge\" axis=\"0 0 1\"/>"
      "<geom type=\"box\" size=\"0.2 0.1 0.05\" mass=\"2\" contype=\"0\" conaffinity=\"0\"/></body>"
      "<body name=\"r2\" pos=\"1 0 0\"><joint name=\"j2\" type=\"hinge\" axis=\"0 0 1\" " +
      joint2_attrs +
      "/>"
      "<geom type=\"box\" size=\"0.2 0.1 0.05\" mass=\"1\" contype=\"0\" conaffinity=\"0\"/></body>"
      "</worldbody>" +
      extra +
      "<actuator><motor name=\"m1\" joint=\"j1\"/><motor name=\"m2\" joint=\"j2\"/></actuator></mujoco>";
  Simulation sim(load_mjcf_string(xml, "rotors.xml"), PartChoice{"desaxce", "padmm", "velocity"});
  test::tighten_solves(sim);
  sim.reset();
  return sim;
}

const double kI0 = (0.4 * 0.4 + 0.2 * 0.2) / 12.0;

double q(const Simulation& sim, int j) { return joint_position(sim.model(), sim.data(), j); }
double qd(const Simulation& sim, int j) { return joint_velocity(sim.model(), sim.data(), j); }

}  // namespace

TEST_CASE("tendon rows: a linear joint equality couples two rotors as one inertia") {
  // q1 = 2 q2 and a torque tau on j2: the coupled coordinate q2 has inertia
  // I2 + 4 I1 (kinetic energy (I1 (2 q2')^2 + I2 q2'^2) / 2), so after n steps
  // q2' = n h tau / (I2 + 4 I1) exactly for the velocity scheme.
  Simulation sim = rotors("<equality><joint joint1=\"j1\" joint2=\"j2\" polycoef=\"0 2 0 0 0\"/></equality>");
  const double h = 0.001, tau = 0.05, I1 = 2 * kI0, I2 = kI0;
  double worst = 0;
  for (int i = 0; i < 1000; ++i) {
    sim.data().ctrl[1] = tau;
    sim.step(h);
    worst = std::max(worst, std::abs(q(sim, 0) - 2 * q(sim, 1)));
  }
  CHECK(qd(sim, 1) == doctest::Approx(1000 * h * tau / (I2 + 4 * I1)).epsilon(1e-7));  // solver tolerance
  CHECK(qd(sim, 0) == doctest::Approx(2 * qd(sim, 1)).epsilon(1e-7));
  // A linear coupling of two fixed-axis hinges is held exactly by its velocity
  // row: only the solver's 1e-11 per step accumulates.
  CHECK(worst <= 1e-8);
  CHECK(q(sim, 1) > 0.1);  // guard: it moved
}

TEST_CASE("tendon rows: a quadratic joint equality holds to the scheme's second-order drift") {
  // q1 = 0.5 q2 + 1.5 q2^2: the velocity row holds dc/dt = 0 at q-, so each step
  // adds O(h^2 |c''| q2'^2) = 3 h^2 q2'^2 to c, which Baumgarte (0.1 per step)
  // removes: steady |c| <= 3 h^2 q2'^2 / 0.1, with q2' <= 2.5 rad/s here: 1.9e-4.
  Simulation sim = rotors("<equality><joint joint1=\"j1\" joint2=\"j2\" polycoef=\"0 0.5 1.5\"/></equality>");
  const double h = 0.001;
  double worst = 0, fastest = 0;
  for (int i = 0; i < 1000; ++i) {
    sim.data().ctrl[1] = 0.05;
    sim.step(h);
    const double x = q(sim, 1);
    worst = std::max(worst, std::abs(q(sim, 0) - (0.5 * x + 1.5 * x * x)));
    fastest = std::max(fastest, std::abs(qd(sim, 1)));
  }
  CAPTURE(fastest);
  CHECK(fastest <= 2.5);
  CHECK(worst <= 3 * h * h * 2.5 * 2.5 / 0.1);
  CHECK(q(sim, 1) > 0.1);  // guard: it moved, so the quadratic term mattered (1.5 q^2 > 0.015)
}

TEST_CASE("tendon rows: a joint equality without joint2 holds a joint at polycoef 0") {
  Simulation sim = rotors("<equality><joint joint1=\"j1\" polycoef=\"0.2\"/></equality>");
  for (int i = 0; i < 2000; ++i) {
    sim.data().ctrl[0] = 0.1;
    sim.step(0.001);
  }
  // Baumgarte closes the 0.2 rad offset geometrically (factor 0.9 per step): gone after 2000 steps.
  CHECK(q(sim, 0) == doctest::Approx(0.2).epsilon(1e-6));
}

TEST_CASE("tendon rows: a fixed tendon's limit stops the coupled motion") {
  // L = q1 + q2 limited to [-0.5, 0.5]; torques 0.02 on each rotor. Free flight
  // q_i = tau t^2 / (2 I_i) reaches L = 0.5 at t = sqrt(2 * 0.5 / (tau (1/I1 + 1/I2))).
  Simulation sim = rotors(
      "<tendon><fixed name=\"t\" range=\"-0.5 0.5\"><joint joint=\"j1\" coef=\"1\"/><joint joint=\"j2\" "
      "coef=\"1\"/></fixed></tendon>");
  const double h = 0.001, tau = 0.02, I1 = 2 * kI0, I2 = kI0;
  const double t_hit = std::sqrt(2 * 0.5 / (tau * (1 / I1 + 1 / I2)));
  REQUIRE(t_hit < 1.5);
  double largest = 0;
  for (int i = 0; i < 3000; ++i) {
    sim.data().ctrl[0] = tau;
    sim.data().ctrl[1] = tau;
    sim.step(h);
    largest = std::max(largest, q(sim, 0) + q(sim, 1));
    if (i == static_cast<int>(0.9 * t_hit / h)) {
      // Before the limit: free flight (velocity scheme: q_n = tau h^2 n (n + 1) / (2 I)).
      const double n = i + 1;
      CHECK(q(sim, 1) == doctest::Approx(tau * h * h * n * (n + 1) / (2 * I2)).epsilon(1e-6));
    }
  }
  // The limit row allows one step's overshoot h * (L' at impact), ~1e-3, then Baumgarte removes it.
  CHECK(largest <= 0.5 + 2e-3);
  CHECK(q(sim, 0) + q(sim, 1) == doctest::Approx(0.5).epsilon(1e-4));
  // At the hit q_i' = tau t / I_i; the inelastic limit impulse P along (1, 1)
  // makes L' = 0: tau t (1/I1 + 1/I2) = P (1/I1 + 1/I2), P = tau t, so both
  // rotors stop, and the limit force tau then balances both torques. Until
  // then q1 / q2 = I2 / I1 = 1/2: q2 = 1/3 (shifted by the overshoot's removal).
  CHECK(std::abs(qd(sim, 0)) <= 1e-6);
  CHECK(std::abs(qd(sim, 1)) <= 1e-6);
  CHECK(std::abs(q(sim, 1) - 1.0 / 3.0) <= 2e-3);
}

TEST_CASE("tendon rows: a fixed tendon spring is a joint spring of stiffness k coef^2") {
  // L = 2 q2 with k = 3 toward springlength 0.4 (q2 = 0.2): a torsional spring of
  // stiffness 4 k on j2; period 2 pi h / atan(w h) as for joint springs
  // (tests/schemes/test_joint_springs.cpp), energy (k/2)(L - 0.4)^2 at rest.
  Simulation sim = rotors(
      "<tendon><fixed name=\"t\" stiffness=\"3\" springlength=\"0.4\"><joint joint=\"j2\" coef=\"2\"/></fixed>"
      "</tendon>");
  const double h = 0.001, I2 = kI0, k = 3, omega = std::sqrt(4 * k / I2);
  CHECK(mechanical_energy(sim.model(), sim.data()) == doctest::Approx(0.5 * k * 0.4 * 0.4).epsilon(1e-12));
  std::vector<double> crossings;
  double prev = q(sim, 1) - 0.2;
  for (int n = 1; n <= 3000; ++n) {
    sim.step(h);
    const double x = q(sim, 1) - 0.2;
    if (prev < 0 && x >= 0) crossings.push_back(h * (n - 1 + prev / (prev - x)));
    prev = x;
  }
  REQUIRE(crossings.size() >= 3);
  const double period = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  CHECK(period == doctest::Approx(2 * kPi * h / std::atan(omega * h)).epsilon(1e-6));
  CHECK(std::abs(q(sim, 0)) < 1e-12);  // j1 is not in the tendon
}

TEST_CASE("tendon rows: tendons and equalities are read and refusals name file and line") {
  const auto load = [](const std::string& extra) {
    const std::string xml =
        "<mujoco><worldbody>\n"
        "<body name=\"a\"><joint name=\"ja\" type=\"hinge\" springref=\"10\"/><geom size=\"0.1\" mass=\"1\"/>"
        "<body name=\"b\"><joint name=\"jb\" type=\"slide\"/><geom size=\"0.1\" mass=\"1\"/>"
        "<body name=\"c\"><joint name=\"jc\" type=\"hinge\"/><geom size=\"0.1\" mass=\"1\"/>"
        "<body name=\"d\"><joint name=\"jd\" type=\"ball\"/><geom size=\"0.1\" mass=\"1\"/>"
        "</body></body></body></body></worldbody>\n" +
        extra + "</mujoco>";
    return load_mjcf_string(xml, "t.xml");
  };
  const Model m = load("<tendon><fixed name=\"t\" limited=\"true\" range=\"-1 2\" damping=\"0.5\">"
                       "<joint joint=\"ja\" coef=\"2\"/><joint joint=\"jb\" coef=\"-1\"/></fixed></tendon>"
                       "<equality><tendon tendon1=\"t\" polycoef=\"0.1\"/><joint joint1=\"jb\" joint2=\"ja\"/>"
                       "</equality>");
  REQUIRE(m.tendons.size() == 1);
  CHECK(m.tendons[0].terms.size() == 2);
  CHECK(m.tendons[0].terms[1].coef == -1.0);
  CHECK(m.tendons[0].limited);
  CHECK(m.tendons[0].range_hi == 2.0);
  // springlength absent (MuJoCo's -1): the length at the springrefs, 2 * 10 degrees.
  CHECK(m.tendons[0].springlength == doctest::Approx(2 * 10 * kPi / 180).epsilon(1e-15));
  REQUIRE(m.scalar_equalities.size() == 2);
  CHECK(m.scalar_equalities[0].tendons);
  CHECK(m.scalar_equalities[0].second == -1);
  CHECK(m.scalar_equalities[0].polycoef[0] == 0.1);
  CHECK(m.scalar_equalities[1].polycoef[1] == 1.0);  // MuJoCo's default polycoef 0 1 0 0 0
  struct Case {
    const char* xml;
    const char* message;
  };
  const Case cases[] = {
      {"<tendon><fixed damping=\"1\"><joint joint=\"ja\" coef=\"1\"/><joint joint=\"jc\" coef=\"1\"/></fixed></tendon>",
       "couples joints of 3 moving bodies"},
      {"<tendon><fixed><joint joint=\"jd\" coef=\"1\"/></fixed></tendon>", "is not a hinge or slide joint"},
      {"<tendon><fixed><joint joint=\"nope\" coef=\"1\"/></fixed></tendon>", "unknown joint 'nope'"},
      {"<tendon><fixed frictionloss=\"1\"><joint joint=\"ja\" coef=\"1\"/></fixed></tendon>",
       "frictionloss is not supported"},
      {"<tendon><spatial range=\"0 1\"><site site=\"s\"/></spatial></tendon>", "only <fixed> tendons are supported"},
      {"<equality><joint joint1=\"ja\" joint2=\"jc\"/></equality>", "couples joints of 3 moving bodies"},
      {"<equality><joint joint1=\"ja\" joint2=\"ja\"/></equality>", "couples an element to itself"},
      {"<equality><tendon tendon1=\"x\"/></equality>", "unknown tendon 'x'"},
      {"<equality><joint joint1=\"ja\" active=\"false\"/></equality>", "inactive equalities are not supported"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.xml);
    CHECK_THROWS_WITH_AS(load(c.xml), doctest::Contains("t.xml:3:"), MjcfError);
    CHECK_THROWS_WITH_AS(load(c.xml), doctest::Contains(c.message), MjcfError);
  }
  // Without a limit, spring or damper a fixed tendon is no row: any joints (an actuator's path).
  CHECK_NOTHROW(load("<tendon><fixed><joint joint=\"ja\" coef=\"1\"/><joint joint=\"jc\" coef=\"1\"/></fixed></tendon>"));
  // A spatial tendon that exerts nothing is ignored with a warning, as before.
  CHECK_NOTHROW(load("<tendon><spatial name=\"loose\"><site site=\"s\"/></spatial></tendon>"));
}

TEST_CASE("tendon rows: tendon_pendulums.xml swings into its tendon limit") {
  // The gradient checks (tests/sim/test_gradients_rows.cpp) count on the limit
  // row being active for part of their 150 steps: L = q1 - q2 reaches 0.3 or -0.3.
  Simulation sim(load_mjcf_file(std::string(CONTACTLAB_TEST_DATA) + "/tendon_pendulums.xml"),
                 PartChoice{"desaxce", "padmm", "velocity"});
  sim.reset("swing");
  double largest = 0;
  int at_limit = 0;
  for (int i = 0; i < 150; ++i) {
    sim.data().ctrl[0] = 0.5;
    sim.step(0.002);
    const double L = std::abs(q(sim, 0) - q(sim, 1));
    largest = std::max(largest, L);
    if (L > 0.3 - 1e-3) ++at_limit;
  }
  CAPTURE(largest);
  CHECK(at_limit > 0);
  CHECK(largest <= 0.3 + 5e-3);  // one step's overshoot at most, h |L'| ~ 2e-3
}

TEST_CASE("tendon rows: a motor on a fixed tendon drives each joint by its coefficient") {
  // L = 0.6 q1 - 0.8 q2 and a motor on L with gear 2, ctrl 1.5: the tendon
  // force 3 N m acts on j1 as 0.6 * 3 and on j2 as -0.8 * 3 (its moment arms),
  // so after n steps q1' = n h 1.8 / I1 and q2' = -n h 2.4 / I2, exactly for
  // the velocity scheme up to the hinge rows' solver tolerance.
  const std::string xml =
      "<mujoco><compiler angle=\"radian\"/><option timestep=\"0.001\" gravity=\"0 0 0\"/><worldbody>"
      "<body name=\"r1\"><joint name=\"j1\" type=\"hinge\" axis=\"0 0 1\"/>"
      "<geom type=\"box\" size=\"0.2 0.1 0.05\" mass=\"2\" contype=\"0\" conaffinity=\"0\"/></body>"
      "<body name=\"r2\" pos=\"1 0 0\"><joint name=\"j2\" type=\"hinge\" axis=\"0 0 1\"/>"
      "<geom type=\"box\" size=\"0.2 0.1 0.05\" mass=\"1\" contype=\"0\" conaffinity=\"0\"/></body></worldbody>"
      "<tendon><fixed name=\"t\"><joint joint=\"j1\" coef=\"0.6\"/><joint joint=\"j2\" coef=\"-0.8\"/></fixed></tendon>"
      "<actuator><motor name=\"pull\" tendon=\"t\" gear=\"2\" ctrlrange=\"-2 2\"/></actuator></mujoco>";
  Simulation sim(load_mjcf_string(xml, "tendon_motor.xml"), PartChoice{"desaxce", "padmm", "velocity"});
  test::tighten_solves(sim);
  sim.reset();
  REQUIRE(sim.model().actuators[0].tendon == 0);
  const double h = 0.001, I1 = 2 * kI0, I2 = kI0;
  for (int i = 0; i < 500; ++i) {
    sim.data().ctrl[0] = 1.5;
    sim.step(h);
  }
  CHECK(qd(sim, 0) == doctest::Approx(500 * h * 1.8 / I1).epsilon(1e-7));
  CHECK(qd(sim, 1) == doctest::Approx(-500 * h * 2.4 / I2).epsilon(1e-7));
  // ctrlrange clamps the control before the gear: 5 acts as 2.
  sim.reset();
  sim.data().ctrl[0] = 5;
  sim.step(h);
  CHECK(qd(sim, 0) == doctest::Approx(h * 0.6 * 4 / I1).epsilon(1e-7));
}

TEST_CASE("tendon rows: tendon transmissions other than a motor on a fixed tendon are refused") {
  const std::string head =
      "<mujoco><worldbody><body><joint name=\"j\" type=\"hinge\"/><geom size=\"0.1\"/></body></worldbody>"
      "<tendon><fixed name=\"t\"><joint joint=\"j\" coef=\"1\"/></fixed>"
      "<spatial name=\"s\"><site site=\"a\"/><site site=\"b\"/></spatial></tendon><actuator>\n";
  struct Case {
    const char* actuator;
    const char* message;
  };
  for (const Case& c : {Case{"<position tendon=\"t\" kp=\"1\"/>", "only a motor (or a motor-like <general>) can act on a tendon"},
                        Case{"<general tendon=\"t\" gainprm=\"1\" biastype=\"affine\" biasprm=\"0 -1 0\"/>",
                             "only a motor (or a motor-like <general>) can act on a tendon"},
                        Case{"<motor tendon=\"nope\"/>", "unknown tendon 'nope'"},
                        Case{"<motor tendon=\"s\"/>", "is spatial; only fixed tendons can carry an actuator"},
                        Case{"<motor tendon=\"t\" joint=\"j\"/>", "names both a joint and a tendon"}}) {
    CAPTURE(c.actuator);
    std::vector<std::string> warnings;
    CHECK_THROWS_WITH_AS(load_mjcf_string(head + c.actuator + "</actuator></mujoco>", "t.xml", &warnings),
                         doctest::Contains(c.message), MjcfError);
  }
}
