// `contactlab run`: simulate one scene and write trajectory / metrics files.
#pragma once

#include <string>
#include <vector>

namespace contactlab {

struct RunRequest {
  std::string scene;
  std::string contact = "desaxce", solver = "padmm", scheme = "velocity";
  double dt = 0;          // 0: the file's timestep
  double duration = -1;   // s; -1: not given
  long steps = -1;        // -1: not given
  std::vector<std::string> sets;   // KEY=VALUE
  std::string keyframe;
  std::vector<std::string> ctrls;  // ACTUATOR=VALUE
  std::string ctrl_file;
  std::string out, stats;
  bool json = false;
  bool quiet = false;     // no warnings/progress (used by the default job)
};

// Runs and returns the process exit status; errors are printed to stderr as
// one line and leave no output file behind.
int run_command(const RunRequest& request);
// Prints every --set key of the chosen parts with its current value.
int list_options_command(const RunRequest& request);

}  // namespace contactlab
