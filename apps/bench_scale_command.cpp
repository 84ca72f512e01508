// contactlab bench-scale: piles of N bodies of one shape, each combination
// and MuJoCo on the same generated MJCF file in the same process, the steps
// alone timed; scale.csv, exponents.csv, scale.gp and scale.png in --out DIR.
#include "apps/bench_scale_command.hpp"

#include <boost/program_options.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "apps/command_line.hpp"
#include "apps/progress.hpp"
#include "io/mjcf.hpp"
#include "io/output_file.hpp"
#include "sim/peer_engine.hpp"
#include "sim/rollout_setup.hpp"
#include "sim/run_parameters.hpp"
#include "studies/comparison.hpp"
#include "studies/comparison_plot.hpp"
#include "studies/piles.hpp"
#include "studies/scale_bench.hpp"

namespace po = boost::program_options;

namespace contactlab {

namespace {

const char* kDefaultCombos = "velocity+desaxce+padmm,velocity+desaxce+pgs,velocity+fischer_burmeister+newton";

std::vector<std::string> split_items(const std::string& text, const std::string& flag) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) throw std::invalid_argument(parameter_error(flag, text, "an empty entry in the list"));
    out.push_back(item);
  }
  if (out.empty() || text.back() == ',') throw std::invalid_argument(parameter_error(flag, text, "an empty entry in the list"));
  return out;
}

std::vector<int> parse_sizes(const std::string& text) {
  std::vector<int> out;
  for (const std::string& item : split_items(text, "--sizes")) {
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (*end != '\0' || errno != 0 || v < 1 || v > 100000)
      throw std::invalid_argument(parameter_error("--sizes", item, "must be a whole number of bodies in [1, 100000]"));
    out.push_back(static_cast<int>(v));
  }
  return out;
}

std::string csv_number(double v) {
  if (!std::isfinite(v)) return "";
  std::ostringstream o;
  o << std::setprecision(6) << v;
  return o.str();
}

std::string bench_cell(double v, const char* fmt) {
  if (!std::isfinite(v)) return "-";
  char buf[40];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

int bench_scale_cli(const std::vector<std::string>& args) {
  std::string shapes_text = "box,capsule,sphere", sizes_text = "4,16,64,256", combos_text = kDefaultCombos;
  std::string peer = "auto", out_dir = "bench_scale";
  double duration = 2, dt = 0.002, time_limit = 60;
  unsigned long seed = 1;
  std::vector<std::string> sets;
  po::options_description opts("contactlab bench-scale [options]");
  opts.add_options()("help,h", "this help")
      ("shapes", po::value(&shapes_text)->default_value(shapes_text), "comma-separated: box, capsule, sphere")
      ("sizes", po::value(&sizes_text)->default_value(sizes_text), "comma-separated numbers of bodies per pile")
      ("combos", po::value(&combos_text)->default_value(combos_text), "comma-separated scheme+contact+solver")
      ("duration", po::value(&duration)->default_value(duration), "simulated seconds per run")
      ("dt", po::value(&dt)->default_value(dt, "0.002"), "time step, s (also the files' <option timestep>)")
      ("peer", po::value(&peer)->default_value(peer),
       "mujoco: also run MuJoCo on each file (required); none: do not; auto: mujoco when built")
      ("time-limit", po::value(&time_limit)->default_value(time_limit, "60"),
       "seconds of stepping per run; a run that reaches it stops (status time_limit), the benchmark goes on")
      ("seed", po::value(&seed)->default_value(seed), "seed of the pile generator")
      ("set", po::value(&sets)->composing(),
       "KEY=VALUE option for every contactlab run (as run's --set, e.g. solver.islands=false); repeatable")
      ("out", po::value(&out_dir)->default_value(out_dir),
       "directory for scale.csv, exponents.csv, scale.gp, scale.png and the pile files");
  po::variables_map vm;
  std::vector<std::string> none;
  if (const int exit_code = parse_command_line(args, "contactlab bench-scale", opts, "unexpected",
                                               po::value(&none)->composing(), -1, vm);
      exit_code >= 0)
    return exit_code;
  try {
    if (!none.empty()) throw std::invalid_argument("unexpected argument '" + none[0] + "' (bench-scale takes only options)");
    std::vector<std::string> shapes;
    for (const std::string& s : split_items(shapes_text, "--shapes")) {
      try {
        shapes.push_back(pile_shape_name(parse_pile_shape(s)));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--shapes: ") + e.what());
      }
    }
    const std::vector<int> sizes = parse_sizes(sizes_text);
    std::vector<Combo> combos;
    for (const std::string& c : split_items(combos_text, "--combos")) {
      Combo combo;
      try {
        combo = parse_combo(c);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--combos: ") + e.what());
      }
      const std::string why = combo_refusal(combo);
      if (!why.empty()) throw std::invalid_argument("--combos " + c + ": refused: " + why);
      combos.push_back(combo);
    }
    check_positive_duration(duration, "--duration");
    check_time_step(dt, "--dt");
    const long steps = steps_for_duration(duration, dt, "--duration " + csv_number(duration));
    check_time_limit(time_limit, "--time-limit");
    if (peer != "auto" && peer != "none" && peer != "mujoco")
      throw std::invalid_argument("--peer " + peer + ": unknown peer (known: mujoco, none, auto)");
    if (peer == "mujoco" && !has_peer_engine("mujoco"))
      throw std::invalid_argument("--peer mujoco: contactlab was built without MuJoCo (libmujoco-dev, then rebuild)");
    const bool with_peer = peer == "mujoco" || (peer == "auto" && has_peer_engine("mujoco"));
    // Every --set must apply to every combination: tried on a one-body pile
    // before anything runs or is written.
    if (!sets.empty()) {
      PileSpec probe;
      probe.bodies = 1;
      const auto model = std::make_shared<const Model>(load_mjcf_string(make_pile(probe).xml, "pile"));
      for (const Combo& c : combos) {
        RolloutSpec spec;
        spec.model = model;
        spec.scheme = c.scheme;
        spec.contact = c.contact;
        spec.solver = c.solver;
        spec.dt = dt;
        spec.steps = 1;
        spec.sets = sets;
        try {
          prepare_rollout(spec);
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument("--set (with " + c.label() + "): " + e.what());
        }
      }
    }

    // Before anything is written: every output distinct and writable.
    std::vector<NamedPath> outputs = {{"--out DIR's scale.csv", out_dir + "/scale.csv"},
                                      {"--out DIR's exponents.csv", out_dir + "/exponents.csv"},
                                      {"--out DIR's scale.gp", out_dir + "/scale.gp"}};
    for (const std::string& s : shapes)
      for (int n : sizes)
        outputs.push_back({"--out DIR's pile file", out_dir + "/pile_" + s + "_" + std::to_string(n) + ".xml"});
    check_distinct_paths({}, outputs);
    std::filesystem::create_directories(out_dir);
    for (const NamedPath& o : outputs) check_output_path(o.path);

    std::vector<std::string> labels;
    for (const Combo& c : combos) labels.push_back(c.label());
    if (with_peer) labels.push_back("mujoco");
    size_t width = 8;
    for (const std::string& l : labels) width = std::max(width, l.size() + 2);

    std::cout << "bench-scale: " << steps << " steps of " << dt << " s per run, per-run time limit " << time_limit
              << " s (steps only)" << (with_peer ? ", MuJoCo on the same file" : "") << "\n";
    std::cout << std::left << std::setw(9) << "shape" << std::setw(7) << "bodies" << std::setw(width) << "combo"
              << std::right << std::setw(6) << "steps" << "  " << std::left << std::setw(11) << "status" << std::right
              << std::setw(9) << "contacts" << std::setw(12) << "s/step" << std::setw(10) << "/mujoco" << std::setw(8)
              << "not_cv" << std::setw(10) << "max_r_vi" << std::setw(10) << "max_pen" << "\n";

    std::vector<ScaleRun> runs;
    // One tick per run (each combination, and MuJoCo), cleared before each
    // block of table rows is printed.
    Progress bar(static_cast<long>(shapes.size() * sizes.size() * (combos.size() + (with_peer ? 1 : 0))), true,
                 "runs");
    long runs_done = 0;
    for (const std::string& shape : shapes) {
      for (const int n : sizes) {
        PileSpec spec;
        spec.shape = parse_pile_shape(shape);
        spec.bodies = n;
        spec.seed = seed;
        spec.timestep = dt;
        spec.duration = duration;
        const std::string path = out_dir + "/pile_" + shape + "_" + std::to_string(n) + ".xml";
        const Pile pile = write_pile(spec, path);
        std::vector<std::string> warnings;  // <size> for MuJoCo: contactlab ignores it
        const Model model = load_mjcf_file(path, &warnings);
        std::vector<ScaleRun> block;
        const std::string where = shape + " " + std::to_string(n) + " ";
        for (const Combo& c : combos) {
          block.push_back(run_scale_combo(model, c, dt, steps, time_limit, sets));
          bar.update(++runs_done, where + c.label());
        }
        if (with_peer) {
          block.push_back(run_scale_peer("mujoco", path, model, dt, steps, time_limit));
          bar.update(++runs_done, where + "mujoco");
          // MuJoCo 2.2 drops the contacts beyond its preallocated list: such a run is not a result.
          if (block.back().status == "ok" && block.back().max_contacts >= pile.mujoco_nconmax) {
            block.back().status = "contacts_full";
            block.back().message = "MuJoCo's contact list (nconmax " + std::to_string(pile.mujoco_nconmax) + ") was full";
          }
        }
        bar.finish();
        const double peer_time = with_peer ? block.back().wall_per_step_s : std::nan("");
        for (ScaleRun& r : block) {
          r.shape = shape;
          r.bodies = n;
          // Only against a MuJoCo run that finished with every contact it found.
          if (with_peer && block.back().status == "ok") r.ratio_to_mujoco = r.wall_per_step_s / peer_time;
          std::cout << std::left << std::setw(9) << shape << std::setw(7) << n << std::setw(width) << r.combo
                    << std::right << std::setw(6) << r.steps << "  " << std::left << std::setw(11) << r.status
                    << std::right << std::setw(9) << bench_cell(r.mean_contacts, "%.1f") << std::setw(12)
                    << bench_cell(r.wall_per_step_s, "%.3e") << std::setw(10) << bench_cell(r.ratio_to_mujoco, "%.3g")
                    << std::setw(8) << r.steps_not_converged << std::setw(10) << bench_cell(r.max_r_vi, "%.1e")
                    << std::setw(10) << bench_cell(r.max_penetration, "%.1e") << std::endl;
          if (!r.message.empty()) std::cerr << "  " << r.combo << " on " << path << ": " << r.message << "\n";
          runs.push_back(r);
        }
      }
    }

    OutputFile scale_csv(out_dir + "/scale.csv"), exponents_csv(out_dir + "/exponents.csv");
    std::ostream& csv = *scale_csv.open();
    csv << "shape,bodies,combo,steps,status,mean_contacts,wall_per_step_s,ratio_to_mujoco,steps_not_converged,"
           "max_r_vi,max_penetration\n";
    for (const ScaleRun& r : runs)
      csv << r.shape << ',' << r.bodies << ',' << r.combo << ',' << r.steps << ',' << r.status << ','
          << csv_number(r.mean_contacts) << ',' << csv_number(r.wall_per_step_s) << ','
          << csv_number(r.ratio_to_mujoco) << ',' << r.steps_not_converged << ',' << csv_number(r.max_r_vi) << ','
          << csv_number(r.max_penetration) << '\n';
    const std::vector<ScaleExponent> exps = scale_exponents(runs, 16);
    std::ostream& ex = *exponents_csv.open();
    ex << "shape,combo,exponent,points\n";
    std::cout << "\nexponent of wall time per step against mean contacts (least squares, bodies >= 16, finished runs):\n";
    for (const ScaleExponent& e : exps) {
      ex << e.shape << ',' << e.combo << ',' << csv_number(e.exponent) << ',' << e.points << '\n';
      std::cout << "  " << std::left << std::setw(9) << e.shape << std::setw(width) << e.combo << std::right
                << std::setw(8) << bench_cell(e.exponent, "%.2f") << "  (" << e.points << " points)\n";
    }
    commit_all({&scale_csv, &exponents_csv});
    write_scale_plot(out_dir, runs, shapes, labels);
    if (!gnuplot_available())
      std::cerr << "note: gnuplot not found, " << out_dir << "/scale.gp written but not plotted\n";
    else
      run_gnuplot(out_dir, "scale.gp");
    std::cout << "wrote " << out_dir << "/scale.csv, exponents.csv, scale.gp" << (gnuplot_available() ? ", scale.png" : "")
              << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "contactlab bench-scale: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace contactlab
