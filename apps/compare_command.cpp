#include "apps/compare_command.hpp"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <set>
#include <stdexcept>

#include "apps/progress.hpp"
#include "apps/time_budget.hpp"
#include "io/output_file.hpp"
#include "io/scene_library.hpp"
#include "peers/mujoco_peer.hpp"
#include "sim/run_parameters.hpp"

namespace po = boost::program_options;

namespace contactlab {

namespace {

std::vector<std::string> split_list(const std::string& text, const char* what) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(',', start);
    const std::string item = text.substr(start, at == std::string::npos ? std::string::npos : at - start);
    if (item.empty()) throw std::invalid_argument(std::string("empty entry in ") + what + " '" + text + "'");
    out.push_back(item);
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

std::vector<double> parse_dt_list(const std::string& text) {
  std::vector<double> out;
  for (const std::string& item : split_list(text, "--dt")) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (*end != '\0') throw std::invalid_argument("bad time step '" + item + "' in --dt: expected positive seconds");
    out.push_back(check_time_step(v, "--dt"));
  }
  return out;
}

// `all`: the factories' valid triples, each refused one noted on stderr.
std::vector<Combo> parse_combos(const std::string& text) {
  if (text == "all") {
    std::vector<std::string> refused;
    std::vector<Combo> combos = valid_combos(&refused);
    for (const std::string& r : refused) std::cerr << "note: skipping " << r << "\n";
    return combos;
  }
  std::vector<Combo> out;
  for (const std::string& item : split_list(text, "--combos")) out.push_back(parse_combo(item));
  return out;
}

std::string cell(double v, const char* fmt = "%.2e") {
  if (!std::isfinite(v)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

void print_scene_header(std::FILE* out, const SceneComparison& sc) {
  std::fprintf(out, "\n== %s: %g s simulated per run; %s\n", sc.label.c_str(), sc.duration,
               sc.reference.describe().c_str());
  if (sc.reference.kind == ErrorKind::ReferenceRun)
    std::fprintf(out, "   reference run %s: %ld steps, %.1f us per step\n", sc.reference.run_label.c_str(),
                 sc.reference_run.steps, 1e6 * sc.reference_run.wall_per_step);
}

int combo_width(const std::vector<Combo>& combos) {
  size_t w = 16;  // mujoco(implicit)
  for (const Combo& c : combos) w = std::max(w, c.label().size());
  return static_cast<int>(w);
}

// Ostrich's usable time step per combination: how much faster at equal
// accuracy. Only over a real sweep of steps (is_dt_sweep): between two or
// three steps "the largest within 2x of the floor" picks nothing meaningful.
void print_usable(std::FILE* out, const SceneComparison& sc, int w) {
  if (!is_dt_sweep(sc.dts)) {
    std::fprintf(out,
                 "   usable time step: not computed (%zu time steps; it needs >= 4 per decade, "
                 "each <= 10^(1/4) x the previous, e.g. the default --dt sweep)\n",
                 sc.dts.size());
    return;
  }
  std::fprintf(out, "   usable time step (largest dt within 2x of the combination's own accuracy floor):\n");
  std::fprintf(out, "   %-*s %9s %9s %12s\n", w, "combo", "floor", "usable dt", "wall/sim there");
  for (const UsableStep& u : usable_steps(sc.runs))
    std::fprintf(out, "   %-*s %9s %9s %12s\n", w, u.combo.c_str(), cell(u.floor).c_str(), cell(u.dt, "%g").c_str(),
                 cell(u.wall_per_sim, "%.3g").c_str());
}

void print_table_head(std::FILE* out, int w) {
  std::fprintf(out, "%-*s %9s %6s %9s %9s %9s %7s %6s %5s %9s %9s %9s %11s %9s  %s\n", w, "combo", "dt [s]", "steps",
               "us/step", "solve us", "wall/sim", "mean it", "max it", "!conv", "max r_vi", "max pen", "max joint",
               "measured", "error", "status");
}

// The status column: ok, flagged (flag_runs: a number not to trust as is) or FAILED.
std::string status_cell(const ComparisonRun& r) {
  if (!r.ok) return "FAILED: " + r.message;
  return r.flags.empty() ? "ok" : "FLAGGED: " + r.flags;
}

void print_row(std::FILE* out, const ComparisonRun& r, int w) {
  if (r.steps == 0) {
    std::fprintf(out, "%-*s %9g %6s  FAILED: %s\n", w, r.combo.c_str(), r.dt, "-", r.message.c_str());
    return;
  }
  std::fprintf(out, "%-*s %9g %6ld %9.1f %9.1f %9.3g %7.2f %6d %5ld %9s %9s %9s %11s %9s  %s\n", w, r.combo.c_str(),
               r.dt, r.steps, 1e6 * r.wall_per_step, 1e6 * r.solve_per_step, r.wall_per_sim, r.mean_iterations,
               r.max_iterations, r.not_converged, cell(r.max_r_vi).c_str(), cell(r.max_penetration).c_str(),
               cell(r.max_joint_violation).c_str(), r.ok ? cell(r.measured, "%.6g").c_str() : "n/a",
               r.ok ? cell(r.error).c_str() : "n/a", status_cell(r).c_str());
}

void print_scene(std::FILE* out, const SceneComparison& sc, int w) {
  print_scene_header(out, sc);
  print_table_head(out, w);
  for (const ComparisonRun& r : sc.runs) print_row(out, r, w);
  if (sc.reference.kind != ErrorKind::None) print_usable(out, sc, w);
  std::fflush(out);
}

// Thrown from the per-run callback when --time-limit has run out.
struct TimeLimitReached {
  size_t runs;
  std::string scene, run;
};

// Runs every scene, printing each one's table as it completes, then writes
// the files: all CSV files are committed together (none is left when one
// fails). --time-limit is checked after each run: when it has run out the job
// stops there, writes nothing and returns kTimeLimitExit. Returns the exit
// status; throws for errors.
}  // namespace

int run_compare_job(const CompareJob& job, std::vector<SceneComparison>* results_out) {
  namespace fs = std::filesystem;
  const TimeBudget budget(job.time_limit);
  const std::string dir = job.out_dir;
  bool created_dir = false;
  auto remove_created_dir = [&] {
    std::error_code ec;
    if (created_dir) fs::remove(dir, ec);  // only when still empty
  };
  if (!dir.empty()) {
    // Before any run: no result file over a scene file, no file where a file cannot go.
    std::vector<NamedPath> inputs;
    for (const std::string& scene : job.scenes) {
      try {
        inputs.push_back({"the scene file", resolve_scene(scene)});
      } catch (const std::exception&) {
        // an unknown scene fails its runs, reported in the table
      }
    }
    check_distinct_paths(inputs, {{"--out DIR's runs.csv", dir + "/runs.csv"},
                                  {"--out DIR's usable_dt.csv", dir + "/usable_dt.csv"}});
    std::error_code ec;
    created_dir = !fs::exists(dir, ec);
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir)) {
      std::cerr << "contactlab compare: error: cannot create output directory '" << dir << "'\n";
      return 1;
    }
    try {
      check_output_path(dir + "/runs.csv");
      check_output_path(dir + "/usable_dt.csv");
    } catch (...) {
      remove_created_dir();
      throw;
    }
  }
  const int w = combo_width(job.settings.combos);
  std::vector<SceneComparison> results;
  // The tables: on stdout, or (the default job) kept for DIR/tables.txt.
  char* table_text = nullptr;
  size_t table_size = 0;
  std::FILE* tables = job.tables_to_file ? open_memstream(&table_text, &table_size) : stdout;
  if (!tables) throw std::runtime_error("cannot buffer the tables");
  struct CloseTables {
    std::FILE* f;
    char** text;
    ~CloseTables() {
      if (f != stdout) std::fclose(f);
      std::free(*text);
    }
  } close_tables{tables, &table_text};
  // Every scene's runs (each dt x (combos + peer)) and, until it is known
  // that the scene has an analytic reference, one reference run.
  const size_t dts = job.settings.dts.empty() ? job.settings.dt_factors.size() : job.settings.dts.size();
  const long per_scene = static_cast<long>(dts * (job.settings.combos.size() + (job.settings.peer_mujoco ? 1 : 0)));
  long expected = static_cast<long>(job.scenes.size()) * (per_scene + 1);
  Progress progress(expected, true, "runs");
  long runs_done = 0;
  try {
    for (const std::string& scene : job.scenes) {
      const long before = runs_done;
      SceneComparison sc = compare_scene(scene, job.settings, [&](const ComparisonRun& r) {
        ++runs_done;
        char what[160];
        std::snprintf(what, sizeof what, "%s: %s@%g", scene_label(scene).c_str(), r.combo.c_str(), r.dt);
        progress.update(runs_done, what);
        if (budget.expired()) throw TimeLimitReached{static_cast<size_t>(runs_done), scene, what};
      });
      expected -= per_scene + 1 - (runs_done - before);  // what this scene really ran
      progress.set_total(expected);
      progress.finish();
      print_scene(tables, sc, w);
      results.push_back(std::move(sc));
    }
  } catch (const TimeLimitReached& t) {
    progress.finish();
    std::fflush(tables);
    remove_created_dir();
    std::cerr << "contactlab compare: time limit of " << format_seconds(budget.seconds()) << " s reached after run "
              << t.runs << " (" << t.scene << ": " << t.run << ")" << (dir.empty() ? "" : "; no result files written")
              << std::endl;
    return kTimeLimitExit;
  }
  if (dir.empty()) {
    if (results_out) *results_out = std::move(results);
    return 0;
  }

  // Two files with the same stem must not overwrite each other's outputs.
  std::vector<std::string> labels;
  std::set<std::string> used;
  for (const SceneComparison& sc : results) {
    std::string label = sc.label;
    for (int k = 2; used.count(label); ++k) label = sc.label + "_" + std::to_string(k);
    used.insert(label);
    labels.push_back(label);
  }
  try {
    std::vector<std::unique_ptr<OutputFile>> files;
    auto add = [&](const std::string& name) -> std::ostream& {
      files.push_back(std::make_unique<OutputFile>(dir + "/" + name));
      return *files.back()->open();
    };
    write_runs_csv(add("runs.csv"), results);
    std::ostream& u = add("usable_dt.csv");
    u << "scene,combo,error_floor,usable_dt,wall_per_sim_s\n" << std::setprecision(9);
    for (const SceneComparison& sc : results)
      for (const UsableStep& x : is_dt_sweep(sc.dts) ? usable_steps(sc.runs) : std::vector<UsableStep>{})
        u << sc.label << ',' << x.combo << ',' << x.floor << ',' << x.dt << ',' << x.wall_per_sim << '\n';
    for (size_t i = 0; i < results.size(); ++i) write_residuals_csv(add("residuals_" + labels[i] + ".csv"), results[i]);
    if (job.tables_to_file) {
      std::fflush(tables);
      add("tables.txt").write(table_text, static_cast<std::streamsize>(table_size));
    }
    std::vector<OutputFile*> all;
    for (const auto& f : files) all.push_back(f.get());
    commit_all(all);
  } catch (...) {
    remove_created_dir();
    throw;
  }
  bool plotted = gnuplot_available();
  if (!plotted)
    std::cerr << "warning: gnuplot not found on PATH (Debian: apt-get install gnuplot-nox, or scripts/setup.sh): "
                 "no PNG plots; the CSV files and the gnuplot scripts plot_SCENE.gp are written\n";
  for (size_t i = 0; i < results.size(); ++i)
    if (!plot_scene(dir, results[i], labels[i])) plotted = false;
  if (results_out) *results_out = std::move(results);
  if (job.tables_to_file) return plotted ? 0 : kNoPlots;
  std::printf("\nwrote %s/runs.csv, residuals_*.csv%s\n", dir.c_str(),
              plotted ? ", usable_dt.csv, error_vs_dt_*.png, wall_vs_dt_*.png, residual_vs_iteration_*.png"
                      : ", usable_dt.csv (no plots)");
  return 0;
}

int compare_cli(const std::vector<std::string>& args) {
  std::vector<std::string> scenes;
  std::string combos = "all", dts, reference, out, peer, time_limit;
  double duration = -1;
  CompareJob job;
  po::options_description opts("contactlab compare SCENE... [options]");
  opts.add_options()("help,h", "this help")
      ("combos", po::value(&combos)->default_value(combos), "comma-separated scheme+contact+solver, or all (every valid triple)")
      ("dt", po::value(&dts), "comma-separated time steps in s (default: the scene's timestep x 1,2,5,10,20)")
      ("duration", po::value(&duration), "simulated time per run in s (default: the scene's contactlab.duration)")
      ("reference", po::value(&reference), "COMBO@DT reference run for scenes without an analytic reference "
                                           "(default: velocity+desaxce+padmm@(smallest dt / 10))")
      ("peer", po::value(&peer), "add a peer engine's runs of the same file: mujoco")
      ("time-limit", po::value(&time_limit), "wall-clock budget in s, checked after each run; when it runs out: "
                                             "stop, no result files, exit 3")
      ("out", po::value(&out), "directory for runs.csv, usable_dt.csv, residuals_SCENE.csv and the PNG plots")
      ("allow-unsupported", po::bool_switch(&job.settings.allow_unsupported),
       "run files with MJCF features contactlab does not implement, ignoring them (default: refuse them)");
  po::options_description hidden;
  hidden.add_options()("scene", po::value(&scenes)->composing());
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("scene", -1);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << opts;
      return 0;
    }
    if (scenes.empty()) throw std::invalid_argument("missing SCENE (an MJCF file or one of: contactlab list scenes)");
    if (vm.count("duration")) check_positive_duration(duration, "--duration");
    job.settings.combos = parse_combos(combos);
    if (job.settings.combos.empty()) throw std::invalid_argument("no combination to run");
    if (!dts.empty()) job.settings.dts = parse_dt_list(dts);
    job.settings.duration = duration;
    if (!reference.empty()) parse_combo_at_dt(reference);  // fail before any run
    job.settings.reference = reference;
    if (!peer.empty()) {
      if (peer != "mujoco") throw std::invalid_argument("unknown peer '" + peer + "' (known: mujoco)");
      if (!MujocoPeer::built())
        throw std::invalid_argument("--peer mujoco: contactlab was built without MuJoCo (install libmujoco-dev)");
      job.settings.peer_mujoco = true;
    }
    if (vm.count("time-limit")) job.time_limit = parse_time_limit(time_limit);
    job.scenes = scenes;
    job.out_dir = out;
  } catch (const std::exception& e) {
    std::cerr << "contactlab compare: error: " << e.what() << "\n" << opts;
    return 2;
  }
  try {
    return run_compare_job(job);
  } catch (const std::exception& e) {
    std::cerr << "contactlab compare: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace contactlab
