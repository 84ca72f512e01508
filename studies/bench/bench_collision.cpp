// contactlab_bench_collision: cost of the collision pass with and without the
// broad phase, on a pile (studies/piles.hpp) as it falls and settles.
// A benchmark program, not a test: it steps the pile with PGS and, at every
// step's state, times detect_contacts (broad phase) and
// detect_contacts_all_pairs (every pair), checks that their contacts are
// identical, and prints one CSV row (with a header) on stdout:
//   shape,bodies,steps,mean_contacts,mean_pairs,broad_phase_us,all_pairs_us,identical
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "io/mjcf.hpp"
#include "schemes/assembly.hpp"
#include "sim/simulation.hpp"
#include "studies/piles.hpp"

namespace po = boost::program_options;
using namespace contactlab;

namespace {

bool same_contacts(const std::vector<Contact>& a, const std::vector<Contact>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    const Contact &x = a[k], &y = b[k];
    if (x.geom1 != y.geom1 || x.geom2 != y.geom2 || std::memcmp(x.point_W.data(), y.point_W.data(), 3 * sizeof(Real)) ||
        std::memcmp(x.normal_W.data(), y.normal_W.data(), 3 * sizeof(Real)) || std::memcmp(&x.gap, &y.gap, sizeof(Real)))
      return false;
  }
  return true;
}

// Seconds per call of `pass`, the best of `repeats` calls (the least disturbed).
template <class Pass>
double best_seconds(int repeats, Pass pass) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    pass();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string shape = "sphere";
  int bodies = 256, steps = 300, repeats = 3;
  double margin = 0.02;
  po::options_description opts("contactlab_bench_collision [--shape S] [--bodies N] [--steps K]");
  opts.add_options()("help,h", "this help")
      ("shape", po::value(&shape)->default_value(shape), "box, capsule or sphere")
      ("bodies", po::value(&bodies)->default_value(bodies), "bodies in the pile (bench-scale's generator, seed 1)")
      ("steps", po::value(&steps)->default_value(steps), "steps of the run (PGS, dt 0.002)")
      ("repeats", po::value(&repeats)->default_value(repeats), "timed calls per state (the best counts)")
      ("margin", po::value(&margin)->default_value(margin), "contact margin, m (the velocity scheme's default)");
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, opts), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << opts;
    return 0;
  }
  PileSpec spec;
  spec.shape = parse_pile_shape(shape);
  spec.bodies = bodies;
  Simulation sim(load_mjcf_string(make_pile(spec).xml, "pile"), PartChoice{"desaxce", "pgs", "velocity"});
  sim.reset();
  Data probe;  // a copy of each state, so that timing leaves the run alone
  probe.init(sim.model());
  double broad_s = 0, all_s = 0, contacts = 0, pairs = 0;
  bool identical = true;
  for (int s = 0; s < steps; ++s) {
    sim.step(spec.timestep);
    probe.x_W = sim.data().x_W;
    probe.q_WB = sim.data().q_WB;
    all_s += best_seconds(repeats, [&] { detect_contacts_all_pairs(sim.model(), probe, margin); });
    const std::vector<Contact> all = probe.contacts;
    broad_s += best_seconds(repeats, [&] { detect_contacts(sim.model(), probe, margin); });
    identical = identical && same_contacts(all, probe.contacts);
    contacts += probe.contacts.size();
    pairs += probe.broad_phase.pairs.size();
  }
  std::printf("shape,bodies,steps,mean_contacts,mean_pairs,broad_phase_us,all_pairs_us,identical\n");
  std::printf("%s,%d,%d,%.1f,%.1f,%.1f,%.1f,%d\n", shape.c_str(), bodies, steps, contacts / steps, pairs / steps,
              1e6 * broad_s / steps, 1e6 * all_s / steps, identical ? 1 : 0);
  return identical ? 0 : 1;
}
