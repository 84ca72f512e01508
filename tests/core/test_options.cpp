// The one option system (core/options.hpp): typed keys with ranges, choices
// of any type, numbers set through a function, aliases, and the parts'
// validators run once after all settings (so their order does not matter).
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "core/options.hpp"
#include "io/scene_library.hpp"
#include "sim/settings.hpp"
#include "sim/simulation.hpp"

using namespace contactlab;

namespace {

enum class Colour { Red, Green };

struct Options {
  Real low = 0, high = 1;
  int count = 3;
  bool flag = true;
  Colour colour = Colour::Red;
  void Validate() const {
    if (!(low < high)) throw std::invalid_argument("Options.low must be below Options.high");
  }
};

std::string what_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("options: typed keys, ranges, choices, aliases and deferred validation") {
  Options o;
  OptionSet set;
  set.add("part.low", &o.low, "lower end");
  set.add("part.high", &o.high, "upper end");
  set.add("part.count", &o.count, "how many", 1, 10);
  set.add("part.flag", &o.flag, "a switch");
  set.add_choice<Colour>("part.colour", &o.colour, {{"red", Colour::Red}, {"green", Colour::Green}}, "a colour");
  set.add_alias("alias.", "part.");
  set.add_validator([&o] { o.Validate(); });

  set.set_assignment("part.colour=green");
  CHECK(o.colour == Colour::Green);
  set.set_assignment("alias.count=7");
  CHECK(o.count == 7);
  set.set("part.flag", "off");
  CHECK_FALSE(o.flag);
  CHECK(what_of([&] { set.set("part.count", "11"); }) ==
        "bad value '11' for option 'part.count': must lie in [1, 10]");
  CHECK(what_of([&] { set.set("part.colour", "blue"); }).find("expected one of red|green") != std::string::npos);
  CHECK(what_of([&] { set.set("part.low", "nan"); }).find("expected a finite number") != std::string::npos);
  CHECK(what_of([&] { set.set("part.nothing", "1"); }).find("known: part.low, part.high") != std::string::npos);
  CHECK(o.count == 7);  // rejected values leave the field as it was

  // A pair that is valid only together: the validator runs when asked, not per key.
  set.set("part.low", "5");
  CHECK(what_of([&] { set.validate(); }) == "Options.low must be below Options.high");
  set.set("part.high", "6");
  CHECK_NOTHROW(set.validate());

  const std::string listing = set.describe();
  CHECK(listing.find("part.count = 7 (default 3)    how many") != std::string::npos);
  CHECK(listing.find("part.colour = green (default red)    a colour") != std::string::npos);
  CHECK(listing.find("alias.KEY    the same as part.KEY") != std::string::npos);
  CHECK_THROWS_AS(set.add("part.low", &o.low, "again"), std::logic_error);
}

TEST_CASE("options: the model's parameters are keys of the same set") {
  Model model = load_scene("wheeled_pallet");
  OptionSet set;
  bind_model_parameters(set, model);
  const int chassis = model.find_body("chassis");
  const Mat3 inertia = model.bodies[chassis].inertia_B;
  const Real mass = model.bodies[chassis].mass;
  set.set("body.chassis.mass", std::to_string(2 * mass));
  CHECK(model.bodies[chassis].mass == doctest::Approx(2 * mass));
  CHECK(model.bodies[chassis].inertia_B.isApprox(2 * inertia));
  CHECK(what_of([&] { set.set("body.chassis.mass", "0"); }).find("mass must be > 0") != std::string::npos);
  // Every actuator of the scene has its gains as keys (velocity servos: kv only).
  for (const Actuator& a : model.actuators) {
    CAPTURE(a.name);
    if (a.type == ActuatorType::Position) CHECK(set.has("actuator." + a.name + ".kp"));
    if (a.type != ActuatorType::Motor) CHECK(set.has("actuator." + a.name + ".kv"));
  }
  const int servo = model.find_actuator("drive_left");
  REQUIRE(servo >= 0);
  REQUIRE(model.actuators[servo].type == ActuatorType::Velocity);
  set.set("actuator.drive_left.kv", "12.5");
  CHECK(model.actuators[servo].kp == 12.5);  // a velocity servo keeps its gain in kp
  // An unknown name lists the keys of its group only.
  const std::string what = what_of([&] { set.set("geom.nothing.friction", "1"); });
  CHECK(what.find("geom.") != std::string::npos);
  CHECK(what.find("body.") == std::string::npos);

  // Simulation binds them with the parts' options and validates before stepping.
  Simulation sim(load_scene("box_ramp"), PartChoice{});
  sim.set_option("body.box.mass=2");
  CHECK(sim.model().bodies[sim.model().find_body("box")].mass == 2);
  CHECK(sim.describe_options().find("body.box.mass = 2 (default 1)") != std::string::npos);
  Simulation soft(load_scene("box_ramp"), PartChoice{"ccp", "padmm", "velocity"});
  soft.set_option("model.compliance=2e-6");  // model.* reads as contact.*
  CHECK(soft.describe_options().find("contact.compliance = 2e-06 (default 1e-06)") != std::string::npos);
}
