// The contactlab command: list parts and scenes, run a scene, compare
// combinations, validate, and (with no arguments) the default job: every valid
// combination on the validation scenes and wheeled_pallet (compare_command).
#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "apps/bench_scale_command.hpp"
#include "apps/command_line.hpp"
#include "apps/compare_command.hpp"
#include "apps/grad_command.hpp"
#include "apps/rollout_options.hpp"
#include "apps/run_command.hpp"
#include "apps/solve_command.hpp"
#include "apps/study_command.hpp"
#include "apps/time_budget.hpp"
#include "apps/validate_command.hpp"
#include "apps/view_command.hpp"
#include "io/output_file.hpp"
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
    "       contactlab compare SCENE... [--combos LIST|all] [--dt LIST] [--duration S] [--reference COMBO@DT] [--time-limit S] [--out DIR]\n"
    "       contactlab validate [--json]\n"
    "       contactlab grad SCENE --loss LOSS [--wrt LIST] [run options]   (contactlab grad --help)\n"
    "       contactlab gradcheck SCENE --loss LOSS --wrt LIST [--eps E] [--tol T] [run options]\n"
    "       contactlab solve PROBLEM [--contact NAME] [--solver NAME] [--set KEY=VALUE]... [--tol T] [--time-limit S] [--out FILE] [--json]\n"
    "       contactlab bench-problems DIR... [--solvers LIST] [--tol T] [--time-limit S] [--peer siconos] [--out DIR]\n"
    "       contactlab bench-scale [--shapes LIST] [--sizes LIST] [--combos LIST] [--duration S] [--dt S] [--peer mujoco|none|auto] [--time-limit S] [--out DIR]\n"
    "       contactlab study NAME [--trials N] [--seed S] [--arms LIST] [--full] [--out DIR]   (contactlab study --list)\n"
    "       contactlab view TRAJ.csv... --scene SCENE [--contacts FILE] [--out DIR]   web page replaying trajectories\n";

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
  std::string time_limit;
  po::options_description opts("contactlab run SCENE [options]");
  opts.add_options()("help,h", "this help");
  add_rollout_options(opts, rq.spec);
  opts.add_options()
      ("peer", po::value(&rq.peer), "run the file in a peer engine instead: mujoco (when built with MuJoCo)")
      ("out", po::value(&rq.out), "trajectory CSV (one row per step per body)")
      ("stats", po::value(&rq.stats), "per-step metrics CSV")
      ("contacts", po::value(&rq.contacts), "per-step contact points and forces CSV (for contactlab view --contacts)")
      ("json", po::bool_switch(&rq.json), "print a JSON summary on stdout")
      ("quiet,q", po::bool_switch(&rq.quiet), "no summary line or progress bar on stderr (warnings and errors still)")
      ("time-limit", po::value(&time_limit), "wall-clock budget in s; when it runs out: stop, no result file, exit 3")
      ("list-options", "print every --set key of the chosen parts with its default and exit");
  po::variables_map vm;
  if (const int exit_code = parse_command_line(args, "contactlab run", opts, "scene", po::value(&rq.spec.scene), 1, vm); exit_code >= 0)
    return exit_code;
  if (rq.spec.scene.empty()) {
    std::cerr << "contactlab run: error: missing SCENE (an MJCF file or one of: contactlab list scenes)\n";
    return 2;
  }
  if (vm.count("time-limit")) {
    try {
      rq.time_limit = parse_time_limit(time_limit);
    } catch (const std::exception& e) {
      std::cerr << "contactlab run: error: " << e.what() << "\n";
      return 2;
    }
  }
  if (vm.count("list-options")) return list_options_command(rq);
  return run_command(rq);
}

int dispatch(const std::vector<std::string>& args) {
  if (args.empty()) return default_job();
  const std::string cmd = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "list") return list_command(rest);
  if (cmd == "run") return run_cli(rest);
  if (cmd == "compare") return compare_cli(rest);
  if (cmd == "solve") return solve_cli(rest);
  if (cmd == "bench-problems") return bench_problems_cli(rest);
  if (cmd == "bench-scale") return bench_scale_cli(rest);
  if (cmd == "study") return study_cli(rest);
  if (cmd == "view") return view_cli(rest);
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

// Every result printed on standard output (--json, tables) must have got
// there: one check, after the last flush, for every command. A command that
// succeeded but whose output was lost (a full disk, a closed pipe) exits 1.
int check_stdout(int status, const std::vector<std::string>& args) {
  std::cout.flush();
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;
  const int err = errno;
  if (!flush_failed && !std::ferror(stdout) && std::cout.good()) return status;
  std::cerr << "contactlab" << (args.empty() ? "" : " " + args[0]) << ": error: cannot write standard output"
            << (flush_failed && err ? std::string(": ") + std::strerror(err) : std::string(" (a write failed)"))
            << "; the output is incomplete" << std::endl;
  return status == 0 ? 1 : status;
}

}  // namespace

int main(int argc, char** argv) {
  // SIGINT, SIGTERM, SIGHUP, SIGPIPE remove the temporary output files (io/output_file.hpp).
  install_output_signal_handlers();
  register_builtin_peers();
  const std::vector<std::string> args(argv + 1, argv + argc);
  return check_stdout(dispatch(args), args);
}
