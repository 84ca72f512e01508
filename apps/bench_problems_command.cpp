// contactlab bench-problems: every solver on every problem, each solve in its
// own process so that a time limit is a hard limit and a solver that crashes
// (a peer on a singular W, say) costs one row, not the benchmark.
#include <poll.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include "apps/command_line.hpp"
#include "apps/compare_command.hpp"
#include "apps/progress.hpp"
#include "apps/solve_command.hpp"
#include "io/output_file.hpp"
#include "peers/siconos_peer.hpp"
#include "sim/registry.hpp"
#include "sim/run_parameters.hpp"
#include "studies/fc3d_solve.hpp"
#include "studies/performance_profile.hpp"

namespace po = boost::program_options;

namespace contactlab {
namespace {

// A row of the benchmark: one of our solvers with its options, or a Siconos solver.
struct BenchSolver {
  std::string label;
  std::string solver;
  std::vector<std::string> sets;
  bool siconos = false;
};

std::vector<BenchSolver> parse_solvers(const std::string& list, bool siconos_peer) {
  std::vector<BenchSolver> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    if (item == "padmm_matrix_free") {
      out.push_back({item, "padmm", {"solver.delassus=matrix_free"}, false});
    } else if (item.rfind("siconos_", 0) == 0) {
      const auto& known = siconos_peer_solvers();
      if (std::find(known.begin(), known.end(), item) == known.end())
        throw std::invalid_argument("--solvers: unknown Siconos solver '" + item + "'");
      out.push_back({item, item, {}, true});
    } else {
      (void)make_solver(item);  // throws naming the unknown solver and listing the known ones
      out.push_back({item, item, {}, false});
    }
  }
  if (siconos_peer)
    for (const std::string& name : siconos_peer_solvers())
      if (std::none_of(out.begin(), out.end(), [&](const BenchSolver& b) { return b.label == name; }))
        out.push_back({name, name, {}, true});
  if (out.empty()) throw std::invalid_argument("--solvers: empty list");
  return out;
}

struct BenchRun {
  std::string status;  // solved | not_converged | failed | time_limit | crashed | error
  int iterations = 0;
  double time_s = std::numeric_limits<double>::quiet_NaN();
  double error = std::numeric_limits<double>::quiet_NaN();    // natural map / |q|, recomputed by us
  double siconos = std::numeric_limits<double>::quiet_NaN();  // Siconos' own measure, recomputed by us
  std::string message;
};

// What the child process sends back (plain bytes through a pipe).
struct ChildReport {
  int solved;
  int finite;
  int iterations;
  double time_s;
  double error;
  double siconos;
  char message[240];
};

ChildReport solve_in_child(const FrictionContactProblem& problem, const BenchSolver& b, double tol,
                           const std::vector<std::string>& sets) {
  ChildReport rep{};
  try {
    // Short solves are repeated (>= 20 ms in all) so their time is not timer noise.
    double total = 0;
    int repeats = 0;
    do {
      if (b.siconos) {
        // Siconos stops on its own, looser measure (natural map over
        // max(|q|, |r|, |u|)); when that leaves ours above tol, it is asked
        // again with the tolerance ours needs (the ratio is known now), and
        // both solves count.
        double siconos_tol = tol;
        rep.iterations = 0;
        for (int round = 0; round < 3; ++round) {
          const SiconosPeerResult sr = solve_with_siconos(problem, b.solver, siconos_tol, 10000);
          VecX u;
          const Fc3dErrors e = fc3d_errors(problem, sr.r, u);  // the same measure for every row
          rep.solved = fc3d_success(e, tol);
          rep.iterations += sr.iterations;
          rep.error = e.relative;
          rep.siconos = e.siconos;
          total += sr.time_s;
          if (!(e.relative > tol) || !sr.converged || !(e.relative > 0)) break;
          siconos_tol = 0.5 * tol * e.siconos / e.relative;
        }
      } else {
        Fc3dSolveOptions o;
        o.solver = b.solver;
        o.sets = b.sets;
        o.sets.insert(o.sets.end(), sets.begin(), sets.end());
        o.tol = tol;
        const Fc3dSolveResult r = solve_fc3d(problem, o);
        rep.solved = r.success;
        rep.iterations = r.stats.iterations;
        rep.error = r.errors.relative;
        rep.siconos = r.errors.siconos;
        total += r.time_s;
      }
      ++repeats;
    } while (total < 0.02 && repeats < 100);
    rep.time_s = total / repeats;
    rep.finite = std::isfinite(rep.error);
    rep.solved = rep.solved && rep.finite;
  } catch (const std::exception& e) {
    rep.finite = -1;
    std::snprintf(rep.message, sizeof rep.message, "%s", e.what());
  }
  return rep;
}

BenchRun run_isolated(const FrictionContactProblem& problem, const BenchSolver& b, double tol, double time_limit,
                      const std::vector<std::string>& sets) {
  BenchRun run;
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("bench-problems: pipe() failed");
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("bench-problems: fork() failed");
  if (pid == 0) {
    close(fds[0]);
    itimerval limit{};
    const double t = std::min(time_limit, 1e8);  // fits time_t
    limit.it_value.tv_sec = static_cast<time_t>(t);
    limit.it_value.tv_usec = static_cast<suseconds_t>((t - std::floor(t)) * 1e6);
    if (limit.it_value.tv_sec == 0 && limit.it_value.tv_usec == 0) limit.it_value.tv_usec = 1;  // 0 would disarm
    setitimer(ITIMER_REAL, &limit, nullptr);  // SIGALRM ends the child at the limit
    const ChildReport rep = solve_in_child(problem, b, tol, sets);
    const ssize_t n = write(fds[1], &rep, sizeof rep);
    _exit(n == static_cast<ssize_t>(sizeof rep) ? 0 : 1);
  }
  close(fds[1]);
  ChildReport rep{};
  size_t got = 0;
  while (got < sizeof rep) {
    const ssize_t n = read(fds[0], reinterpret_cast<char*>(&rep) + got, sizeof rep - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  if (got == sizeof rep) {
    if (rep.finite < 0) {
      run.status = "error";
      run.message = rep.message;
      return run;
    }
    run.status = rep.solved ? "solved" : (rep.finite ? "not_converged" : "failed");
    run.iterations = rep.iterations;
    run.time_s = rep.time_s;
    run.error = rep.error;
    run.siconos = rep.siconos;
  } else if (WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGALRM) {
    run.status = "time_limit";
  } else {
    run.status = "crashed";
    run.message = WIFSIGNALED(wstatus) ? std::string("signal ") + strsignal(WTERMSIG(wstatus)) : "no report";
  }
  return run;
}

std::string fmt(double x, int precision = 3) {
  if (!std::isfinite(x)) return "";
  std::ostringstream s;
  s << std::setprecision(precision) << x;
  return s.str();
}

void write_profile_plot(const std::string& dir, const std::vector<BenchSolver>& solvers, const PerformanceProfile& prof,
                        double tol) {
  OutputFile script(dir + "/performance_profile.gp");
  std::ostream& gp = *script.open();
  gp << "# Generated by contactlab bench-problems; rerun with: cd " << dir << " && gnuplot performance_profile.gp\n"
     << "set terminal pngcairo size 960,640 font 'sans,10'\nset output 'performance_profile.png'\n"
     << "set title 'Performance profile (time), success = |natural map| / |q| <= " << tol << "' noenhanced\n"
     << "set xlabel 'tau (time / best time on the problem)'\nset ylabel 'fraction of problems solved'\n"
     << "set logscale x 2\nset yrange [0:1.02]\nset key bottom right noenhanced\nset grid\n"
     << "$profile << EOD\n";
  for (size_t i = 0; i < prof.tau.size(); ++i) {
    gp << std::setprecision(9) << prof.tau[i];
    for (const auto& f : prof.fraction) gp << ' ' << f[i];
    gp << '\n';
  }
  gp << "EOD\nplot ";
  for (size_t s = 0; s < solvers.size(); ++s)
    gp << (s ? ", " : "") << "$profile using 1:" << s + 2 << " with steps lw 2 title '" << solvers[s].label << "'";
  gp << '\n';
  script.commit();
}

}  // namespace

int bench_problems_cli(const std::vector<std::string>& args) {
  std::vector<std::string> paths, sets;
  std::string solver_list = "padmm,padmm_matrix_free,pgs,newton", peer, out_dir = "bench_problems";
  double tol = 1e-6, time_limit = 10;
  po::options_description opts("contactlab bench-problems DIR... [options]  (directories of .dat / .hdf5 problems, or files)");
  opts.add_options()("help,h", "this help")
      ("solvers", po::value(&solver_list)->default_value(solver_list),
       "comma-separated: padmm, padmm_matrix_free, pgs, newton, siconos_nsn_ac, siconos_nsn_fb, siconos_nsgs")
      ("tol", po::value(&tol)->default_value(tol, "1e-6"), "success: natural map / |q| <= T, recomputed by contactlab for every row")
      ("time-limit", po::value(&time_limit)->default_value(time_limit, "10"), "seconds per solve; a hard limit (own process)")
      ("peer", po::value(&peer), "siconos: add Siconos' NSN-AC, NSN-FB and NSGS as rows")
      ("set", po::value<std::vector<std::string>>(&sets)->composing(), "KEY=VALUE for contactlab's solvers (repeatable)")
      ("out", po::value(&out_dir)->default_value(out_dir), "directory for results.csv, profile.csv and the PNG");
  po::variables_map vm;
  if (const int exit_code = parse_command_line(args, "contactlab bench-problems", opts, "paths", po::value(&paths)->composing(), -1, vm); exit_code >= 0)
    return exit_code;
  try {
    if (paths.empty()) throw std::invalid_argument("missing DIR (a directory of .dat / .hdf5 problems)");
    check_tolerance(tol, "--tol");
    check_time_limit(time_limit);
    if (!peer.empty() && peer != "siconos") throw std::invalid_argument("--peer: unknown peer '" + peer + "' (known: siconos)");
    if (peer == "siconos" && !siconos_peer_built())
      throw std::invalid_argument("--peer siconos: contactlab was built without Siconos numerics "
                                  "(scripts/setup.sh --with-siconos, then rebuild)");
    const std::vector<BenchSolver> solvers = parse_solvers(solver_list, peer == "siconos");
    std::vector<std::string> files;
    for (const std::string& p : paths) {
      const auto found = fc3d_problem_files(p);
      files.insert(files.end(), found.begin(), found.end());
    }
    if (files.empty()) throw std::invalid_argument("no .dat or .hdf5 problem in " + paths[0]);
    // Every file is read before anything runs: a malformed one stops the benchmark with its name.
    std::vector<FrictionContactProblem> problems;
    for (const std::string& f : files) problems.push_back(read_fc3d_problem(f));

    // Before any solve: no result file over a problem file, none where a file cannot go.
    std::vector<NamedPath> inputs;
    for (const std::string& f : files) inputs.push_back({"the problem file", f});
    check_distinct_paths(inputs, {{"--out DIR's results.csv", out_dir + "/results.csv"},
                                  {"--out DIR's profile.csv", out_dir + "/profile.csv"}});
    std::filesystem::create_directories(out_dir);
    check_output_path(out_dir + "/profile.csv");
    OutputFile results_csv(out_dir + "/results.csv");
    std::ostream& csv = *results_csv.open();
    csv << "problem,contacts,solver,status,iterations,time_s,relative_error,siconos_error\n";
    std::vector<std::vector<double>> times(problems.size(), std::vector<double>(solvers.size()));
    std::vector<int> solved(solvers.size(), 0);
    std::vector<std::string> crashed;  // "SOLVER on PROBLEM": the command then exits 1
    int name_width = 10;
    for (const auto& p : problems) name_width = std::max(name_width, static_cast<int>(p.name.size()) + 2);
    std::cout << std::left << std::setw(name_width) << "problem" << std::setw(9) << "contacts";
    for (const auto& s : solvers) std::cout << std::setw(20) << s.label;
    std::cout << "\n";
    // Each row is printed whole once its solves are done, so that the
    // progress bar (stderr, on a terminal) never lands inside a row.
    Progress progress(static_cast<long>(problems.size() * solvers.size()), true, "solves");
    for (size_t p = 0; p < problems.size(); ++p) {
      std::ostringstream row;
      row << std::left << std::setw(name_width) << problems[p].name << std::setw(9) << problems[p].num_contacts;
      for (size_t s = 0; s < solvers.size(); ++s) {
        progress.update(static_cast<long>(p * solvers.size() + s), solvers[s].label + " on " + problems[p].name);
        const BenchRun run = run_isolated(problems[p], solvers[s], tol, time_limit, sets);
        const bool ok = run.status == "solved";
        solved[s] += ok;
        times[p][s] = ok ? run.time_s : std::numeric_limits<double>::infinity();
        csv << problems[p].name << ',' << problems[p].num_contacts << ',' << solvers[s].label << ',' << run.status << ','
            << run.iterations << ',' << fmt(run.time_s, 6) << ',' << fmt(run.error, 6) << ','
            << fmt(run.siconos, 6) << '\n';
        const std::string cell = ok ? fmt(run.time_s * 1e3) + " ms" : run.status;
        row << std::setw(20) << cell;
        if (!run.message.empty()) {
          progress.finish();
          std::cerr << "  " << solvers[s].label << " on " << problems[p].name << ": " << run.message << "\n";
        }
        if (run.status == "crashed") crashed.push_back(solvers[s].label + " on " + problems[p].name + " (" + run.message + ")");
      }
      progress.finish();
      std::cout << row.str() << "\n" << std::flush;
      results_csv.check();  // a full disk stops the benchmark now
    }

    std::cout << std::setw(name_width + 9) << "solved";
    for (size_t s = 0; s < solvers.size(); ++s)
      std::cout << std::setw(20) << (std::to_string(solved[s]) + "/" + std::to_string(problems.size()));
    std::cout << "\n";

    const PerformanceProfile prof = performance_profile(times);
    OutputFile profile_csv(out_dir + "/profile.csv");
    std::ostream& pc = *profile_csv.open();
    pc << "tau";
    for (const auto& s : solvers) pc << ',' << s.label;
    pc << '\n' << std::setprecision(9);
    for (size_t i = 0; i < prof.tau.size(); ++i) {
      pc << prof.tau[i];
      for (const auto& f : prof.fraction) pc << ',' << f[i];
      pc << '\n';
    }
    commit_all({&results_csv, &profile_csv});
    write_profile_plot(out_dir, solvers, prof, tol);
    if (!gnuplot_available())
      std::cerr << "note: gnuplot not found, " << out_dir << "/performance_profile.gp written but not plotted\n";
    else
      run_gnuplot(out_dir, "performance_profile.gp");
    std::cout << "wrote " << out_dir << "/results.csv, profile.csv, performance_profile.png\n";
    for (const std::string& c : crashed) std::cerr << "contactlab bench-problems: error: " << c << " crashed\n";
    return crashed.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "contactlab bench-problems: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace contactlab
