// Forward-mode dual numbers with one tangent direction, for the exact
// position pull-back (adjoints/step_problem.hpp): code templated on its
// scalar and evaluated with Dual computes a value and its directional
// derivative along a seeded input in one pass, to rounding.
//
// Comparisons look at the value only (the branch taken is the value's, as in
// the forward); functions propagate the tangent by their derivative. The
// Eigen traits let Dual be the scalar of fixed-size matrices and
// quaternions, mixed with double (double * Dual -> Dual).
#pragma once

#include <cmath>
#include <limits>

#include <Eigen/Core>

namespace contactlab {

struct Dual {
  double v = 0;  // value
  double d = 0;  // derivative along the seeded direction

  Dual() = default;
  Dual(double value) : v(value) {}  // NOLINT: implicit, so that literals and doubles mix in
  Dual(double value, double tangent) : v(value), d(tangent) {}

  Dual& operator+=(const Dual& o) {
    v += o.v;
    d += o.d;
    return *this;
  }
  Dual& operator-=(const Dual& o) {
    v -= o.v;
    d -= o.d;
    return *this;
  }
  Dual& operator*=(const Dual& o) {
    d = d * o.v + v * o.d;
    v *= o.v;
    return *this;
  }
  Dual& operator/=(const Dual& o) {
    const double q = v / o.v;  // the value exactly as double division gives it
    d = (d - q * o.d) / o.v;
    v = q;
    return *this;
  }
};

inline Dual operator+(Dual a, const Dual& b) { return a += b; }
inline Dual operator-(Dual a, const Dual& b) { return a -= b; }
inline Dual operator*(Dual a, const Dual& b) { return a *= b; }
inline Dual operator/(Dual a, const Dual& b) { return a /= b; }
inline Dual operator-(const Dual& a) { return Dual(-a.v, -a.d); }
inline Dual operator+(const Dual& a) { return a; }

inline bool operator<(const Dual& a, const Dual& b) { return a.v < b.v; }
inline bool operator>(const Dual& a, const Dual& b) { return a.v > b.v; }
inline bool operator<=(const Dual& a, const Dual& b) { return a.v <= b.v; }
inline bool operator>=(const Dual& a, const Dual& b) { return a.v >= b.v; }
inline bool operator==(const Dual& a, const Dual& b) { return a.v == b.v; }
inline bool operator!=(const Dual& a, const Dual& b) { return a.v != b.v; }

inline Dual sqrt(const Dual& a) {
  const double s = std::sqrt(a.v);
  return Dual(s, s > 0 ? a.d / (2 * s) : 0.0);
}
inline Dual abs(const Dual& a) { return a.v < 0 ? -a : a; }
inline Dual sin(const Dual& a) { return Dual(std::sin(a.v), std::cos(a.v) * a.d); }
inline Dual cos(const Dual& a) { return Dual(std::cos(a.v), -std::sin(a.v) * a.d); }
inline Dual atan2(const Dual& y, const Dual& x) {
  const double r2 = x.v * x.v + y.v * y.v;
  return Dual(std::atan2(y.v, x.v), r2 > 0 ? (x.v * y.d - y.v * x.d) / r2 : 0.0);
}
inline Dual hypot(const Dual& a, const Dual& b) { return sqrt(a * a + b * b); }
inline bool isfinite(const Dual& a) { return std::isfinite(a.v) && std::isfinite(a.d); }
inline bool isnan(const Dual& a) { return std::isnan(a.v) || std::isnan(a.d); }
inline bool isinf(const Dual& a) { return std::isinf(a.v) || std::isinf(a.d); }

// The value of a scalar (double: itself).
inline double value_of(double x) { return x; }
inline double value_of(const Dual& x) { return x.v; }

}  // namespace contactlab

namespace Eigen {

template <>
struct NumTraits<contactlab::Dual> : NumTraits<double> {
  using Real = contactlab::Dual;
  using NonInteger = contactlab::Dual;
  using Literal = contactlab::Dual;
  using Nested = contactlab::Dual;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 2, AddCost = 2, MulCost = 4 };
  static contactlab::Dual epsilon() { return NumTraits<double>::epsilon(); }
  static contactlab::Dual dummy_precision() { return NumTraits<double>::dummy_precision(); }
  static contactlab::Dual highest() { return NumTraits<double>::highest(); }
  static contactlab::Dual lowest() { return NumTraits<double>::lowest(); }
  static int digits10() { return NumTraits<double>::digits10(); }
};

template <typename BinaryOp>
struct ScalarBinaryOpTraits<contactlab::Dual, double, BinaryOp> {
  using ReturnType = contactlab::Dual;
};
template <typename BinaryOp>
struct ScalarBinaryOpTraits<double, contactlab::Dual, BinaryOp> {
  using ReturnType = contactlab::Dual;
};

}  // namespace Eigen
