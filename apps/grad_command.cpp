#include "apps/grad_command.hpp"

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <sys/resource.h>

#include "apps/command_line.hpp"
#include "apps/json_text.hpp"
#include "apps/progress.hpp"
#include "apps/rollout_options.hpp"
#include "io/scene_library.hpp"
#include "sim/gradcheck.hpp"
#include "sim/gradient_job.hpp"
#include "sim/registry.hpp"
#include "sim/rollout.hpp"
#include "sim/run_parameters.hpp"

namespace po = boost::program_options;

namespace contactlab {

namespace {

std::string number(Real v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

int grad_cli(const std::vector<std::string>& args, bool check) {
  const char* name = check ? "contactlab gradcheck" : "contactlab grad";
  RolloutSpec spec;
  std::string loss, wrt;
  bool profile = false;
  long checkpoint = 0;
  GradCheckOptions check_options;
  check_options.tolerance = 1e-2;
  po::options_description opts(std::string(name) + " SCENE --loss LOSS " + (check ? "--wrt LIST" : "[--wrt LIST]") +
                               " [options]\n(the adjoint's options: --set adjoint.KEY=VALUE; --list-options prints "
                               "every key; docs/gradients.md)");
  opts.add_options()("help,h", "this help")
      ("loss", po::value(&loss), "final:BODY.FIELD, sumsq:BODY.pos|vel|angvel=X,Y,Z, scaled a*TERM, summed with +")
      ("wrt", po::value(&wrt), "comma-separated inputs: init:BODY.FIELD, param:geom.NAME.friction, "
                               "param:body.NAME.mass, param:actuator.NAME.kp|kv, ctrl:ACTUATOR[@STEP]")
      ("checkpoint", po::value(&checkpoint)->default_value(0),
       "keep the world's state every K steps and replay segments backward (0: record every step)")
      ("profile", po::bool_switch(&profile),
       "print forward and backward wall times, the step records' memory, the solve adjoint's methods and time, and "
       "the peak resident memory to stderr")
      ("list-options", "print every --set key (the simulation's and the adjoint's) with its value and default, and exit");
  if (check)
    opts.add_options()("eps", po::value(&check_options.eps)->default_value(check_options.eps),
                       "finite-difference step (input units)")
        ("tol", po::value(&check_options.tolerance)->default_value(check_options.tolerance),
         "largest accepted relative error");
  add_rollout_options(opts, spec);
  po::variables_map vm;
  if (const int exit_code = parse_command_line(args, name, opts, "scene", po::value(&spec.scene), 1, vm); exit_code >= 0)
    return exit_code;
  if (spec.scene.empty() || (!vm.count("list-options") && (loss.empty() || (check && wrt.empty())))) {
    std::cerr << name << ": error: missing " << (spec.scene.empty() ? "SCENE" : loss.empty() ? "--loss" : "--wrt")
              << "\n" << opts;
    return 2;
  }
  try {
    if (check) {
      check_finite_difference_step(check_options.eps, "--eps");
      check_tolerance(check_options.tolerance, "--tol");
    }
    std::vector<std::string> warnings;
    MjcfLoadOptions load_options;
    load_options.allow_unsupported = spec.allow_unsupported;
    spec.model = std::make_shared<const Model>(load_scene(spec.scene, load_options, &warnings));
    for (const auto& w : warnings) std::cerr << "warning: " << w << "\n";
    if (vm.count("list-options")) {
      StepAdjointOptions adjoint;
      std::string adjoint_table;
      RolloutSpec sim_spec = spec;
      sim_spec.sets = apply_adjoint_settings(spec.sets, adjoint, &adjoint_table);
      std::cout << prepare_rollout(sim_spec).sim.describe_options() << adjoint_table;
      return 0;
    }
    const GradientJob job{spec, loss, wrt, checkpoint};
    // gradcheck reports non-finite entries as FAIL in its table; grad refuses them.
    GradCheckJobResult checked;
    if (check) {
      // The finite-difference rollouts, two per input, are most of gradcheck's time.
      Progress bar(0, true, "rollouts");
      checked = run_gradcheck_job(job, check_options, [&](long done, long total) {
        bar.set_total(total);
        bar.update(done);
      });
      bar.finish();
    }
    const GradientJobResult answer = check ? checked.gradient : run_gradient_job(job);
    const GradientResult& g = answer.result;
    const std::vector<GradInput>& inputs = answer.inputs;
    if (profile) {
      const double forward = answer.forward_s, backward = answer.backward_s;
      std::fprintf(stderr,
                   "profile: steps %ld forward_s %.6g backward_s %.6g backward/forward %.3g record_bytes %zu "
                   "(%.1f per step)\n",
                   g.steps, forward, backward, forward > 0 ? backward / forward : 0.0, g.record_bytes,
                   g.steps ? double(g.record_bytes) / g.steps : 0.0);
      std::string methods;
      for (const auto& [method, count] : g.solve_methods) methods += " " + method + " " + std::to_string(count);
      std::fprintf(stderr, "profile: solve_adjoint %s%s krylov_iterations %ld solve_adjoint_s %.6g\n",
                   g.solve_adjoint.c_str(), methods.c_str(), g.krylov_iterations, g.solve_adjoint_seconds);
      // The process's peak resident memory (Linux reports ru_maxrss in KiB).
      rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      std::fprintf(stderr, "profile: peak_rss_bytes %ld\n", static_cast<long>(usage.ru_maxrss) * 1024);
    }
    if (g.reference_fallbacks > 0)
      std::cerr << "note: " << g.reference_fallbacks << " of " << g.steps << " steps' " << g.solve_adjoint
                << " adjoint solves fell back to the dense reference (" << g.first_fallback_reason << ")\n";
    if (g.fallbacks > 0)
      std::cerr << "warning: " << g.fallbacks << " of " << g.steps
                << " steps fell back from the relaxed to the exact sensitivity\n";
    if (!check) check_gradient_finite(answer);
    if (!check) {
      std::ostringstream js;
      js << "{\"loss\": " << number(g.loss) << ", \"gradient\": {";
      for (size_t i = 0; i < inputs.size(); ++i)
        js << (i ? ", " : "") << json_string(inputs[i].text) << ": " << number(g.gradient[i]);
      js << "}}";
      std::cout << js.str() << std::endl;
      return 0;
    }
    const std::vector<GradCheckEntry>& table = checked.entries;
    bool all_ok = true;
    std::printf("%-36s %16s %16s %10s  %s\n", "input", "analytic", "finite_diff", "rel_error", "status");
    for (const GradCheckEntry& e : table) {
      std::printf("%-36s % 16.8e % 16.8e %10.2e  %s\n", e.input.c_str(), e.analytic, e.finite_difference,
                  e.relative_error, e.ok ? "ok" : "FAIL");
      all_ok = all_ok && e.ok;
    }
    std::printf("loss %.10g; %zu inputs, tolerance %.3g, eps %.3g: %s\n", g.loss, table.size(), check_options.tolerance,
                check_options.eps, all_ok ? "all within tolerance" : "some entries exceed the tolerance");
    return all_ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << name << ": error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace contactlab
