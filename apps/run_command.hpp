// `contactlab run`: simulate one scene and write trajectory / metrics files.
#pragma once

#include <string>
#include <vector>

#include "sim/rollout_setup.hpp"

namespace contactlab {

struct RunRequest {
  RolloutSpec spec;       // scene, parts, settings, steps, controls
  std::string peer;       // "mujoco": run the file in MuJoCo instead (peers/mujoco_peer.hpp)
  std::string out, stats;
  std::string contacts;   // --contacts: per-step contact points and forces CSV (apps/contacts_output.hpp)
  bool json = false;
  bool quiet = false;     // --quiet: no summary line or progress bar (warnings and errors still)
  double time_limit = 0;  // --time-limit: wall-clock seconds for the command, 0: none
};

// Runs and returns the process exit status (0; 1: error; 3: --time-limit
// reached, apps/time_budget.hpp); errors are printed to stderr as one line and
// leave no output file behind.
int run_command(const RunRequest& request);
// Prints every --set key of the chosen parts with its current value.
int list_options_command(const RunRequest& request);

}  // namespace contactlab
