// Determinism: the same command twice gives the same bytes, for every valid
// combination on two scenes, and a batch of worlds gives the bytes of single
// runs of the same worlds. Only wall-clock columns and keys may differ; they
// are removed before comparing (and the test checks they were there, so a
// renamed column cannot make the comparison vacuous).
#include <doctest/doctest.h>

#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "io/scene_library.hpp"
#include "sim/batch.hpp"
#include "sim/simulation.hpp"
#include "studies/comparison.hpp"
#include "support/cli.hpp"

using namespace contactlab;

namespace {

// wheeled_pallet: joints, actuators and a control schedule, many contacts;
// stacked_boxes: a contact stack (warm starts, contacts opening and closing).
const char* const kScenes[] = {"stacked_boxes", "wheeled_pallet"};
constexpr int kCliSteps = 30;

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing output " << path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The stats CSV without its two wall-clock columns (the last two of the header
// step,...,energy,wall_time_s,solve_time_s).
std::string without_wall_columns(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, out;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) REQUIRE(line.size() > 25);
    if (header) REQUIRE(line.substr(line.size() - 25) == ",wall_time_s,solve_time_s");
    header = false;
    size_t cut = line.size();
    for (int k = 0; k < 2; ++k) {
      cut = line.rfind(',', cut - 1);
      REQUIRE(cut != std::string::npos);
    }
    out += line.substr(0, cut) + "\n";
  }
  return out;
}

// The run summary without its wall-clock keys.
std::string without_wall_keys(const std::string& json) {
  static const std::regex wall("\"(wall_time_s|wall_time_per_step_s|solve_time_per_step_s)\": [^,}]*");
  REQUIRE(std::regex_search(json, wall));
  return std::regex_replace(json, wall, "\"$1\": -");
}

// The summary line of the output (stderr, merged in, may carry warnings).
std::string json_line(const std::string& output) {
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] == '{') return line;
  FAIL("no JSON summary in:\n" << output);
  return {};
}

struct RunBytes {
  std::string trajectory, stats, json;
};

RunBytes run_once(const std::string& dir, const std::string& args) {
  const std::string traj = dir + "/traj.csv", stats = dir + "/stats.csv";
  const test_cli::CliResult r =
      test_cli::run_binary(args + " --json --out " + traj + " --stats " + stats);
  REQUIRE_MESSAGE(r.status == 0, args << ":\n" << r.output);
  RunBytes b{read_bytes(traj), without_wall_columns(read_bytes(stats)), without_wall_keys(json_line(r.output))};
  std::remove(traj.c_str());
  std::remove(stats.c_str());
  return b;
}

std::string make_temp_dir() {
  char name[] = "/tmp/contactlab_determinism_XXXXXX";
  REQUIRE(mkdtemp(name) != nullptr);
  return name;
}

}  // namespace

TEST_CASE("determinism: every valid combination twice gives identical CSV and JSON bytes") {
  const std::vector<Combo> combos = valid_combos();
  REQUIRE(combos.size() >= 10);  // the built-in parts give 21 (contactlab list combos)
  const std::string dir = make_temp_dir();
  int compared = 0;
  for (const char* scene : kScenes)
    for (const Combo& c : combos) {
      const std::string args = std::string("run ") + scene + " --scheme " + c.scheme + " --contact " + c.contact +
                               " --solver " + c.solver + " --steps " + std::to_string(kCliSteps);
      CAPTURE(args);
      const RunBytes a = run_once(dir, args), b = run_once(dir, args);
      CHECK(a.trajectory == b.trajectory);
      CHECK(a.stats == b.stats);
      CHECK(a.json == b.json);
      ++compared;
    }
  // The peer engine on the same files: its state is read back the same way.
  for (const char* scene : kScenes) {
    const std::string args = std::string("run ") + scene + " --peer mujoco --steps " + std::to_string(kCliSteps);
    CAPTURE(args);
    const RunBytes a = run_once(dir, args), b = run_once(dir, args);
    CHECK(a.trajectory == b.trajectory);
    CHECK(a.stats == b.stats);
    CHECK(a.json == b.json);
  }
  CHECK(compared == 2 * static_cast<int>(combos.size()));
  rmdir(dir.c_str());
}

namespace {

constexpr int kWorlds = 4;
constexpr int kBatchSteps = 40;

// World w starts with its own twist, so the worlds differ.
void perturb(const Model& model, int w, int b, Vec3& v, Vec3& omega) {
  if (model.bodies[b].fixed) return;
  v += Vec3(0.04 * w, -0.02 * w + 0.01 * b, 0.015 * w);
  omega += Vec3(0.08 * w, 0.03 * b, -0.05 * w);
}

}  // namespace

TEST_CASE("determinism: a per-world batch gives the bits of single runs, for every valid combination") {
  // The batch runs each combination its schemes can run per world (all of
  // them); a world's state must be bitwise that of a Simulation started from
  // the same state, with one thread and with two.
  for (const char* scene : kScenes) {
    const Model model = load_scene(scene);
    const Real h = model.options.timestep;
    for (const Combo& c : valid_combos()) {
      CAPTURE(scene);
      CAPTURE(c.label());
      BatchOptions options;
      options.mode = BatchMode::PerWorld;
      options.threads = 2;
      Batch batch(model, c.parts(), kWorlds, options);
      BatchState& s = batch.state();
      std::vector<std::unique_ptr<Simulation>> sims;
      for (int w = 0; w < kWorlds; ++w) {
        sims.push_back(std::make_unique<Simulation>(model, c.parts()));
        sims.back()->reset();
        for (int b = 0; b < model.num_bodies(); ++b) {
          perturb(model, w, b, s.v_W[s.body(w, b)], s.w_W[s.body(w, b)]);
          perturb(model, w, b, sims.back()->data().v_W[b], sims.back()->data().w_W[b]);
        }
      }
      bool bitwise = true;
      for (int k = 0; k < kBatchSteps; ++k) {
        batch.apply_scheduled_controls();
        batch.step(h);
        for (int w = 0; w < kWorlds; ++w) {
          Simulation& sim = *sims[w];
          sim.apply_scheduled_controls();
          sim.step(h);
          const Data& d = sim.data();
          for (int b = 0; b < model.num_bodies(); ++b) {
            const int i = s.body(w, b);
            bitwise = bitwise && s.x_W[i] == d.x_W[b] && s.v_W[i] == d.v_W[b] && s.w_W[i] == d.w_W[b] &&
                      s.q_WB[i].coeffs() == d.q_WB[b].coeffs();
          }
          bitwise = bitwise && s.time[w] == d.time && s.step[w] == d.step;
        }
      }
      CHECK(bitwise);
      for (int w = 0; w < kWorlds; ++w) CHECK(batch.world_metrics(w).iterations == sims[w]->data().metrics.iterations);
    }
  }
}
