// contactlab_bench_batch: throughput of Batch (sim/batch.hpp) on one scene.
// A benchmark program, not a test: it warms up (sizes seen, buffers grown,
// threads started), then times --steps steps of --worlds worlds and prints
// one CSV row (with a header) on stdout:
//   scene,mode,worlds,threads,steps,wall_s,steps_per_s,world_steps_per_s
// Worlds start from different velocities so their contacts differ.
#include <boost/program_options.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/batch.hpp"
#include "solvers/cuda/batch_padmm.hpp"

namespace po = boost::program_options;
using namespace contactlab;

int main(int argc, char** argv) {
  std::string scene = "stacked_boxes", mode = "per_world";
  int worlds = 64, threads = 0, warmup = 50;
  long steps = 500;
  std::vector<std::string> sets;
  po::options_description opts(
      "contactlab_bench_batch [--scene S] [--worlds N] [--steps K] [--mode per_world|batched_cpu|batched_cuda] "
      "[--threads T]");
  opts.add_options()("help,h", "this help")
      ("scene", po::value(&scene)->default_value(scene), "built-in scene name or MJCF file")
      ("worlds", po::value(&worlds)->default_value(worlds), "number of worlds")
      ("steps", po::value(&steps)->default_value(steps), "timed steps (after the warm-up)")
      ("warmup", po::value(&warmup)->default_value(warmup), "untimed steps first")
      ("mode", po::value(&mode)->default_value(mode), "per_world | batched_cpu | batched_cuda")
      ("threads", po::value(&threads)->default_value(threads), "threads incl. the caller (0: hardware concurrency)")
      ("set", po::value(&sets)->composing(), "KEY=VALUE option (solver.*, contact.*, scheme.*); repeatable");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, opts), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "contactlab_bench_batch: error: " << e.what() << "\n" << opts;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << opts;
    return 0;
  }

  BatchOptions options;
  options.threads = threads;
  if (mode == "per_world") {
    options.mode = BatchMode::PerWorld;
  } else if (mode == "batched_cpu" || mode == "batched_cuda") {
    options.mode = BatchMode::BatchedPadmm;
    options.device = mode == "batched_cpu" ? BatchDevice::Cpu : BatchDevice::Cuda;
  } else {
    std::cerr << "contactlab_bench_batch: error: unknown --mode '" << mode
              << "' (per_world | batched_cpu | batched_cuda)\n";
    return 2;
  }
  if (options.device == BatchDevice::Cuda && !cuda_available()) {
    std::cerr << "contactlab_bench_batch: skipping batched_cuda: no CUDA device\n";
    return 0;
  }
  if (worlds < 1 || steps < 1 || warmup < 0) {
    std::cerr << "contactlab_bench_batch: error: --worlds and --steps must be >= 1, --warmup >= 0\n";
    return 2;
  }

  try {
    std::vector<std::string> warnings;  // unsupported MJCF elements: not the benchmark's business
    Model model = load_mjcf_file(resolve_scene(scene), &warnings);
    const Real h = model.options.timestep;
    Batch batch(std::move(model), PartChoice{}, worlds, options);
    // The batch kernel runs a fixed penalty; per_world gets the same setting
    // so that both modes solve the same problems.
    batch.set_option("solver.balanced_penalty=false");
    for (const std::string& kv : sets) batch.set_option(kv);
    BatchState& s = batch.state();
    for (int w = 0; w < worlds; ++w)
      for (int b = 0; b < s.num_bodies; ++b) {
        if (batch.model().bodies[b].fixed) continue;
        const Real f = Real(w) / worlds;
        s.v_W[s.body(w, b)] += Vec3(0.3 * f, -0.2 * f, 0.1 * f);
        s.w_W[s.body(w, b)] += Vec3(0.5 * f, 0.0, -0.5 * f);
      }
    auto run = [&](long n) {
      for (long k = 0; k < n; ++k) {
        batch.apply_scheduled_controls();
        batch.step(h);
      }
    };
    run(warmup);
    const auto t0 = std::chrono::steady_clock::now();
    run(steps);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // As Batch resolves it: 0 = hardware concurrency, never more threads than worlds.
    const int used_threads = std::min(
        worlds, threads > 0 ? threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
    std::printf("scene,mode,worlds,threads,steps,wall_s,steps_per_s,world_steps_per_s\n");
    std::printf("%s,%s,%d,%d,%ld,%.6f,%.1f,%.1f\n", scene.c_str(), mode.c_str(), worlds, used_threads, steps, wall,
                steps / wall, steps * static_cast<double>(worlds) / wall);
  } catch (const std::exception& e) {
    std::cerr << "contactlab_bench_batch: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
