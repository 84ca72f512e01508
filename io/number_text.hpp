// Numbers written so that reading them back gives the same double: the
// shortest decimal that round-trips (std::to_chars), so the trajectory CSV
// and the Python module's arrays hold the same numbers bit for bit, and 0.1
// is written "0.1", not "0.10000000000000001".
#pragma once

#include <ostream>
#include <string>

namespace contactlab {

struct Shortest {
  double value;
};
std::ostream& operator<<(std::ostream& out, Shortest x);
std::string shortest_text(double value);
// v[0..n) as attribute text, "%.17g" each, one space apart: the MJCF
// expansions (replicate, frames) write computed poses back into the tree.
std::string round_trip_list(const double* v, int n);

}  // namespace contactlab
