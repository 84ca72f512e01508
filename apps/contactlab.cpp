// The contactlab command: list parts and scenes, run a scene, compare
// combinations, validate, and (with no arguments) the default job: every valid
// combination on the validation scenes and wheeled_pallet (compare_command).
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "apps/command_line.hpp"
#include "apps/compare_command.hpp"
#include "apps/grad_command.hpp"
#include "apps/rollout_options.hpp"
#include "apps/run_command.hpp"
#include "apps/solve_command.hpp"
#include "apps/validate_command.hpp"
#include "io/scene_library.hpp"
#include "peers/register_peers.hpp"
#include "sim/peer_engine.hpp"
#include "sim/registry.hpp"

namespace po = boost::program_options;
using namespace contactlab;

namespace {

const char* kUsage =
    "usage: contactlab                      default job: compare every valid combination on the validation scenes\n"
    "       contactlab list [models|solvers|schemes|adjoints|peers|combos|scenes]\n"
    "       contactlab run SCENE [options]  (contactlab run --help)\n"
    "       contactlab compare SCENE... [--combos LIST|all] [--dt LIST] [--duration S] [--reference COMBO@DT] [--out DIR]\n"
    "       contactlab validate [--json]\n"
    "       contactlab grad SCENE --loss LOSS [--wrt LIST] [run options]   (contactlab grad --help)\n"
    "       contactlab gradcheck SCENE --loss LOSS --wrt LIST [--eps E] [--tol T] [run options]\n"
    "       contactlab solve PROBLEM [--contact NAME] [--solver NAME] [--set KEY=VALUE]... [--tol T] [--out FILE] [--json]\n"
    "       contactlab bench-problems DIR... [--solvers LIST] [--tol T] [--time-limit S] [--peer siconos] [--out DIR]\n";

void print_parts(const std::string& title, const std::vector<PartInfo>& parts) {
  std::cout << title << ":\n";
  for (const auto& p : parts) std::cout << "  " << p.name << "  -  " << p.summary << "\n";
}

int list_command(const std::vector<std::string>& args) {
  const std::string what = args.empty() ? "all" : args[0];
  if (args.size() > 1) {
    std::cerr << "contactlab list: error: expected at most one of models|solvers|schemes|adjoints|peers|combos|scenes\n";
    return 2;
  }
  bool any = false;
  if (what == "all" || what == "models") print_parts("contact models", contact_model_names()), any = true;
  if (what == "all" || what == "solvers") print_parts("solvers", solver_names()), any = true;
  if (what == "all" || what == "schemes") print_parts("schemes", scheme_names()), any = true;
  if (what == "all" || what == "adjoints") {
    print_parts("step adjoints (per scheme; Scheme::make_step_adjoint)", step_adjoint_pairings());
    print_parts("solve adjoints (paired with each solver; others use the dense reference; "
                "--set adjoint.solve=reference for all)",
                solve_adjoint_pairings());
    print_parts("sensitivity kinds (--set adjoint.sensitivity=NAME)", sensitivity_kinds());
    any = true;
  }
  if (what == "all" || what == "peers") {
    std::cout << "peer engines:\n";
    for (const auto& p : peer_engines()) std::cout << "  " << p.name << "  -  " << p.summary << "\n";
    any = true;
  }
  if (what == "all" || what == "combos") {
    std::cout << "combinations (scheme + contact + solver):\n";
    for (const auto& sc : scheme_names())
      for (const auto& law : contact_model_names())
        for (const auto& so : solver_names()) {
          const auto scheme = make_scheme(sc.name);
          const auto model = make_contact_model(law.name);
          const auto solver = make_solver(so.name);
          const std::string why = combination_refusal(*scheme, *model, *solver);
          std::cout << "  " << sc.name << " + " << law.name << " + " << so.name << ": "
                    << (why.empty() ? "ok" : "refused: " + why) << "\n";
        }
    any = true;
  }
  if (what == "all" || what == "scenes") {
    std::cout << "scenes:\n";
    for (const auto& s : builtin_scene_names()) std::cout << "  " << s << "\n";
    any = true;
  }
  if (!any) {
    std::cerr << "contactlab list: error: unknown category '" << what
              << "' (models|solvers|schemes|adjoints|peers|combos|scenes)\n";
    return 2;
  }
  return 0;
}

int run_cli(const std::vector<std::string>& args) {
  RunRequest rq;
  po::options_description opts("contactlab run SCENE [options]");
  opts.add_options()("help,h", "this help");
  add_rollout_options(opts, rq.spec);
  opts.add_options()
      ("peer", po::value(&rq.peer), "run the file in a peer engine instead: mujoco (when built with MuJoCo)")
      ("out", po::value(&rq.out), "trajectory CSV (one row per step per body)")
      ("stats", po::value(&rq.stats), "per-step metrics CSV")
      ("json", po::bool_switch(&rq.json), "print a JSON summary on stdout")
      ("list-options", "print every --set key of the chosen parts with its default and exit");
  po::variables_map vm;
  if (const int exit_code = parse_command_line(args, "contactlab run", opts, "scene", po::value(&rq.spec.scene), 1, vm); exit_code >= 0)
    return exit_code;
  if (rq.spec.scene.empty()) {
    std::cerr << "contactlab run: error: missing SCENE (an MJCF file or one of: contactlab list scenes)\n";
    return 2;
  }
  if (vm.count("list-options")) return list_options_command(rq);
  return run_command(rq);
}

}  // namespace

int main(int argc, char** argv) {
  register_builtin_peers();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return compare_default_job();
  const std::string cmd = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "list") return list_command(rest);
  if (cmd == "run") return run_cli(rest);
  if (cmd == "compare") return compare_cli(rest);
  if (cmd == "solve") return solve_cli(rest);
  if (cmd == "bench-problems") return bench_problems_cli(rest);
  if (cmd == "validate") return validate_command(!rest.empty() && rest[0] == "--json");
  if (cmd == "grad") return grad_cli(rest, false);
  if (cmd == "gradcheck") return grad_cli(rest, true);
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << kUsage;
    return 0;
  }
  std::cerr << "contactlab: error: unknown command '" << cmd << "'\n" << kUsage;
  return 2;
}
