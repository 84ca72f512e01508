#include "core/model_limits.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

namespace contactlab {

namespace {

std::string text(Real v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

std::string describe(const Range& r) {
  std::string s = (r.lo_open ? "(" : "[") + text(r.lo) + ", " + text(r.hi) + "]";
  if (*r.unit) s += std::string(" ") + r.unit;
  return s;
}

std::string range_violation(const Range& r, Real v) {
  const bool ok = std::isfinite(v) && (r.lo_open ? v > r.lo : v >= r.lo) && v <= r.hi;
  if (ok) return "";
  return "must be finite and in " + describe(r) + ", got " + text(v);
}

std::string range_violation(const Range& r, const Vec3& v) {
  for (int i = 0; i < 3; ++i) {
    const std::string why = range_violation(r, v[i]);
    if (!why.empty()) return "[" + std::to_string(i) + "] " + why;
  }
  return "";
}

std::string inertia_triangle_violation(const Mat3& inertia) {
  if (!inertia.allFinite()) return "inertia is not finite";
  const Vec3 d = Eigen::SelfAdjointEigenSolver<Mat3>(inertia).eigenvalues();  // ascending
  if (d[0] + d[1] >= d[2] * (1 - 1e-6)) return "";
  return "principal moments " + text(d[0]) + ", " + text(d[1]) + ", " + text(d[2]) +
         " violate the triangle inequality (I1 + I2 >= I3)";
}

}  // namespace contactlab
