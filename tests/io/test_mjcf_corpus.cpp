// The shared corpus of MJCF models written by others (CONTACTLAB_MJCF_DIR,
// ../shared/data/mjcf: dm_control's suite and MuJoCo's model folder). Each
// model either runs 1 s with the default combination, finite and bounded, or
// is refused with a message naming the unsupported feature, and that feature
// is one docs/mjcf.md lists. The expected outcome of every file is written
// here, so a model that stops loading (or starts loading) fails the test
// until this table and docs/mjcf.md "The corpus" are updated.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>
#include <sstream>
#include <string>

#include "io/mjcf.hpp"
#include "sim/simulation.hpp"

using namespace contactlab;

namespace {

struct Expected {
  const char* file;     // relative to CONTACTLAB_MJCF_DIR
  const char* refusal;  // null: runs; else a phrase the error message contains
  const char* docs;     // how docs/mjcf.md names the refused feature
};

constexpr const char* kRuns = nullptr;
const char* const kSubset = "not in contactlab's MJCF subset";

// As measured by scripts/mjcf_corpus.py (docs/mjcf.md "The corpus").
const Expected kCorpus[] = {
    {"dm_control/dm_control/suite/acrobot.xml", kRuns, nullptr},
    {"dm_control/dm_control/suite/ball_in_cup.xml", "only <fixed> tendons are supported", "`<tendon><spatial>`"},
    {"dm_control/dm_control/suite/cartpole.xml", kRuns, nullptr},
    {"dm_control/dm_control/suite/cheetah.xml", kRuns, nullptr},
    {"dm_control/dm_control/suite/finger.xml", "frictionloss is not supported", "`frictionloss`"},
    {"dm_control/dm_control/suite/fish.xml", "geom type 'ellipsoid'", "geom types ellipsoid"},
    {"dm_control/dm_control/suite/hopper.xml", kRuns, nullptr},
    {"dm_control/dm_control/suite/humanoid.xml", kRuns, nullptr},
    {"dm_control/dm_control/suite/humanoid_CMU.xml", "reaches gimbal lock", "gimbal lock"},
    {"dm_control/dm_control/suite/manipulator.xml", "couples joints of 3 moving bodies", "more than two moving bodies"},
    {"dm_control/dm_control/suite/pendulum.xml", kRuns, nullptr},
    {"dm_control/dm_control/suite/point_mass.xml", kRuns, nullptr},
    {"dm_control/dm_control/suite/quadruped.xml", "geom type 'ellipsoid'", "geom types ellipsoid"},
    {"dm_control/dm_control/suite/reacher.xml", kRuns, nullptr},
    {"dm_control/dm_control/suite/stacker.xml", "couples joints of 3 moving bodies", "more than two moving bodies"},
    {"dm_control/dm_control/suite/swimmer.xml", kRuns, nullptr},
    {"dm_control/dm_control/suite/walker.xml", kRuns, nullptr},
    {"mujoco/model/balloons/balloons.xml", "attribute 'gravcomp' of <body>", "`gravcomp`"},
    {"mujoco/model/car/car.xml", "attribute 'actuatorfrcrange' of <joint> is not supported", "`actuatorfrcrange`"},
    {"mujoco/model/cube/cube_3x3x3.xml", "frictionloss is not supported", "`frictionloss`"},
    {"mujoco/model/humanoid/humanoid.xml", "couples joints of 3 moving bodies", "more than two moving bodies"},
    {"mujoco/model/mug/mug.xml", kRuns, nullptr},
    {"mujoco/model/replicate/newton_cradle.xml", "only <fixed> tendons are supported", "`<tendon><spatial>`"},
    {"mujoco/model/replicate/stonehenge.xml", kRuns, nullptr},
    {"mujoco/model/sleep/dominos.xml", "attribute 'sleep_tolerance' of <option>", kSubset},
    {"mujoco/model/tendon_arm/arm26.xml", "actuator <muscle>", "`<muscle>`"},
};

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("mjcf corpus: every model runs 1 s or is refused naming a documented feature") {
  const std::filesystem::path dir = CONTACTLAB_MJCF_DIR;
  REQUIRE_MESSAGE(std::filesystem::is_directory(dir), "the shared MJCF corpus is missing: " << dir.string());
  const std::string docs = read_text(std::string(CONTACTLAB_SCENE_DIR) + "/../docs/mjcf.md");
  REQUIRE(!docs.empty());

  // Every model file of the corpus has an expectation (include fragments under common/ are not models).
  std::set<std::string> listed;
  for (const Expected& e : kCorpus) listed.insert(e.file);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".xml" || entry.path().parent_path().filename() == "common") continue;
    const std::string rel = std::filesystem::relative(entry.path(), dir).generic_string();
    CHECK_MESSAGE(listed.count(rel) == 1, "no expectation for " << rel);
  }

  for (const Expected& e : kCorpus) {
    const std::string file = e.file;
    CAPTURE(file);
    const std::string path = (dir / e.file).string();
    if (e.refusal) {
      std::string message;
      try {
        load_mjcf_file(path, nullptr);
      } catch (const MjcfError& err) {
        message = err.what();
      }
      CAPTURE(message);
      CHECK(message.find(e.refusal) != std::string::npos);
      // The message names the file it is about (the model or one it includes).
      CHECK(message.find(".xml:") != std::string::npos);
      CHECK_MESSAGE(docs.find(e.docs) != std::string::npos,
                    "docs/mjcf.md does not mention the refused feature '" << e.docs << "'");
      continue;
    }
    std::vector<std::string> warnings;
    Simulation sim(load_mjcf_file(path, &warnings), PartChoice{"desaxce", "padmm", "velocity"});
    sim.reset();
    const Real h = sim.model().options.timestep;
    const long steps = std::lround(1.0 / h);
    for (long s = 0; s < steps; ++s) sim.step(h);
    // Bounded: no body leaves a 100 m box or moves faster than 100 m/s in
    // 1 s of these models (all start at rest or near it, at most a few
    // metres across, under gravity alone: free fall for 1 s reaches 9.8 m/s).
    const Data& d = sim.data();
    for (int b = 0; b < sim.model().num_bodies(); ++b) {
      CAPTURE(b);
      REQUIRE(d.x_W[b].allFinite());
      REQUIRE(d.v_W[b].allFinite());
      REQUIRE(d.w_W[b].allFinite());
      CHECK(d.x_W[b].norm() < 100.0);
      CHECK(d.v_W[b].norm() < 100.0);
    }
  }
}
