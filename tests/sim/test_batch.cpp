// Batch (sim/batch.hpp): per_world against independent Simulations (bitwise,
// any thread count), batched_padmm against Simulations with a fixed penalty,
// the refused configurations, divergence reporting, CUDA against the CPU batch
// where a device exists, and no allocation in a warm step.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/batch.hpp"
#include "sim/simulation.hpp"
#include "solvers/cuda/batch_padmm.hpp"

// Global allocation counter for the "no allocation in a warm step" tests. The
// replacements cover every form the standard library may call (plain, array,
// aligned: Eigen's fixed-size types in std::vector use the aligned ones).
namespace {
std::atomic<long> g_allocations{0};

void* counted_alloc(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* counted_alloc_aligned(std::size_t n, std::align_val_t al) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  const std::size_t a = static_cast<std::size_t>(al);
  const std::size_t size = ((n ? n : 1) + a - 1) / a * a;  // aligned_alloc wants a multiple of the alignment
  if (void* p = std::aligned_alloc(a, size)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_alloc_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_alloc_aligned(n, a); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace contactlab;

namespace {

constexpr int kWorlds = 6;
constexpr int kSteps = 200;

Model scene(const std::string& name) {
  std::vector<std::string> warnings;
  return load_mjcf_file(resolve_scene(name), &warnings);
}

// World w starts with its own twist on every moving body, so the worlds'
// trajectories differ (contacts open and close at different steps).
Vec3 perturbation_v(int w, int b) { return Vec3(0.05 * w, -0.03 * w + 0.01 * b, 0.02 * w); }
Vec3 perturbation_w(int w, int b) { return Vec3(0.1 * w, 0.05 * b, -0.07 * w); }

void perturb(const Model& model, BatchState& s) {
  for (int w = 0; w < s.num_worlds; ++w)
    for (int b = 0; b < s.num_bodies; ++b) {
      if (model.bodies[b].fixed) continue;
      s.v_W[s.body(w, b)] += perturbation_v(w, b);
      s.w_W[s.body(w, b)] += perturbation_w(w, b);
    }
}

void perturb(const Model& model, Data& d, int w) {
  for (int b = 0; b < model.num_bodies(); ++b) {
    if (model.bodies[b].fixed) continue;
    d.v_W[b] += perturbation_v(w, b);
    d.w_W[b] += perturbation_w(w, b);
  }
}

std::vector<std::unique_ptr<Simulation>> simulations(const Model& model, int n,
                                                     const std::vector<std::string>& sets = {},
                                                     const PartChoice& parts = {}) {
  std::vector<std::unique_ptr<Simulation>> sims;
  for (int w = 0; w < n; ++w) {
    sims.push_back(std::make_unique<Simulation>(model, parts));
    for (const std::string& kv : sets) sims.back()->set_option(kv);
    sims.back()->reset();
    perturb(model, sims.back()->data(), w);
  }
  return sims;
}

// Largest |batch - simulation| over every state entry of every world, and
// whether they are bitwise equal (time and step included).
struct Difference {
  double max_abs = 0;
  bool bitwise = true;
};

void accumulate(Difference& d, double a, double b) {
  if (!(a == b)) d.bitwise = false;
  d.max_abs = std::max(d.max_abs, std::abs(a - b));
}

Difference compare(const BatchState& s, const std::vector<std::unique_ptr<Simulation>>& sims) {
  Difference d;
  for (int w = 0; w < s.num_worlds; ++w) {
    const Data& x = sims[w]->data();
    for (int b = 0; b < s.num_bodies; ++b) {
      const int i = s.body(w, b);
      for (int k = 0; k < 3; ++k) {
        accumulate(d, s.x_W[i][k], x.x_W[b][k]);
        accumulate(d, s.v_W[i][k], x.v_W[b][k]);
        accumulate(d, s.w_W[i][k], x.w_W[b][k]);
      }
      for (int k = 0; k < 4; ++k) accumulate(d, s.q_WB[i].coeffs()[k], x.q_WB[b].coeffs()[k]);
    }
    accumulate(d, s.time[w], x.time);
    if (s.step[w] != x.step) d.bitwise = false;
  }
  return d;
}

Difference compare(const BatchState& a, const BatchState& b) {
  Difference d;
  for (size_t i = 0; i < a.x_W.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      accumulate(d, a.x_W[i][k], b.x_W[i][k]);
      accumulate(d, a.v_W[i][k], b.v_W[i][k]);
      accumulate(d, a.w_W[i][k], b.w_W[i][k]);
    }
  for (size_t i = 0; i < a.q_WB.size(); ++i)
    for (int k = 0; k < 4; ++k) accumulate(d, a.q_WB[i].coeffs()[k], b.q_WB[i].coeffs()[k]);
  return d;
}

void step_all(Batch& batch, std::vector<std::unique_ptr<Simulation>>& sims, Real h) {
  batch.apply_scheduled_controls();
  batch.step(h);
  for (auto& s : sims) {
    s->apply_scheduled_controls();
    s->step(h);
  }
}

BatchOptions per_world(int threads) {
  BatchOptions o;
  o.mode = BatchMode::PerWorld;
  o.threads = threads;
  return o;
}

BatchOptions batched(BatchDevice device = BatchDevice::Cpu, int threads = 2) {
  BatchOptions o;
  o.mode = BatchMode::BatchedPadmm;
  o.device = device;
  o.threads = threads;
  return o;
}

// The moving bodies of every world must have touched something during the
// run, or the comparison would not exercise the contact solve.
int total_contacts(const Batch& batch) {
  int n = 0;
  for (int w = 0; w < batch.num_worlds(); ++w) n += batch.world_metrics(w).num_contacts;
  return n;
}

}  // namespace

TEST_CASE("batch: per_world matches independent simulations bitwise, for 1 and 2 threads") {
  for (const std::string name : {"stacked_boxes", "box_ramp"}) {
    CAPTURE(name);
    const Model model = scene(name);
    const Real h = model.options.timestep;
    Batch serial(model, PartChoice{}, kWorlds, per_world(1));
    Batch threaded(model, PartChoice{}, kWorlds, per_world(2));
    perturb(model, serial.state());
    perturb(model, threaded.state());
    auto sims = simulations(model, kWorlds);
    // The worlds must really differ, or "matches" would prove little.
    REQUIRE(serial.state().v_W[serial.state().body(1, 0)] != serial.state().v_W[serial.state().body(2, 0)]);
    bool all_bitwise = true, threads_bitwise = true;
    for (int k = 0; k < kSteps; ++k) {
      step_all(serial, sims, h);
      threaded.apply_scheduled_controls();
      threaded.step(h);
      all_bitwise = all_bitwise && compare(serial.state(), sims).bitwise;
      threads_bitwise = threads_bitwise && compare(serial.state(), threaded.state()).bitwise;
    }
    CHECK(all_bitwise);
    CHECK(threads_bitwise);
    CHECK(total_contacts(serial) > 0);
    for (int w = 0; w < kWorlds; ++w) {
      CHECK(serial.world_metrics(w).iterations == sims[w]->data().metrics.iterations);
      CHECK(serial.world_metrics(w).r_vi == sims[w]->data().metrics.r_vi);
      CHECK(serial.state().step[w] == kSteps);
    }
  }
}

TEST_CASE("batch: batched_padmm on the CPU matches simulations with a fixed penalty") {
  // Tolerance: the batch iterates with the same CL_HD code (padmm_kernels.hpp)
  // as PadmmSolver, from the same Delassus matrix, scale, factor and warm
  // start, and v+ is rebuilt as PadmmSolver does; only the order of a few
  // floating-point operations may differ (rhs built in place, strided factor),
  // so each solve agrees to rounding, ~1e-16 relative. Over 200 steps a
  // difference can be amplified only where a convergence test sits on its
  // threshold (one iteration more or less moves lambda by ~tol = 1e-6 N s and
  // v by ~1e-6 m/s for these 1 kg boxes). 1e-9 in m, m/s and rad/s sits well
  // above rounding and well below such a change, so it shows that the
  // iteration counts agree as well.
  // The batch runs any scheme whose solve is its linear problem and any law
  // with the hard Coulomb cones (fischer_burmeister's are de Saxce's), with
  // the scheme's own phases around the batched solve.
  constexpr double kTol = 1e-9;
  const PartChoice combos[] = {{"desaxce", "padmm", "velocity"},
                               {"fischer_burmeister", "padmm", "velocity"},
                               {"desaxce", "padmm", "quasi_dynamic"},
                               {"desaxce", "padmm", "moreau"}};
  for (const PartChoice& parts : combos)
  for (const std::string name : {"stacked_boxes", "box_ramp"}) {
    CAPTURE(name);
    CAPTURE(parts.contact);
    CAPTURE(parts.scheme);
    const Model model = scene(name);
    const Real h = model.options.timestep;
    Batch batch(model, parts, kWorlds, batched());
    batch.set_option("solver.balanced_penalty=false");
    perturb(model, batch.state());
    auto sims = simulations(model, kWorlds, {"solver.balanced_penalty=false"}, parts);
    double worst = 0;
    bool iterations_equal = true;
    for (int k = 0; k < kSteps; ++k) {
      step_all(batch, sims, h);
      worst = std::max(worst, compare(batch.state(), sims).max_abs);
      for (int w = 0; w < kWorlds; ++w)
        iterations_equal = iterations_equal && batch.world_solve_stats(w).iterations ==
                                                   sims[w]->data().solve_stats.iterations;
    }
    MESSAGE(name << ": largest state difference over " << kSteps << " steps = " << worst);
    CHECK(worst <= kTol);
    CHECK(iterations_equal);
    CHECK(total_contacts(batch) > 0);
    for (int w = 0; w < kWorlds; ++w) {
      CHECK(batch.world_metrics(w).num_contacts == sims[w]->data().metrics.num_contacts);
      CHECK(batch.world_solve_stats(w).status == sims[w]->data().solve_stats.status);
      CHECK(batch.world_metrics(w).r_vi == doctest::Approx(sims[w]->data().metrics.r_vi).epsilon(1e-6));
    }
  }
}

TEST_CASE("batch: refusals name the part or option") {
  const Model model = scene("stacked_boxes");
  auto throws_naming = [](auto&& make, const std::string& needle) {
    try {
      make();
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(what.find(needle) != std::string::npos);
      return;
    }
    FAIL("no std::invalid_argument naming '" << needle << "'");
  };

  SUBCASE("balanced penalty (the default) is refused at the first step") {
    Batch b(model, PartChoice{}, 2, batched());
    throws_naming([&] { b.step(model.options.timestep); }, "solver.balanced_penalty=false");
    CHECK(b.state().step[0] == 0);  // refused before anything moved
  }
  SUBCASE("matrix-free Delassus is refused") {
    Batch b(model, PartChoice{}, 2, batched());
    b.set_option("solver.balanced_penalty=false");
    b.set_option("solver.delassus=matrix_free");
    throws_naming([&] { b.step(model.options.timestep); }, "solver.delassus=dense");
  }
  SUBCASE("solvers without a batched form, laws without the hard cones and re-linearising schemes are refused") {
    // Every registered part other than padmm and the hard-cone laws.
    for (const PartInfo& s : solver_names()) {
      if (s.name == "padmm") continue;
      CAPTURE(s.name);
      PartChoice parts;
      parts.solver = s.name;
      if (s.name == "convex_newton") parts.contact = "ccp";
      if (s.name == "newton") parts.contact = "fischer_burmeister";
      throws_naming([&] { Batch(model, parts, 2, batched()); }, "has no batched form");
    }
    for (const PartInfo& c : contact_model_names()) {
      if (make_contact_model(c.name)->uses_hard_coulomb_cones()) continue;
      CAPTURE(c.name);
      PartChoice parts;
      parts.contact = c.name;
      throws_naming([&] { Batch(model, parts, 2, batched()); }, "hard de Saxce cones");
    }
    throws_naming([&] { Batch(model, PartChoice{"fischer_burmeister", "newton", "backward_euler"}, 2, batched()); },
                  "re-linearises");
    PartChoice unknown;
    unknown.solver = "no_such_solver";
    throws_naming([&] { Batch(model, unknown, 2, batched()); }, "no_such_solver");
  }
  SUBCASE("bad batch options") {
    throws_naming([&] { Batch(model, PartChoice{}, 0, per_world(1)); }, "num_worlds");
    throws_naming([&] { Batch(model, PartChoice{}, 2, per_world(-1)); }, "threads");
    BatchOptions o = per_world(1);
    o.device = BatchDevice::Cuda;
    throws_naming([&] { Batch(model, PartChoice{}, 2, o); }, "batched_padmm");
  }
}

TEST_CASE("batch: cuda is refused without a device, else matches the CPU batch") {
  const Model model = scene("stacked_boxes");
  if (!cuda_available()) {
    try {
      Batch b(model, PartChoice{}, 2, batched(BatchDevice::Cuda));
      FAIL("device = cuda was accepted without a CUDA device");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()).find("no CUDA device") != std::string::npos);
    }
    return;
  }
  // CPU and GPU run the same source, but the GPU may fuse multiply-adds, so
  // a solve agrees to ~1e-12 relative (tests/solvers/cuda/test_gpu_batch.cpp); a
  // convergence test on its threshold may then stop one iteration apart,
  // which moves v by ~tol = 1e-6 m/s for these 1 kg boxes. Over 100 steps of
  // h = 1 ms that bounds position differences by ~1e-7 m: 1e-5 in every
  // state entry leaves room for a few such events, and far less than the
  // perturbations that separate the worlds (>= 0.02 m/s).
  constexpr double kTol = 1e-5;
  const Real h = model.options.timestep;
  Batch cpu(model, PartChoice{}, kWorlds, batched(BatchDevice::Cpu));
  Batch gpu(model, PartChoice{}, kWorlds, batched(BatchDevice::Cuda));
  for (Batch* b : {&cpu, &gpu}) {
    b->set_option("solver.balanced_penalty=false");
    perturb(model, b->state());
  }
  double worst = 0;
  for (int k = 0; k < 100; ++k) {
    cpu.step(h);
    gpu.step(h);
    worst = std::max(worst, compare(cpu.state(), gpu.state()).max_abs);
  }
  MESSAGE("largest CPU/CUDA state difference over 100 steps = " << worst);
  CHECK(worst <= kTol);
  CHECK(total_contacts(gpu) > 0);
}

TEST_CASE("batch: a non-finite world is reported by world, step and body") {
  const Model model = scene("stacked_boxes");
  for (BatchMode mode : {BatchMode::PerWorld, BatchMode::BatchedPadmm}) {
    CAPTURE(to_string(mode));
    BatchOptions o = per_world(1);
    o.mode = mode;
    Batch b(model, PartChoice{}, 4, o);
    b.set_option("solver.balanced_penalty=false");
    BatchState& s = b.state();
    s.v_W[s.body(3, model.find_body("top"))].x() = std::numeric_limits<Real>::quiet_NaN();
    try {
      b.step(model.options.timestep);
      FAIL("a NaN velocity was not reported");
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(what.find("world 3") != std::string::npos);
      CHECK(what.find("step 1") != std::string::npos);
      CHECK(what.find("'top'") != std::string::npos);
    }
  }
}

TEST_CASE("batch: reset puts every world at the initial state") {
  const Model model = scene("stacked_boxes");
  Batch b(model, PartChoice{}, 3, per_world(1));
  perturb(model, b.state());
  for (int k = 0; k < 20; ++k) b.step(model.options.timestep);
  b.reset();
  Simulation sim(model, PartChoice{});
  for (int w = 0; w < 3; ++w) {
    CHECK(b.state().time[w] == 0);
    CHECK(b.state().step[w] == 0);
    for (int body = 0; body < model.num_bodies(); ++body) {
      const int i = b.state().body(w, body);
      CHECK(b.state().x_W[i] == sim.data().x_W[body]);
      CHECK(b.state().v_W[i] == sim.data().v_W[body]);
      CHECK(b.state().q_WB[i].coeffs() == sim.data().q_WB[body].coeffs());
    }
  }
  CHECK_THROWS_AS(b.reset("no_such_key"), std::invalid_argument);
  CHECK_THROWS_AS(b.world_metrics(3), std::out_of_range);
}

namespace {
// Allocations during `measured` steps after `warm` steps.
long allocations_in_steps(Batch& batch, int warm, int measured) {
  const Real h = batch.model().options.timestep;
  for (int k = 0; k < warm; ++k) {
    batch.apply_scheduled_controls();
    batch.step(h);
  }
  const long before = g_allocations.load();
  for (int k = 0; k < measured; ++k) {
    batch.apply_scheduled_controls();
    batch.step(h);
  }
  return g_allocations.load() - before;
}
}  // namespace

TEST_CASE("batch: the counter sees allocations") {
  // Guard: a counter that never moves would pass the tests below.
  const long before = g_allocations.load();
  std::vector<Vec3> v(10);
  std::vector<Quat> q(10);  // aligned operator new
  CHECK(g_allocations.load() - before >= 2);
  CHECK(v.size() + q.size() == 20);
}

TEST_CASE("batch: per_world steps do not allocate once warm") {
  for (const std::string name : {"stacked_boxes", "box_ramp"}) {
    for (int threads : {1, 2}) {
      CAPTURE(name);
      CAPTURE(threads);
      const Model model = scene(name);
      Batch b(model, PartChoice{}, kWorlds, per_world(threads));
      perturb(model, b.state());
      CHECK(allocations_in_steps(b, 50, 50) == 0);
    }
  }
}

TEST_CASE("batch: batched_padmm steps do not allocate once warm") {
  for (const std::string name : {"stacked_boxes", "box_ramp"}) {
    CAPTURE(name);
    const Model model = scene(name);
    Batch b(model, PartChoice{}, kWorlds, batched(BatchDevice::Cpu, 1));
    b.set_option("solver.balanced_penalty=false");
    perturb(model, b.state());
    CHECK(allocations_in_steps(b, 50, 50) == 0);
  }
}
