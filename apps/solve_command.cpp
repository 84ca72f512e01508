#include "apps/solve_command.hpp"

#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "apps/command_line.hpp"
#include "apps/time_budget.hpp"
#include "io/output_file.hpp"
#include "sim/run_parameters.hpp"
#include "studies/fc3d_solve.hpp"

namespace po = boost::program_options;

namespace contactlab {
namespace {

std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";  // JSON has no NaN or inf
  std::ostringstream s;
  s << std::setprecision(9) << x;
  return s.str();
}

void write_solution_csv(std::ostream& out, const Fc3dSolveResult& res) {
  out << "contact,rn,rt1,rt2,un,ut1,ut2\n" << std::setprecision(17);
  for (int k = 0; k < static_cast<int>(res.r.size()) / 3; ++k) {
    out << k;
    for (int i = 0; i < 3; ++i) out << ',' << res.r[3 * k + i];
    for (int i = 0; i < 3; ++i) out << ',' << res.u[3 * k + i];
    out << '\n';
  }
}

// --time-limit: the solvers iterate without a way to be cancelled from
// outside (Solver::solve runs to its own stopping rule), so the budget is a
// hard one, as bench-problems' is: SIGALRM at the deadline removes any
// temporary output file, prints the message prepared here and ends the
// process with kTimeLimitExit. Only async-signal-safe calls in the handler.
char g_time_limit_message[256];
size_t g_time_limit_message_size = 0;

extern "C" void on_solve_time_limit(int) {
  remove_temporary_outputs();
  if (g_time_limit_message_size > 0) {
    const ssize_t n = write(2, g_time_limit_message, g_time_limit_message_size);
    (void)n;
  }
  _exit(kTimeLimitExit);
}

void arm_time_limit(double seconds) {
  g_time_limit_message_size = static_cast<size_t>(std::max(
      0, std::snprintf(g_time_limit_message, sizeof g_time_limit_message,
                       "contactlab solve: time limit of %s s reached before the solve finished; no result file written\n",
                       format_seconds(seconds).c_str())));
  g_time_limit_message_size = std::min(g_time_limit_message_size, sizeof g_time_limit_message - 1);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_solve_time_limit;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, nullptr);
  const double s = std::min(seconds, 1e8);
  itimerval limit{};
  limit.it_value.tv_sec = static_cast<time_t>(s);
  limit.it_value.tv_usec = static_cast<suseconds_t>((s - std::floor(s)) * 1e6);
  if (limit.it_value.tv_sec == 0 && limit.it_value.tv_usec == 0) limit.it_value.tv_usec = 1;  // 0 would disarm
  setitimer(ITIMER_REAL, &limit, nullptr);
}

void disarm_time_limit() {
  itimerval off{};
  setitimer(ITIMER_REAL, &off, nullptr);
}

}  // namespace

int solve_cli(const std::vector<std::string>& args) {
  std::string problem_path, out;
  Fc3dSolveOptions so;
  bool json = false;
  std::string storage = "auto", time_limit_text;
  double time_limit = 0;
  po::options_description opts("contactlab solve PROBLEM [options]  (PROBLEM: a Siconos .dat or FCLib .hdf5 file)");
  opts.add_options()("help,h", "this help")
      ("solver", po::value(&so.solver)->default_value("padmm"), "padmm | pgs | newton (contactlab list solvers)")
      ("contact", po::value(&so.contact), "contact law (default: the solver's own: desaxce, newton: fischer_burmeister)")
      ("set", po::value<std::vector<std::string>>(&so.sets)->composing(), "KEY=VALUE solver.* or contact.* option (repeatable)")
      ("delassus", po::value(&storage)->default_value("auto"), "how solvers hold W: auto (sparse when <= 10 % full) | dense | sparse")
      ("tol", po::value(&so.tol)->default_value(1e-6, "1e-6"), "success: relative error |natural map| / |q| <= T")
      ("out", po::value(&out), "CSV of the solution: contact,rn,rt1,rt2,un,ut1,ut2")
      ("json", po::bool_switch(&json), "print status, iterations, time and residuals as JSON")
      ("time-limit", po::value(&time_limit_text),
       "wall-clock budget in s for reading and solving (a hard limit); when it runs out: no result file, exit 3");
  po::variables_map vm;
  if (const int exit_code = parse_command_line(args, "contactlab solve", opts, "problem", po::value(&problem_path), 1, vm); exit_code >= 0)
    return exit_code;
  if (problem_path.empty()) {
    std::cerr << "contactlab solve: error: missing PROBLEM (a Siconos .dat or FCLib .hdf5 file)\n";
    return 2;
  }
  try {
    check_tolerance(so.tol, "--tol");
  } catch (const std::invalid_argument& e) {
    std::cerr << "contactlab solve: error: " << e.what() << "\n";
    return 2;
  }
  if (storage == "auto") so.storage = FrictionContactProblem::Storage::Auto;
  else if (storage == "dense") so.storage = FrictionContactProblem::Storage::Dense;
  else if (storage == "sparse") so.storage = FrictionContactProblem::Storage::Sparse;
  else {
    std::cerr << "contactlab solve: error: --delassus '" << storage << "': expected auto, dense or sparse\n";
    return 2;
  }
  if (vm.count("time-limit")) {
    try {
      time_limit = parse_time_limit(time_limit_text);
    } catch (const std::exception& e) {
      std::cerr << "contactlab solve: error: " << e.what() << "\n";
      return 2;
    }
  }
  OutputFile out_csv(out);
  try {
    check_distinct_paths({{"the problem file", problem_path}}, {{"--out", out}});
    if (!out.empty()) check_output_path(out);
    if (time_limit > 0) arm_time_limit(time_limit);
    const FrictionContactProblem problem = read_fc3d_problem(problem_path);
    const Fc3dSolveResult res = solve_fc3d(problem, so);
    // The answer is in: writing it is not cut short.
    if (time_limit > 0) disarm_time_limit();
    if (std::ostream* csv = out_csv.open()) write_solution_csv(*csv, res);
    out_csv.commit();
    const bool finite = std::isfinite(res.errors.relative);
    const char* status = res.success ? "converged" : (finite ? "not_converged" : "failed");
    if (json) {
      std::cout << "{\"problem\": \"" << problem.name << "\", \"file\": \"" << problem_path
                << "\", \"contacts\": " << problem.num_contacts << ", \"solver\": \"" << res.solver
                << "\", \"contact\": \"" << res.contact << "\", \"delassus\": \"" << (res.sparse_W ? "sparse" : "dense")
                << "\", \"status\": \"" << status
                << "\", \"solver_status\": \"" << to_string(res.stats.status) << "\", \"iterations\": "
                << res.stats.iterations << ", \"rounds\": " << res.rounds << ", \"time\": " << json_number(res.time_s)
                << ", \"tol\": " << json_number(so.tol) << ", \"natural_map\": " << json_number(res.errors.natural_map)
                << ", \"natural_map_relative\": " << json_number(res.errors.relative)
                << ", \"siconos_error\": " << json_number(res.errors.siconos)
                << ", \"r_primal\": " << json_number(res.errors.r_primal)
                << ", \"r_dual\": " << json_number(res.errors.r_dual)
                << ", \"r_compl\": " << json_number(res.errors.r_compl) << "}" << std::endl;
    } else {
      std::cout << problem.name << " (" << problem.num_contacts << " contacts): " << res.solver << " + " << res.contact
                << ": " << status << " in " << res.stats.iterations << " iterations, " << res.time_s
                << " s, relative error " << res.errors.relative << " (tol " << so.tol << ")\n";
    }
    return res.success ? 0 : 1;
  } catch (const std::exception& e) {
    if (time_limit > 0) disarm_time_limit();
    out_csv.discard();
    std::cerr << "contactlab solve: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace contactlab
