// Command-line options shared by `run`, `grad` and `gradcheck`: the scene's
// parts, step, duration, settings, keyframe and controls.
#pragma once

#include <boost/program_options.hpp>

#include "sim/rollout_setup.hpp"

namespace contactlab {

inline void add_rollout_options(boost::program_options::options_description& opts, RolloutSpec& spec) {
  namespace po = boost::program_options;
  opts.add_options()
      ("contact", po::value(&spec.contact)->default_value(spec.contact), "contact model (contactlab list models)")
      ("solver", po::value(&spec.solver)->default_value(spec.solver), "solver (contactlab list solvers)")
      ("scheme", po::value(&spec.scheme)->default_value(spec.scheme), "time-stepping scheme")
      // Given values land in the spec's optionals; prepare_rollout checks them
      // (sim/run_parameters.hpp), so --dt 0 and --steps -1 are refused, not read as "not given".
      ("dt", po::value<double>()->notifier([&spec](double v) { spec.dt = v; }),
       "time step in s, in [1e-9, 1] (default: the file's option/timestep)")
      ("duration", po::value<double>()->notifier([&spec](double v) { spec.duration = v; }),
       "simulated time in s, in [0, 1e6] (default: the scene's contactlab.duration, else 1)")
      ("steps", po::value<long>()->notifier([&spec](long v) { spec.steps = v; }),
       "number of steps, in [0, 1e9] (instead of --duration)")
      ("set", po::value(&spec.sets)->composing(),
       "KEY=VALUE option (solver.*, contact.*, scheme.*, body.NAME.mass, geom.NAME.friction, actuator.NAME.kp|kv; "
       "--list-options prints them all); repeatable")
      ("keyframe", po::value(&spec.keyframe), "initial state from this MJCF keyframe")
      ("ctrl", po::value(&spec.ctrls)->composing(), "ACTUATOR=VALUE constant control; repeatable")
      ("ctrl-file", po::value(&spec.ctrl_file), "per-step controls, CSV with header step,ACTUATOR,...")
      ("allow-unsupported", po::bool_switch(&spec.allow_unsupported),
       "run a file with MJCF features contactlab does not implement, ignoring them (listed on stderr and in "
       "--json as \"ignored\"); default: refuse the file");
}

}  // namespace contactlab
