#include "apps/study_command.hpp"

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "apps/command_line.hpp"
#include "apps/progress.hpp"
#include "io/number_text.hpp"
#include "studies/study.hpp"

namespace po = boost::program_options;

namespace contactlab {

namespace {

std::vector<std::string> split_arms(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (item.empty()) throw std::invalid_argument("--arms: empty entry in '" + text + "'");
    else out.push_back(item);
  if (out.empty() || text.back() == ',') throw std::invalid_argument("--arms: empty entry in '" + text + "'");
  return out;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

void print_list() {
  const auto& studies = study_definitions();
  if (studies.empty()) std::cout << "no studies are built in\n";
  for (const StudyDefinition& s : studies) {
    std::cout << s.name << "  -  " << s.summary << "\n"
              << "    tasks: " << join(s.tasks) << "\n"
              << "    arms:  " << join(s.arms) << "\n"
              << "    trials: " << s.default_trials << " (short), " << s.full_trials << " (--full)\n";
  }
}

// The summary as an aligned table: task, arm, metric, value.
void print_summary(const StudySummary& summary) {
  size_t wt = 4, wa = 3, wm = 6;
  for (const SummaryRow& r : summary.rows()) {
    wt = std::max(wt, r.task.size());
    wa = std::max(wa, r.arm.size());
    wm = std::max(wm, r.metric.size());
  }
  std::printf("%-*s  %-*s  %-*s  %s\n", int(wt), "task", int(wa), "arm", int(wm), "metric", "value");
  for (const SummaryRow& r : summary.rows())
    std::printf("%-*s  %-*s  %-*s  %.6g\n", int(wt), r.task.c_str(), int(wa), r.arm.c_str(), int(wm),
                r.metric.c_str(), r.value);
}

}  // namespace

int study_cli(const std::vector<std::string>& args) {
  std::string name, arms, out;
  StudyOptions options;
  bool quiet = false;
  po::options_description opts("contactlab study NAME [options]  (contactlab study --list: the studies)");
  opts.add_options()("help,h", "this help")
      ("list", "print the studies with their tasks, arms and trial counts")
      ("trials", po::value(&options.trials), "trials per arm (default: the study's short scale, or its --full one)")
      ("seed", po::value(&options.seed)->default_value(1), "seed of the random draws (initial guesses, poses)")
      ("arms", po::value(&arms), "comma-separated arms to run (default: the study's arms)")
      ("full", po::bool_switch(&options.full), "the paper's scale (long)")
      ("out", po::value(&out), "output folder (default: study_NAME)")
      ("quiet,q", po::bool_switch(&quiet), "no progress bar");
  po::variables_map vm;
  if (const int exit_code = parse_command_line(args, "contactlab study", opts, "name", po::value(&name), 1, vm);
      exit_code >= 0)
    return exit_code;
  if (vm.count("list")) {
    print_list();
    return 0;
  }
  if (name.empty()) {
    std::cerr << "contactlab study: error: missing NAME (contactlab study --list)\n";
    return 2;
  }
  const StudyDefinition* study = nullptr;
  try {
    study = &find_study(name);
    if (vm.count("arms")) options.arms = split_arms(arms);
    if (options.trials < 0) throw std::invalid_argument("--trials must be >= 0");
  } catch (const std::exception& e) {
    std::cerr << "contactlab study: error: " << e.what() << "\n";
    return 2;
  }
  options.out_dir = out.empty() ? "study_" + name : out;

  std::unique_ptr<Progress> bar;
  options.progress = [&](long done, long total, const std::string& label) {
    if (quiet) return;
    if (!bar) bar = std::make_unique<Progress>(total, true, "units");
    bar->set_total(total);
    bar->update(done, label);
  };
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const StudySummary summary = run_study(*study, options);
    if (bar) bar->finish();
    print_summary(summary);
    std::printf("study %s: %.1f s; %zu numbers in %s/summary.csv\n", name.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                summary.rows().size(), options.out_dir.c_str());
  } catch (const std::invalid_argument& e) {
    if (bar) bar->finish();
    std::cerr << "contactlab study: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    if (bar) bar->finish();
    std::cerr << "contactlab study " << name << ": error: " << e.what() << " (nothing written)\n";
    return 1;
  }
  return 0;
}

}  // namespace contactlab
