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
      ("dt", po::value(&spec.dt), "time step in s (default: the file's option/timestep)")
      ("duration", po::value(&spec.duration), "simulated time in s (default: the scene's contactlab.duration, else 1)")
      ("steps", po::value(&spec.steps), "number of steps (instead of --duration)")
      ("set", po::value(&spec.sets)->composing(),
       "KEY=VALUE option (solver.*, contact.*, scheme.*, body.NAME.mass, geom.NAME.friction, actuator.NAME.kp|kv; "
       "--list-options prints them all); repeatable")
      ("keyframe", po::value(&spec.keyframe), "initial state from this MJCF keyframe")
      ("ctrl", po::value(&spec.ctrls)->composing(), "ACTUATOR=VALUE constant control; repeatable")
      ("ctrl-file", po::value(&spec.ctrl_file), "per-step controls, CSV with header step,ACTUATOR,...");
}

}  // namespace contactlab
