#include "studies/study.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "io/number_text.hpp"
#include "io/output_file.hpp"

namespace fs = std::filesystem;

namespace contactlab {

namespace {

void check_field(const std::string& text, const char* field) {
  if (text.empty()) throw std::invalid_argument(std::string("study summary: empty ") + field);
  if (text.find_first_of(",\"\n\r") != std::string::npos)
    throw std::invalid_argument(std::string("study summary: ") + field + " '" + text +
                                "' holds a comma, a quote or a line break");
}

// splitmix64: decorrelates nearby (seed, stream, trial) triples.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::vector<std::string> chosen_arms(const StudyDefinition& study, const std::vector<std::string>& asked) {
  if (asked.empty()) return study.arms;
  std::vector<std::string> out;
  for (const std::string& arm : asked) {
    if (std::find(out.begin(), out.end(), arm) != out.end())
      throw std::invalid_argument("--arms: '" + arm + "' is given twice");
    const bool listed = std::find(study.arms.begin(), study.arms.end(), arm) != study.arms.end();
    if (!listed) {
      const std::string why = study.accepts_extra_arm ? study.accepts_extra_arm(arm) : "";
      if (!study.accepts_extra_arm || !why.empty()) {
        std::string known;
        for (const std::string& a : study.arms) known += (known.empty() ? "" : ", ") + a;
        throw std::invalid_argument("--arms: study " + study.name + " has no arm '" + arm + "'" +
                                    (why.empty() ? "" : " (" + why + ")") + "; its arms: " + known);
      }
    }
    out.push_back(arm);
  }
  return out;
}

// A fresh hidden folder inside DIR for the study's files.
std::string make_staging_dir(const std::string& dir) {
  std::string pattern = (fs::path(dir) / ".study-staging-XXXXXX").string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw OutputFileError("cannot create a staging folder in '" + dir + "'");
  return buf.data();
}

}  // namespace

void StudySummary::add(const std::string& task, const std::string& arm, const std::string& metric, double value) {
  check_field(task, "task");
  check_field(arm, "arm");
  check_field(metric, "metric");
  rows_.push_back({study_, task, arm, metric, value});
}

void StudySummary::write_csv(std::ostream& out) const {
  out << study_summary_header() << "\n";
  for (const SummaryRow& r : rows_)
    out << r.study << "," << r.task << "," << r.arm << "," << r.metric << "," << shortest_text(r.value) << "\n";
}

StudyContext::StudyContext(const StudyOptions& options, std::vector<std::string> arms, int trials,
                           std::string staging_dir, StudySummary& summary)
    : options_(options), arms_(std::move(arms)), trials_(trials), staging_dir_(std::move(staging_dir)),
      summary_(summary) {}

bool StudyContext::has_arm(const std::string& arm) const {
  return std::find(arms_.begin(), arms_.end(), arm) != arms_.end();
}

std::string StudyContext::path(const std::string& file) const {
  if (file.empty() || file.find('/') != std::string::npos || file == "." || file == "..")
    throw std::invalid_argument("study output '" + file + "': expected a plain file name");
  if (file == "summary.csv") throw std::invalid_argument("study output 'summary.csv' is written by the framework");
  return (fs::path(staging_dir_) / file).string();
}

std::mt19937_64 StudyContext::rng(std::uint64_t trial, std::uint64_t stream) const {
  return std::mt19937_64(mix(mix(mix(options_.seed) ^ stream) ^ trial));
}

void StudyContext::progress(long done, long total, const std::string& label) const {
  if (options_.progress) options_.progress(done, total, label);
}

const StudyDefinition& find_study(const std::string& name) {
  for (const StudyDefinition& s : study_definitions())
    if (s.name == name) return s;
  std::string known;
  for (const StudyDefinition& s : study_definitions()) known += (known.empty() ? "" : ", ") + s.name;
  throw std::invalid_argument("unknown study '" + name + "'; the studies: " + (known.empty() ? "none" : known));
}

StudySummary run_study(const StudyDefinition& study, const StudyOptions& options) {
  if (options.out_dir.empty()) throw std::invalid_argument("study " + study.name + ": no output folder (--out)");
  if (options.trials < 0) throw std::invalid_argument("--trials must be >= 0 (0: the study's default)");
  const std::vector<std::string> arms = chosen_arms(study, options.arms);
  const int trials = options.trials > 0 ? options.trials : (options.full ? study.full_trials : study.default_trials);

  const fs::path dir(options.out_dir);
  std::error_code ec;
  const bool created = !fs::exists(dir, ec);
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw OutputFileError("cannot create output folder '" + options.out_dir + "'");
  const std::string staging = make_staging_dir(options.out_dir);
  // Nothing of a failed study stays behind; a folder we made is removed too.
  auto clean_up = [&] {
    fs::remove_all(staging, ec);
    if (created) fs::remove(dir, ec);  // only when empty
  };

  StudySummary summary(study.name);
  try {
    StudyContext context(options, arms, trials, staging, summary);
    study.run(context);
    // The study's files, then summary.csv last (its presence marks a complete study).
    for (const auto& entry : fs::directory_iterator(staging))
      fs::rename(entry.path(), dir / entry.path().filename());
    OutputFile csv((dir / "summary.csv").string());
    summary.write_csv(*csv.open());
    csv.commit();
  } catch (...) {
    clean_up();
    throw;
  }
  fs::remove(staging, ec);
  return summary;
}

}  // namespace contactlab
