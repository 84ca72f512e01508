// Loads an MJCF file (or a built-in scene) and steps it for one second with
// contactlab's default parts, printing every body's centre of mass then.
//   load_and_step [SCENE]     (default: pendulum)
#include <contactlab/io/scene_library.hpp>
#include <contactlab/sim/simulation.hpp>
#include <cstdio>

int main(int argc, char** argv) {
  using namespace contactlab;
  try {
    Simulation sim(load_scene(argc > 1 ? argv[1] : "pendulum"), PartChoice{});  // desaxce + padmm + velocity
    const Real h = sim.model().options.timestep;
    while (sim.data().time < 1 - h / 2) {
      sim.apply_scheduled_controls();
      sim.step(h);
    }
    for (int b = 0; b < sim.model().num_bodies(); ++b) {
      const Vec3& x = sim.data().x_W[b];  // centre of mass, world frame
      std::printf("%s %.6f %.6f %.6f\n", sim.model().bodies[b].name.c_str(), x.x(), x.y(), x.z());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "load_and_step: %s\n", e.what());
    return 1;
  }
  return 0;
}
