// Reads a study's DIR/summary.csv back for the study smoke tests: the value
// of (task, arm, metric), NaN when absent (a CHECK on it then fails).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

namespace contactlab {
namespace test {

class StudyRows {
 public:
  explicit StudyRows(const std::string& summary_csv) {
    std::ifstream in(summary_csv);
    std::getline(in, header_);
    std::string line;
    while (std::getline(in, line)) {
      std::stringstream ss(line);
      std::string study, task, arm, metric, value;
      std::getline(ss, study, ',');
      std::getline(ss, task, ',');
      std::getline(ss, arm, ',');
      std::getline(ss, metric, ',');
      std::getline(ss, value, ',');
      rows_[{task, arm, metric}] = std::stod(value);
    }
  }
  const std::string& header() const { return header_; }
  size_t size() const { return rows_.size(); }
  double get(const std::string& task, const std::string& arm, const std::string& metric) const {
    const auto it = rows_.find({task, arm, metric});
    return it == rows_.end() ? std::nan("") : it->second;
  }

 private:
  std::string header_;
  std::map<std::tuple<std::string, std::string, std::string>, double> rows_;
};

// A study's output folder as the smoke tests first check it: each of `files`
// written in `dir`, summary.csv with the framework's header; its rows.
inline StudyRows study_output(const std::filesystem::path& dir, std::initializer_list<const char*> files) {
  for (const char* f : files) CHECK_MESSAGE(std::filesystem::exists(dir / f), (dir / f).string());
  StudyRows rows((dir / "summary.csv").string());
  CHECK(rows.header() == "study,task,arm,metric,value");
  return rows;
}

}  // namespace test
}  // namespace contactlab
