// kamino_mechanisms: the definition, the tasks, and the outputs — summary.csv
// rows TASK,ARM,r_X_median|r_X_p90, Kamino's table layout
// (kamino_mechanisms_table.md: rows task x metric, columns arms, cells
// median / p90), per-step series of trial 0 and one PNG per task.
#include "studies/kamino_mechanisms.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "io/scene_library.hpp"
#include "sim/peer_engine.hpp"
#include "studies/comparison_plot.hpp"

namespace contactlab {

namespace {

const std::vector<std::string>& arm_names() {
  static const std::vector<std::string> arms = {"padmm", "newton", "pgs", "mujoco"};
  return arms;
}

std::string series_file(const std::string& task, const std::string& arm) { return "series_" + task + "_" + arm + ".csv"; }

std::string cell(double median, double p90) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2e / %.2e", median, p90);
  return buf;
}

// r_J and r_kin against time, log scale, one line per arm that ran.
void plot_task(const std::string& dir, const std::string& task, const std::vector<std::string>& arms) {
  if (arms.empty()) return;
  std::ostringstream gp;
  gp << "set terminal pngcairo size 1120,440 font 'sans,10'\nset output '" << task << ".png'\n"
     << "set datafile separator ','\nset logscale y\nset format y '%.0e'\nset xlabel 't (s)'\nset key bottom right\n"
     << "set multiplot layout 1,2\n";
  const char* panels[2][2] = {{"2", "r_J: joint and loop position residual (m or rad)"},
                              {"3", "r_kin: |J_joint u+| (m/s or rad/s)"}};
  for (const auto& panel : panels) {
    gp << "set title '" << task << " " << panel[1] << "' noenhanced\nplot ";
    for (size_t i = 0; i < arms.size(); ++i)
      gp << (i ? ", " : "") << "'" << series_file(task, arms[i]) << "' using 1:($" << panel[0] << ">0?$" << panel[0]
         << ":1/0) every ::1 with lines title '" << arms[i] << "'";
    gp << "\n";
  }
  gp << "unset multiplot\n";
  const std::string script = "plot_" + task + ".gp";
  std::ofstream(dir + "/" + script) << gp.str();
  run_gnuplot(dir, script);
}

void run(StudyContext& ctx) {
  const std::array<const char*, kMechanismMetrics>& metrics = mechanism_metric_names();
  const std::vector<MechanismTask> tasks = mechanism_tasks(ctx.full());
  const bool have_mujoco = has_peer_engine("mujoco");
  // table[task][metric][arm] = cell
  std::map<std::string, std::map<std::string, std::map<std::string, std::string>>> table;
  const long total = static_cast<long>(tasks.size() * ctx.arms().size());
  long done = 0;
  for (const MechanismTask& task : tasks) {
    std::vector<std::string> plotted;
    const int actuators = static_cast<int>(load_scene(task.scene).actuators.size());
    const int trials = task.random_setpoints ? ctx.trials() : 1;  // the passive tasks are deterministic
    for (const std::string& arm : ctx.arms()) {
      ctx.progress(done++, total, task.name + " " + arm);
      if (arm == "mujoco" && !have_mujoco) {
        std::cerr << "kamino_mechanisms: arm mujoco skipped on " << task.name
                  << ": contactlab was built without the MuJoCo peer (libmujoco-dev)\n";
        continue;
      }
      MechanismSamples samples;
      for (int trial = 0; trial < trials; ++trial) {
        std::mt19937_64 rng = ctx.rng(static_cast<std::uint64_t>(trial));
        const std::vector<double> setpoints =
            task.random_setpoints ? random_setpoints(rng, actuators, task.duration, 0.2) : std::vector<double>{};
        const int diverged_before = samples.diverged;
        if (trial == 0) {
          std::ofstream csv(ctx.path(series_file(task.name, arm)));
          csv.precision(9);
          csv << "time";
          for (const char* m : metrics) csv << ',' << m;
          csv << '\n';
          run_mechanism_arm(task, arm, setpoints, samples, &csv);
        } else {
          run_mechanism_arm(task, arm, setpoints, samples, nullptr);
        }
        if (samples.diverged > diverged_before)
          std::cerr << "kamino_mechanisms: trial " << trial << " diverged: " << samples.divergence << "\n";
      }
      plotted.push_back(arm);
      StudySummary& sum = ctx.summary();
      for (int k = 0; k < kMechanismMetrics; ++k) {
        if (!samples.measured[k] || samples.values[k].empty()) continue;
        const double med = quantile(samples.values[k], 0.5), p90 = quantile(samples.values[k], 0.9);
        sum.add(task.name, arm, std::string(metrics[k]) + "_median", med);
        sum.add(task.name, arm, std::string(metrics[k]) + "_p90", p90);
        table[task.name][metrics[k]][arm] = cell(med, p90);
      }
      sum.add(task.name, arm, "steps", static_cast<double>(samples.steps));
      sum.add(task.name, arm, "diverged_trials", samples.diverged);
      if (arm != "mujoco") {
        sum.add(task.name, arm, "steps_not_converged", static_cast<double>(samples.not_converged));
        sum.add(task.name, arm, "solve_s_per_step", samples.steps ? samples.wall_s / samples.steps : 0);
      }
    }
    plot_task(ctx.staging_dir(), task.name, plotted);
  }
  ctx.progress(done, total);
  std::ofstream md(ctx.path("kamino_mechanisms_table.md"));
  md << "| Model | Metric |";
  for (const std::string& arm : ctx.arms()) md << ' ' << arm << " |";
  md << "\n|---|---|";
  for (size_t i = 0; i < ctx.arms().size(); ++i) md << "---|";
  md << '\n';
  for (const MechanismTask& task : tasks)
    for (const char* m : metrics) {
      const auto& row = table[task.name][m];
      if (row.empty()) continue;
      md << "| " << task.name << " | " << m << " |";
      for (const std::string& arm : ctx.arms()) md << ' ' << (row.count(arm) ? row.at(arm) : "–") << " |";
      md << '\n';
    }
}

}  // namespace

std::vector<MechanismTask> mechanism_tasks(bool full) {
  const std::string dir = builtin_scene_dir() + "/";
  const double duration = full ? 5 : 1;
  return {MechanismTask{"four_bar", dir + "four_bar.xml", 0.001, duration, false},
          MechanismTask{"parallelogram_leg", dir + "parallelogram_leg.xml", 0.001, duration, true},
          MechanismTask{"scissor_linkage", dir + "scissor_linkage.xml", 0.001, duration, false}};
}

StudyDefinition kamino_mechanisms_study() {
  StudyDefinition s;
  s.name = "kamino_mechanisms";
  s.summary = "Kamino's mechanism metrics (r_J ... r_vi, median / p90) on loop mechanisms, padmm, newton, pgs, MuJoCo";
  s.tasks = {"four_bar", "parallelogram_leg", "scissor_linkage"};
  s.arms = arm_names();
  s.default_trials = 2;  // random-setpoint trials of parallelogram_leg
  s.full_trials = 10;
  s.run = run;
  return s;
}

}  // namespace contactlab
