// sim/run_parameters.hpp: each rule at its edges; messages start with the flag and the value.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/run_parameters.hpp"

using namespace contactlab;

namespace {

// The refusal's message, or "" when accepted.
template <class F>
std::string refusal(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("run parameters: time step, duration and steps at their edges") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  CHECK(check_time_step(1.0) == 1.0);
  CHECK(check_time_step(1e-9) == 1e-9);
  CHECK(refusal([] { check_time_step(std::nextafter(1.0, 2.0)); }).rfind("--dt 1:", 0) == 0);
  CHECK(refusal([] { check_time_step(std::nextafter(1e-9, 0.0)); }).rfind("--dt ", 0) == 0);
  for (double bad : {0.0, -0.1, 1e300, nan, inf}) CHECK(!refusal([&] { check_time_step(bad); }).empty());
  CHECK(refusal([] { check_time_step(0, "--dt"); }).rfind("--dt 0: must be finite and in [1e-09, 1] s", 0) == 0);

  CHECK(check_duration(0) == 0);
  CHECK(check_duration(1e6) == 1e6);
  CHECK(refusal([] { check_duration(std::nextafter(1e6, 2e6)); }).rfind("--duration 1e+06:", 0) == 0);
  for (double bad : {-1.0, -5.0, nan, inf, 1e308, -std::numeric_limits<double>::denorm_min()})
    CHECK(!refusal([&] { check_duration(bad); }).empty());
  CHECK(!refusal([] { check_positive_duration(0); }).empty());
  CHECK(check_positive_duration(std::numeric_limits<double>::denorm_min()) > 0);

  CHECK(check_steps(0) == 0);
  CHECK(check_steps(limits::kMaxSteps) == limits::kMaxSteps);
  CHECK(refusal([] { check_steps(limits::kMaxSteps + 1); }).rfind("--steps 1000000001:", 0) == 0);
  CHECK(refusal([] { check_steps(-1); }).rfind("--steps -1:", 0) == 0);
  CHECK(refusal([] { check_steps(-5); }).rfind("--steps -5:", 0) == 0);

  CHECK(steps_for_duration(1, 0.01, "d") == 100);
  CHECK(steps_for_duration(1, 1e-9, "d") == limits::kMaxSteps);
  CHECK(refusal([] { steps_for_duration(1.01, 1e-9, "--duration 1.01"); }).rfind("--duration 1.01 at a time step", 0) == 0);
  CHECK(!refusal([] { steps_for_duration(1e308, 1e-9, "d"); }).empty());
}

TEST_CASE("run parameters: controls, step numbers, tolerances, finite-difference steps") {
  CHECK(check_control(1e9, "c") == 1e9);
  CHECK(check_control(-1e9, "c") == -1e9);
  CHECK(refusal([] { check_control(std::nextafter(1e9, 2e9), "--ctrl push=x"); }).rfind("--ctrl push=x: a control", 0) == 0);
  CHECK(!refusal([] { check_control(1e308, "c"); }).empty());
  CHECK(!refusal([] { check_control(std::nan(""), "c"); }).empty());

  CHECK(parse_step_number("0", "s") == 0);
  CHECK(parse_step_number(" 12 ", "s") == 12);
  CHECK(parse_step_number("1000000000", "s") == limits::kMaxSteps);
  CHECK(refusal([] { parse_step_number("1000000001", "f:2: step"); }).rfind("f:2: step '1000000001': step number out of range", 0) == 0);
  for (const char* bad : {"-1", "+1", "1.5", "1.0", "1e3", "1e300", "", "x", "99999999999999999999999", "3\r"})
    CHECK(!refusal([&] { parse_step_number(bad, "s"); }).empty());
  CHECK(refusal([] { parse_step_number("3\r", "s"); }).find("'3\\r'") != std::string::npos);

  CHECK(check_tolerance(1e-300) == 1e-300);
  CHECK(check_tolerance(std::numeric_limits<double>::max()) > 0);
  for (double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()})
    CHECK(refusal([&] { check_tolerance(bad, "--tol"); }).rfind("--tol ", 0) == 0);

  CHECK(check_finite_difference_step(1.0) == 1.0);
  CHECK(check_finite_difference_step(1e-300) == 1e-300);
  CHECK(refusal([] { check_finite_difference_step(std::nextafter(1.0, 2.0)); }).rfind("--eps 1:", 0) == 0);
  CHECK(!refusal([] { check_finite_difference_step(0); }).empty());
  CHECK(!refusal([] { check_finite_difference_step(-1e-6); }).empty());

  CHECK(printable("a\x01\tb") == "a\\x01\\tb");
}

TEST_CASE("run parameters: a gradient input's step lies in the run") {
  GradInput every, last, past;
  every.kind = last.kind = past.kind = GradInput::Kind::Control;
  last.step = 9;
  past.step = 10;
  past.text = "ctrl:push@10";
  CHECK(refusal([&] { check_input_steps({every, last}, 10); }).empty());
  CHECK(refusal([&] { check_input_steps({past}, 10); })
            .rfind("--wrt ctrl:push@10: step 10 is past the run's last step (the run takes 10 steps, numbered 0 to 9)", 0) == 0);
}

#include "io/scene_library.hpp"
#include "sim/rollout_setup.hpp"

TEST_CASE("run parameters: a state that becomes non-finite stops the run naming the step and the body") {
  RolloutSpec spec;
  spec.scene = "box_ramp";
  spec.model = std::make_shared<const Model>(load_scene("box_ramp"));
  spec.steps = 3;
  PreparedRollout r = prepare_rollout(spec);
  r.sim.step(r.h);
  const int box = r.sim.model().find_body("box");
  REQUIRE(box >= 0);
  r.sim.data().v_W[box].x() = std::numeric_limits<Real>::quiet_NaN();
  std::string message;
  try {
    r.sim.step(r.h);
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  CAPTURE(message);
  CHECK(message.find("diverged at step 2") != std::string::npos);  // the state of step 2 (the CSV's step column)
  CHECK(message.find("body 'box'") != std::string::npos);
}

TEST_CASE("run parameters: prepare_rollout refuses what the command line would") {
  RolloutSpec spec;
  spec.scene = "box_ramp";
  spec.model = std::make_shared<const Model>(load_scene("box_ramp"));
  spec.dt = 0.0;
  CHECK(refusal([&] { prepare_rollout(spec); }).rfind("--dt 0:", 0) == 0);
  spec.dt.reset();
  spec.steps = -1;
  CHECK(refusal([&] { prepare_rollout(spec); }).rfind("--steps -1:", 0) == 0);
  spec.steps.reset();
  spec.duration = -1.0;
  CHECK(refusal([&] { prepare_rollout(spec); }).rfind("--duration -1:", 0) == 0);
  spec.duration.reset();
  spec.ctrls = {"push=1e308"};
  CHECK(refusal([&] { prepare_rollout(spec); }).rfind("--ctrl push=1e308:", 0) == 0);
  spec.ctrls.clear();
  spec.sets = {"body.box.mass=1e308"};
  CHECK(refusal([&] { prepare_rollout(spec); }).find("body.box.mass") != std::string::npos);
  spec.sets.clear();
  CHECK(prepare_rollout(spec).steps > 0);  // nothing given: the scene's duration at its timestep
}
