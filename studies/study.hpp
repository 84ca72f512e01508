// A study: one of the four papers' experiments, run as arms (a combination,
// a time step, a sensitivity kind, ...) over tasks and trials, reported as
// long-format rows in DIR/summary.csv with exactly the header
//   study,task,arm,metric,value
// plus the study's own CSV and PNG files in DIR. `contactlab study NAME`
// (apps/study_command.cpp) runs one; docs/studies.md shows every study's
// table beside the paper's numbers.
//
// Output is complete or absent: a study writes its files into a staging
// folder inside DIR (StudyContext::path) and only a study that returns has
// them moved into DIR with summary.csv last; one that throws leaves DIR as
// it was.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace contactlab {

struct StudyOptions {
  int trials = 0;                  // 0: the study's default for the chosen scale
  std::uint64_t seed = 1;          // of every random draw (initial guesses, poses)
  std::vector<std::string> arms;   // empty: the study's default arms
  bool full = false;               // the paper's scale instead of the short one
  std::string out_dir;             // DIR; must be given
  // Progress of the whole study (done of total units, a short label); may be empty.
  std::function<void(long done, long total, const std::string& label)> progress;
};

// One number of a study.
struct SummaryRow {
  std::string study, task, arm, metric;
  double value = 0;
};

// The header of summary.csv, exactly.
inline const char* study_summary_header() { return "study,task,arm,metric,value"; }

class StudySummary {
 public:
  explicit StudySummary(std::string study) : study_(std::move(study)) {}
  // Names must not hold ',' or '"' or a line break (CSV without quoting):
  // throws std::invalid_argument naming the bad field.
  void add(const std::string& task, const std::string& arm, const std::string& metric, double value);
  const std::vector<SummaryRow>& rows() const { return rows_; }
  const std::string& study() const { return study_; }
  // Values in shortest round-trip decimals; non-finite ones as nan/inf.
  void write_csv(std::ostream& out) const;

 private:
  std::string study_;
  std::vector<SummaryRow> rows_;
};

// What a study's run function receives.
class StudyContext {
 public:
  StudyContext(const StudyOptions& options, std::vector<std::string> arms, int trials, std::string staging_dir,
               StudySummary& summary);
  const StudyOptions& options() const { return options_; }
  bool full() const { return options_.full; }
  int trials() const { return trials_; }
  // The arms to run, in the order given (validated against the definition).
  const std::vector<std::string>& arms() const { return arms_; }
  bool has_arm(const std::string& arm) const;
  StudySummary& summary() { return summary_; }
  // Where the study writes FILE (a plain name): in the staging folder, moved
  // into DIR when the study succeeds.
  std::string path(const std::string& file) const;
  const std::string& staging_dir() const { return staging_dir_; }
  // A generator for one trial, independent of how many trials run:
  // seeded from (options.seed, stream, trial).
  std::mt19937_64 rng(std::uint64_t trial, std::uint64_t stream = 0) const;
  void progress(long done, long total, const std::string& label = "") const;

 private:
  const StudyOptions& options_;
  std::vector<std::string> arms_;
  int trials_;
  std::string staging_dir_;
  StudySummary& summary_;
};

struct StudyDefinition {
  std::string name;
  std::string summary;                    // one line for `contactlab study --list`
  std::vector<std::string> tasks;         // exact task names
  std::vector<std::string> arms;          // the default arms, exact names
  // Other arm names the study accepts beyond `arms` (e.g. central_path_rho1e-4);
  // returns "" when `arm` is accepted, else why not. Empty: only `arms`.
  std::function<std::string(const std::string& arm)> accepts_extra_arm;
  int default_trials = 1;                 // the short scale (<= 2 minutes here)
  int full_trials = 1;                    // the paper's
  std::function<void(StudyContext&)> run;
};

// Every study, in the order `contactlab study --list` prints them (studies/study_list.cpp).
const std::vector<StudyDefinition>& study_definitions();
// Throws std::invalid_argument naming `name` and listing the known studies.
const StudyDefinition& find_study(const std::string& name);

// Checks the options (unknown arms, trials < 0, no DIR: std::invalid_argument
// naming them), runs the study and writes DIR/summary.csv and its files.
StudySummary run_study(const StudyDefinition& study, const StudyOptions& options);

}  // namespace contactlab
