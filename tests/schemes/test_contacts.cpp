// Contact rows of the velocity scheme: restitution per pair, collision
// filtering, friction combination (docs/validation.md).
#include <doctest/doctest.h>

#include "io/mjcf.hpp"
#include "sim/simulation.hpp"

using namespace contactlab;

namespace {
Simulation make(const std::string& xml_inside) {
  const std::string xml = "<mujoco model=\"t\"><option timestep=\"0.001\" gravity=\"0 0 -9.81\"/>" + xml_inside + "</mujoco>";
  return Simulation(load_mjcf_string(xml, "test"), PartChoice{});
}
const char* kBall =
    "<worldbody><geom name=\"floor\" type=\"plane\" size=\"5 5 0.1\"/>"
    "<body name=\"ball\" pos=\"0 0 0.2\"><freejoint/><geom name=\"ball\" type=\"sphere\" size=\"0.1\" mass=\"1\"/></body>"
    "</worldbody>";
}  // namespace

TEST_CASE("contacts: Newton restitution of a geom pair sets the rebound speed") {
  for (double e : {0.0, 0.5, 0.9}) {
    CAPTURE(e);
    Simulation sim = make(std::string(kBall) + "<custom><numeric name=\"contactlab.restitution.ball.floor\" data=\"" +
                          std::to_string(e) + "\"/></custom>");
    sim.data().v_W[0] = Vec3(0, 0, -2.0);
    double v_in = 0, v_out = 0;
    for (int i = 0; i < 200; ++i) {
      const double before = sim.data().v_W[0].z();
      sim.step(0.001);
      if (before < 0 && sim.data().v_W[0].z() >= 0 && v_out == 0) {
        v_in = before;
        v_out = sim.data().v_W[0].z();
      }
    }
    REQUIRE(v_in < 0);
    // v+ = -e v- exactly for the step that resolves the impact (solver tolerance).
    CHECK(v_out == doctest::Approx(-e * v_in).epsilon(1e-5));
  }
}

TEST_CASE("contacts: contype/conaffinity and contact/exclude filter pairs") {
  const std::string two =
      "<worldbody><body name=\"a\" pos=\"0 0 0\"><freejoint/><geom name=\"ga\" type=\"sphere\" size=\"0.1\" mass=\"1\" MASK_A/></body>"
      "<body name=\"b\" pos=\"0.15 0 0\"><freejoint/><geom name=\"gb\" type=\"sphere\" size=\"0.1\" mass=\"1\" MASK_B/></body></worldbody>";
  auto count = [&](const std::string& ma, const std::string& mb, const std::string& extra) {
    std::string s = two;
    s.replace(s.find("MASK_A"), 6, ma);
    s.replace(s.find("MASK_B"), 6, mb);
    Simulation sim = make(s + extra);
    sim.step(1e-3);
    return sim.data().metrics.num_contacts;
  };
  CHECK(count("", "", "") == 1);
  CHECK(count("contype=\"1\" conaffinity=\"0\"", "contype=\"1\" conaffinity=\"0\"", "") == 0);
  CHECK(count("contype=\"2\" conaffinity=\"0\"", "contype=\"0\" conaffinity=\"2\"", "") == 1);
  CHECK(count("", "", "<contact><exclude body1=\"a\" body2=\"b\"/></contact>") == 0);
}

TEST_CASE("contacts: overlapping spheres are pushed apart, momentum is conserved") {
  Simulation sim = make(
      "<worldbody><body name=\"a\" pos=\"0 0 0\"><freejoint/><geom type=\"sphere\" size=\"0.1\" mass=\"1\"/></body>"
      "<body name=\"b\" pos=\"0.19 0 0\"><freejoint/><geom type=\"sphere\" size=\"0.1\" mass=\"3\"/></body></worldbody>");
  sim.set_option("scheme.gyroscopic=false");
  // No gravity effect on the x momentum; contact impulses are internal.
  for (int i = 0; i < 50; ++i) sim.step(1e-3);
  const double px = 1 * sim.data().v_W[0].x() + 3 * sim.data().v_W[1].x();
  CHECK(px == doctest::Approx(0).epsilon(1e-9));
  CHECK(sim.data().v_W[1].x() > 0);  // guard: they were pushed apart
  CHECK(sim.data().x_W[1].x() - sim.data().x_W[0].x() > 0.199);
}
