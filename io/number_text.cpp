#include "io/number_text.hpp"

#include <charconv>
#include <cstdio>

namespace contactlab {

std::string shortest_text(double value) {
  char buf[32];  // the longest shortest form of a double is 24 characters
  const auto result = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, result.ptr);
}

std::string round_trip_list(const double* v, int n) {
  std::string s;
  char buf[32];
  for (int i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%.17g", v[i]);
    s += (i ? " " : "") + std::string(buf);
  }
  return s;
}

std::ostream& operator<<(std::ostream& out, Shortest x) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof buf, x.value);
  return out.write(buf, result.ptr - buf);
}

}  // namespace contactlab
