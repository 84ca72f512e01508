// Scalar and small fixed-size types used everywhere, plus quaternion helpers.
// Frames: world W; a vector named *_W is expressed in world axes; quaternions
// are stored (w, x, y, z) and map body axes to world axes (R_WB).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/host_device.hpp"

namespace contactlab {

using Real = double;
using Vec3 = Eigen::Matrix<Real, 3, 1>;
using Vec6 = Eigen::Matrix<Real, 6, 1>;
using Mat3 = Eigen::Matrix<Real, 3, 3>;
using Quat = Eigen::Quaternion<Real>;
using VecX = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
using MatX = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;

constexpr Real kPi = 3.14159265358979323846;

// The same shapes over any scalar T (double, or core/dual.hpp's Dual for the
// exact pull-back); the double names above are T = Real.
template <class T>
using Vec3T = Eigen::Matrix<T, 3, 1>;
template <class T>
using Vec6T = Eigen::Matrix<T, 6, 1>;
template <class T>
using Mat3T = Eigen::Matrix<T, 3, 3>;
template <class T>
using QuatT = Eigen::Quaternion<T>;
// For parameters whose T is deduced from another argument, so that Eigen
// expressions convert at the call: const NoDeduceT<Vec3T<T>>&.
template <class T>
struct NoDeduce {
  using type = T;
};
template <class T>
using NoDeduceT = typename NoDeduce<T>::type;

// Skew-symmetric cross-product matrix: skew(a) * b = a x b.
inline Mat3 skew(const Vec3& a) {
  Mat3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

// Exact rotation increment for a constant world-frame angular velocity w over
// time h: q+ = exp(h w / 2) * q (left multiplication: world-frame w).
template <class T>
QuatT<T> integrate_quaternion_t(const QuatT<T>& q, const Vec3T<T>& w_W, const T& h) {
  using std::sqrt;
  const Vec3T<T> phi = w_W * h;
  const T angle = phi.norm();
  QuatT<T> dq;
  if (angle < T(1e-12)) {
    dq = QuatT<T>(T(1), T(0.5) * phi.x(), T(0.5) * phi.y(), T(0.5) * phi.z());
  } else {
    dq = QuatT<T>(Eigen::AngleAxis<T>(angle, phi / angle));
  }
  QuatT<T> out = dq * q;
  out.normalize();
  return out;
}
inline Quat integrate_quaternion(const Quat& q, const Vec3& w_W, Real h) { return integrate_quaternion_t<Real>(q, w_W, h); }

// Left Jacobian of SO(3)'s exponential: integrate_quaternion(q, w, h) turns by
// Exp(phi), phi = h w, and a change d phi turns the result by J_l(phi) d phi
// (world frame). J_l(phi) = I + (1 - cos a)/a^2 [phi]x + (a - sin a)/a^3 [phi]x^2, a = |phi|.
template <class T>
Mat3T<T> so3_left_jacobian_t(const Vec3T<T>& phi) {
  using std::cos;
  using std::sin;
  const T a = phi.norm();
  Mat3T<T> K;
  K << T(0), -phi.z(), phi.y(), phi.z(), T(0), -phi.x(), -phi.y(), phi.x(), T(0);
  if (a < T(1e-6)) return Mat3T<T>::Identity() + T(0.5) * K + K * K / T(6.0);  // series, error O(a^3)
  return Mat3T<T>::Identity() + (T(1) - cos(a)) / (a * a) * K + (a - sin(a)) / (a * a * a) * K * K;
}
inline Mat3 so3_left_jacobian(const Vec3& phi) { return so3_left_jacobian_t<Real>(phi); }

// Rotation vector (axis * angle, angle in [-pi, pi]) of a unit quaternion.
template <class T>
Vec3T<T> quaternion_log_t(const QuatT<T>& q_in) {
  using std::atan2;
  QuatT<T> q = q_in;
  if (q.w() < T(0)) q.coeffs() = -q.coeffs();
  const Vec3T<T> v = q.vec();
  const T s = v.norm();
  if (s < T(1e-12)) return T(2.0) * v;
  const T angle = T(2.0) * atan2(s, q.w());
  return v * (angle / s);
}
inline Vec3 quaternion_log(const Quat& q_in) { return quaternion_log_t<Real>(q_in); }

// Two unit vectors completing n to a right-handed orthonormal frame (n, t1, t2).
template <class T>
void tangent_basis_t(const Vec3T<T>& n, Vec3T<T>& t1, Vec3T<T>& t2) {
  using std::abs;
  // Pick the world axis least aligned with n so the cross product is well conditioned.
  const Vec3T<T> a = (abs(n.x()) < T(0.57)) ? Vec3T<T>::UnitX() : (abs(n.y()) < T(0.57) ? Vec3T<T>::UnitY() : Vec3T<T>::UnitZ());
  t1 = (a - n * n.dot(a)).normalized();
  t2 = n.cross(t1);
}
inline void tangent_basis(const Vec3& n, Vec3& t1, Vec3& t2) { tangent_basis_t<Real>(n, t1, t2); }

}  // namespace contactlab
