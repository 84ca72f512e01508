// MJCF features that add forces or rows: joint stiffness/springref and
// frictionloss, <general> actuators, force ranges, refused actuator kinds.
// Each refusal must name the file and line and leave no model behind.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "io/mjcf.hpp"
#include "sim/simulation.hpp"

using namespace contactlab;

namespace {

const char* kSlider =
    "<body name=\"cart\"><joint name=\"s\" type=\"slide\" axis=\"1 0 0\"/>"
    "<geom type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1\" contype=\"0\" conaffinity=\"0\"/></body>";

// The actuator on line 3 of the document.
Model with_actuator(const std::string& actuator, std::vector<std::string>* warnings = nullptr) {
  return load_mjcf_string(std::string("<mujoco><option timestep=\"0.001\" gravity=\"0 0 0\"/>\n<worldbody>") + kSlider +
                              "</worldbody>\n<actuator>" + actuator + "</actuator></mujoco>",
                          "act.xml", warnings);
}

Model with_joint(const std::string& joint_attrs, const std::string& compiler = "") {
  return load_mjcf_string("<mujoco>" + compiler + "<worldbody>\n<body name=\"b\"><joint name=\"j\" " + joint_attrs +
                              "/><geom type=\"sphere\" size=\"0.1\" mass=\"1\"/></body></worldbody></mujoco>",
                          "joint.xml");
}

}  // namespace

TEST_CASE("mjcf rows: joint stiffness and springref are read (hinge springref in degrees)") {
  const Model hinge = with_joint("type=\"hinge\" stiffness=\"4\" springref=\"90\"");
  CHECK(hinge.joints[0].stiffness == 4.0);
  CHECK(hinge.joints[0].springref == doctest::Approx(kPi / 2).epsilon(1e-15));
  const Model radian = with_joint("type=\"hinge\" stiffness=\"4\" springref=\"0.5\"", "<compiler angle=\"radian\"/>");
  CHECK(radian.joints[0].springref == 0.5);
  const Model slide = with_joint("type=\"slide\" stiffness=\"2\" springref=\"0.25\"");
  CHECK(slide.joints[0].springref == 0.25);  // metres: never scaled
  const Model plain = with_joint("type=\"hinge\"");
  CHECK(plain.joints[0].stiffness == 0.0);
  CHECK(plain.joints[0].springref == 0.0);
}

TEST_CASE("mjcf rows: bad stiffness and frictionloss are refused with file and line") {
  CHECK_THROWS_WITH_AS(with_joint("type=\"hinge\" stiffness=\"-1\""), doctest::Contains("joint.xml:2:"), MjcfError);
  CHECK_THROWS_WITH_AS(with_joint("type=\"hinge\" stiffness=\"-1\""), doctest::Contains("must be >= 0"), MjcfError);
  CHECK_THROWS_WITH_AS(with_joint("type=\"ball\" stiffness=\"1\""),
                       doctest::Contains("stiffness is supported on hinge and slide joints only"), MjcfError);
  CHECK_THROWS_WITH_AS(with_joint("type=\"hinge\" frictionloss=\"0.1\""), doctest::Contains("joint.xml:2:"),
                       MjcfError);
  CHECK_THROWS_WITH_AS(with_joint("type=\"hinge\" frictionloss=\"0.1\""),
                       doctest::Contains("frictionloss is not supported"), MjcfError);
  CHECK_NOTHROW(with_joint("type=\"hinge\" frictionloss=\"0\""));  // MuJoCo's default: nothing to refuse
}

TEST_CASE("mjcf rows: general actuators map onto motor and servos exactly") {
  // MuJoCo's own expansions: <position kp> is gain kp, bias (0, -kp, -kv);
  // <velocity kv> is gain kv, bias (0, 0, -kv); <motor> is gain 1, no bias.
  const Model pos = with_actuator(
      "<general name=\"p\" joint=\"s\" gear=\"2\" gainprm=\"30\" biastype=\"affine\" biasprm=\"0 -30 -4\"/>");
  REQUIRE(pos.actuators.size() == 1);
  CHECK(pos.actuators[0].type == ActuatorType::Position);
  CHECK(pos.actuators[0].kp == 30.0);
  CHECK(pos.actuators[0].kv == 4.0);
  CHECK(pos.actuators[0].gear[0] == 2.0);
  const Model vel =
      with_actuator("<general name=\"v\" joint=\"s\" gainprm=\"7\" biastype=\"affine\" biasprm=\"0 0 -7\"/>");
  CHECK(vel.actuators[0].type == ActuatorType::Velocity);
  CHECK(vel.actuators[0].kp == 7.0);  // Actuator::kp holds the velocity gain
  const Model motor = with_actuator("<general name=\"m\" joint=\"s\" gear=\"3\" gainprm=\"5\"/>");
  CHECK(motor.actuators[0].type == ActuatorType::Motor);
  CHECK(motor.actuators[0].gear[0] == 15.0);  // the gain folded into the gear: force = gear g0 u
  const Model plain = with_actuator("<general name=\"m\" joint=\"s\"/>");  // MuJoCo defaults: gain 1, no bias
  CHECK(plain.actuators[0].type == ActuatorType::Motor);
  CHECK(plain.actuators[0].gear[0] == 1.0);
}

TEST_CASE("mjcf rows: a general position actuator runs exactly as the position servo it expands to") {
  // Same rows from the same numbers: the trajectories must be bit-identical.
  const auto run = [](const std::string& actuator) {
    Simulation sim(with_actuator(actuator), PartChoice{"desaxce", "padmm", "velocity"});
    sim.reset();
    for (int i = 0; i < 200; ++i) {
      sim.data().ctrl[0] = 0.3;
      sim.step(0.001);
    }
    return sim.data().x_W[0].x();
  };
  const double servo = run("<position name=\"p\" joint=\"s\" kp=\"30\" kv=\"4\" gear=\"2\"/>");
  const double general =
      run("<general name=\"p\" joint=\"s\" gear=\"2\" gainprm=\"30\" biastype=\"affine\" biasprm=\"0 -30 -4\"/>");
  CHECK(servo == general);
  CHECK(std::abs(servo) > 1e-3);  // guard: the servo moved the cart
}

TEST_CASE("mjcf rows: unsupported general actuators and actuator kinds are refused naming element and line") {
  struct Case {
    const char* xml;
    const char* message;
  };
  const Case cases[] = {
      {"<general name=\"g\" joint=\"s\" dyntype=\"filter\"/>", "dyntype=\"filter\" is not supported"},
      {"<general name=\"g\" joint=\"s\" dyntype=\"integrator\"/>", "dyntype=\"integrator\" is not supported"},
      {"<general name=\"g\" joint=\"s\" gaintype=\"muscle\"/>", "gaintype=\"muscle\" is not supported"},
      {"<general name=\"g\" joint=\"s\" gaintype=\"user\"/>", "gaintype=\"user\" is not supported"},
      {"<general name=\"g\" joint=\"s\" biastype=\"muscle\"/>", "biastype=\"muscle\" is not supported"},
      {"<general name=\"g\" joint=\"s\" biastype=\"affine\" biasprm=\"1 0 0\"/>", "is neither a motor"},
      {"<general name=\"g\" joint=\"s\" gainprm=\"5\" biastype=\"affine\" biasprm=\"0 -4 0\"/>", "is neither a motor"},
      {"<general name=\"g\" joint=\"s\" gainprm=\"5 1\"/>", "a fixed gain uses gainprm[0] only"},
      {"<muscle name=\"g\" joint=\"s\"/>", "actuator <muscle> 'g' is not supported"},
      {"<cylinder name=\"g\" joint=\"s\"/>", "actuator <cylinder> 'g' is not supported"},
      {"<general name=\"g\" site=\"x\"/>", "only joint and fixed-tendon transmissions are supported (found 'site')"},
      {"<position name=\"g\" joint=\"s\" kp=\"1\" forcerange=\"-1 1\"/>", "a force limit on a position or velocity"},
      {"<motor name=\"g\" joint=\"s\" forcelimited=\"true\"/>", "is forcelimited but has no forcerange"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.xml);
    CHECK_THROWS_WITH_AS(with_actuator(c.xml), doctest::Contains("act.xml:3:"), MjcfError);
    CHECK_THROWS_WITH_AS(with_actuator(c.xml), doctest::Contains(c.message), MjcfError);
  }
}

TEST_CASE("mjcf rows: a motor's forcerange is an exact control clamp") {
  // force = g0 u clamped to [lo, hi], so u is clamped to [lo/g0, hi/g0] (and to ctrlrange).
  const Model m = with_actuator("<motor name=\"m\" joint=\"s\" forcerange=\"-2 4\"/>");
  CHECK(m.actuators[0].ctrl_limited);
  CHECK(m.actuators[0].ctrl_lo == -2.0);
  CHECK(m.actuators[0].ctrl_hi == 4.0);
  const Model g = with_actuator("<general name=\"m\" joint=\"s\" gainprm=\"-2\" ctrlrange=\"-1 1.5\" forcerange=\"-2 4\"/>");
  // force -2 u in [-2, 4]: u in [-2, 1], then within ctrlrange [-1, 1.5]: [-1, 1].
  CHECK(g.actuators[0].ctrl_lo == -1.0);
  CHECK(g.actuators[0].ctrl_hi == 1.0);
  CHECK(g.actuators[0].gear[0] == -2.0);
  const Model off = with_actuator("<motor name=\"m\" joint=\"s\" forcelimited=\"false\" forcerange=\"-2 4\"/>");
  CHECK_FALSE(off.actuators[0].ctrl_limited);
  CHECK_THROWS_WITH_AS(with_actuator("<motor name=\"m\" joint=\"s\" ctrlrange=\"5 6\" forcerange=\"-2 4\"/>"),
                       doctest::Contains("forcerange and ctrlrange leave no control"), MjcfError);
}
