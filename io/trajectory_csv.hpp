// Reading back what `contactlab run --out` writes (docs/cli.md, "Trajectory
// CSV") and `run --contacts` writes ("Contacts CSV"), for `contactlab view`.
// Every malformed line is an error naming the file and line.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace contactlab {

// One step's rows: for each body name (in the file's order), the origin and
// orientation (px py pz qw qx qy qz). Site rows (`site.NAME`) are kept apart.
struct TrajectoryFrame {
  long step = 0;
  double time = 0;
  std::vector<double> poses;  // 7 per body, in TrajectoryFile::bodies' order
};

struct TrajectoryFile {
  std::string path;
  std::vector<std::string> bodies;  // row names of step 0 that are not sites, in order
  std::vector<int> body_lines;      // the line each of step 0's bodies was read on
  std::vector<TrajectoryFrame> frames;
};

// `is_site(name)` says whether a row name is a site row of the scene (those
// rows are skipped): "site.NAME" for a site the scene has and no body of that
// name has. Steps must be 0, 1, 2, ... with non-decreasing times, and every
// step must list the same rows in the same order as step 0.
TrajectoryFile read_trajectory_csv(const std::string& path, const std::function<bool(const std::string&)>& is_site);

// One row of a contacts CSV: at the step that led to trajectory step `step`.
struct ContactRow {
  long step = 0;
  double time = 0;
  std::string body1, body2;
  double point[3], normal[3], force[3];
  double gap = 0;
};
struct ContactsFile {
  std::string path;
  std::vector<ContactRow> rows;  // in file order (non-decreasing step)
};

// The header written by `run --contacts`.
extern const char* const kContactsCsvHeader;
ContactsFile read_contacts_csv(const std::string& path);

}  // namespace contactlab
