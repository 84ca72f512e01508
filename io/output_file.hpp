// An output file written under a temporary name and renamed into place only
// when the run succeeds, so a failed run leaves nothing that looks like a result.
#pragma once

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace contactlab {

class OutputFile {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)) {}
  ~OutputFile() { discard(); }
  // nullptr when no path was given.
  std::ostream* open() {
    if (path_.empty()) return nullptr;
    tmp_ = path_ + ".partial";
    stream_.open(tmp_);
    if (!stream_) throw std::runtime_error("cannot write '" + path_ + "'");
    return &stream_;
  }
  void commit() {
    if (tmp_.empty()) return;
    stream_.close();
    if (!stream_ || std::rename(tmp_.c_str(), path_.c_str()) != 0)
      throw std::runtime_error("cannot write '" + path_ + "'");
    tmp_.clear();
  }
  void discard() {
    if (tmp_.empty()) return;
    stream_.close();
    std::remove(tmp_.c_str());
    tmp_.clear();
  }

 private:
  std::string path_, tmp_;
  std::ofstream stream_;
};

}  // namespace contactlab
