#include "io/trajectory_csv.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace contactlab {

const char* const kContactsCsvHeader = "step,time,body1,body2,px,py,pz,nx,ny,nz,fx,fy,fz,gap";

namespace {

const char* const kTrajectoryHeader = "step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";

[[noreturn]] void fail(const std::string& path, long line, const std::string& what) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) out.push_back(field);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

double number(const std::string& text, const std::string& path, long line, const char* column) {
  errno = 0;
  char* end = nullptr;
  const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    fail(path, line, std::string("column '") + column + "' is '" + text + "', not a finite number");
  return v;
}

long whole(const std::string& text, const std::string& path, long line, const char* column) {
  errno = 0;
  char* end = nullptr;
  const long v = text.empty() ? -1 : std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < 0)
    fail(path, line, std::string("column '") + column + "' is '" + text + "', not a step number");
  return v;
}

// Lines of a file with its line numbers; CRLF line ends accepted.
struct LineReader {
  std::ifstream in;
  std::string path;
  long number = 0;
  explicit LineReader(const std::string& p) : in(p), path(p) {
    if (!in) throw std::runtime_error("cannot read '" + p + "': " + std::strerror(errno));
  }
  bool next(std::string& line) {
    if (!std::getline(in, line)) return false;
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }
  void header(const char* expected, const char* what) {
    std::string line;
    if (!next(line)) fail(path, 1, std::string("empty file, expected the ") + what + " header '" + expected + "'");
    if (line != expected)
      fail(path, 1, std::string("header is '") + line + "', expected the " + what + " header '" + expected + "'");
  }
};

}  // namespace

TrajectoryFile read_trajectory_csv(const std::string& path, const std::function<bool(const std::string&)>& is_site) {
  LineReader r(path);
  r.header(kTrajectoryHeader, "trajectory CSV (contactlab run --out)");
  TrajectoryFile file;
  file.path = path;
  static const char* const kColumns[] = {"px", "py", "pz", "qw", "qx", "qy", "qz"};
  std::string line;
  size_t row = 0;  // the row's index within its step, sites excluded
  while (r.next(line)) {
    if (line.empty()) fail(path, r.number, "empty line");
    const std::vector<std::string> f = split(line);
    if (f.size() != 16) fail(path, r.number, std::to_string(f.size()) + " fields, expected 16");
    const long step = whole(f[0], path, r.number, "step");
    const double time = number(f[1], path, r.number, "time");
    const std::string& name = f[2];
    if (file.frames.empty() || step != file.frames.back().step) {
      if (!file.frames.empty() && row != file.bodies.size())
        fail(path, r.number, "step " + std::to_string(file.frames.back().step) + " has " + std::to_string(row) +
                                 " body rows, step 0 has " + std::to_string(file.bodies.size()));
      const long expected = file.frames.empty() ? 0 : file.frames.back().step + 1;
      if (step != expected)
        fail(path, r.number, "step " + std::to_string(step) + " where step " + std::to_string(expected) + " was expected");
      if (!file.frames.empty() && time < file.frames.back().time)
        fail(path, r.number, "time " + f[1] + " is earlier than the previous step's");
      file.frames.push_back({step, time, {}});
      row = 0;
    }
    TrajectoryFrame& frame = file.frames.back();
    if (time != frame.time) fail(path, r.number, "time " + f[1] + " differs from the step's first row");
    if (is_site(name)) continue;
    if (step == 0) {
      for (const auto& b : file.bodies)
        if (b == name) fail(path, r.number, "body '" + name + "' listed twice in step 0");
      file.bodies.push_back(name);
      file.body_lines.push_back(r.number);
    } else if (row >= file.bodies.size() || file.bodies[row] != name) {
      fail(path, r.number, "body '" + name + "' where step 0 has " +
                               (row < file.bodies.size() ? "'" + file.bodies[row] + "'" : std::string("no more bodies")));
    }
    for (int k = 0; k < 7; ++k) frame.poses.push_back(number(f[3 + k], path, r.number, kColumns[k]));
    for (int k = 10; k < 16; ++k) number(f[k], path, r.number, "velocity");
    ++row;
  }
  if (file.frames.empty()) fail(path, r.number, "no rows after the header");
  if (row != file.bodies.size())
    fail(path, r.number, "the last step has " + std::to_string(row) + " body rows, step 0 has " +
                             std::to_string(file.bodies.size()));
  return file;
}

ContactsFile read_contacts_csv(const std::string& path) {
  LineReader r(path);
  r.header(kContactsCsvHeader, "contacts CSV (contactlab run --contacts)");
  ContactsFile file;
  file.path = path;
  static const char* const kColumns[] = {"px", "py", "pz", "nx", "ny", "nz", "fx", "fy", "fz"};
  std::string line;
  while (r.next(line)) {
    if (line.empty()) fail(path, r.number, "empty line");
    const std::vector<std::string> f = split(line);
    if (f.size() != 14) fail(path, r.number, std::to_string(f.size()) + " fields, expected 14");
    ContactRow c;
    c.step = whole(f[0], path, r.number, "step");
    c.time = number(f[1], path, r.number, "time");
    if (!file.rows.empty() && c.step < file.rows.back().step)
      fail(path, r.number, "step " + f[0] + " after step " + std::to_string(file.rows.back().step));
    c.body1 = f[2];
    c.body2 = f[3];
    for (int k = 0; k < 3; ++k) {
      c.point[k] = number(f[4 + k], path, r.number, kColumns[k]);
      c.normal[k] = number(f[7 + k], path, r.number, kColumns[3 + k]);
      c.force[k] = number(f[10 + k], path, r.number, kColumns[6 + k]);
    }
    c.gap = number(f[13], path, r.number, "gap");
    file.rows.push_back(std::move(c));
  }
  return file;
}

}  // namespace contactlab
