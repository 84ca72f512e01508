// `contactlab` with no arguments. Still the previous compare-based job (the
// short PASS/FAIL table of issue 17 is not done): the validation scenes and
// wheeled_pallet, every valid combination, at each scene's timestep and twice it.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "apps/compare_command.hpp"
#include "peers/mujoco_peer.hpp"

namespace contactlab {

int default_job() {
  try {
    CompareJob job;
    job.scenes = {"box_ramp", "bouncing_ball", "stacked_boxes", "four_bar", "pendulum", "wheeled_pallet"};
    std::vector<std::string> refused;
    job.settings.combos = valid_combos(&refused);
    job.settings.dt_factors = {1, 2};
    job.settings.peer_mujoco = MujocoPeer::built();
    std::printf("contactlab: default job = contactlab compare");
    for (const auto& s : job.scenes) std::printf(" %s", s.c_str());
    std::printf(" --dt <scene timestep x 1,2>%s\n", job.settings.peer_mujoco ? " --peer mujoco" : "");
    std::printf(
        "(%zu valid combinations, %zu refused ones skipped: contactlab list combos says why;\n"
        " pass/fail against tolerances: contactlab validate; columns: docs/compare.md)\n",
        job.settings.combos.size(), refused.size());
    const auto t0 = std::chrono::steady_clock::now();
    const int status = run_compare_job(job);
    std::printf("\ndefault job: %.1f s wall time\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return status;
  } catch (const std::exception& e) {
    std::cerr << "contactlab: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace contactlab
