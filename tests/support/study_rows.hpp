// Reads a study's DIR/summary.csv back for the study smoke tests: the value
// of (task, arm, metric), NaN when absent (a CHECK on it then fails).
#pragma once

#include <cmath>
#include <fstream>
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

}  // namespace test
}  // namespace contactlab
