#include "schemes/fluid_forces.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "core/dual.hpp"

namespace contactlab {

namespace {

constexpr Real kMinValue = 1e-15;  // MuJoCo's mjMINVAL: a degenerate box side stays finite

template <class T>
T abs_t(const T& x) {
  return x < T(0) ? T(-x) : x;
}

}  // namespace

FluidBox fluid_box(const Body& body) {
  FluidBox out;
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(body.inertia_B);
  const Vec3 I = eig.eigenvalues();
  out.R_BI = eig.eigenvectors();
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    out.sides[i] = std::sqrt(std::max(kMinValue, I[j] + I[k] - I[i]) / body.mass * 6.0);
  }
  return out;
}

template <class T>
void add_fluid_wrenches_t(const Model& model, const BodyStatesT<T>& s, std::vector<T>& wrench) {
  const Real rho = model.options.density, mu = model.options.viscosity;
  if (!(rho > 0) && !(mu > 0)) return;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Body& body = model.bodies[b];
    if (body.fixed || body.mass < kMinValue) continue;
    const FluidBox box = fluid_box(body);
    const Vec3& a = box.sides;
    const Mat3T<T> R_WI = s.q[b].toRotationMatrix() * box.R_BI.template cast<T>();
    const Vec3T<T> w = R_WI.transpose() * s.w[b], v = R_WI.transpose() * s.v[b];  // principal axes
    Vec3T<T> torque = Vec3T<T>::Zero(), force = Vec3T<T>::Zero();
    if (mu > 0) {
      const Real d = (a[0] + a[1] + a[2]) / 3.0;
      torque -= T(kPi * d * d * d * mu) * w;
      force -= T(3.0 * kPi * d * mu) * v;
    }
    if (rho > 0) {
      for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        force[i] -= T(0.5 * rho * a[j] * a[k]) * abs_t(v[i]) * v[i];
        torque[i] -= T(rho * a[i] * (std::pow(a[j], 4) + std::pow(a[k], 4)) / 64.0) * abs_t(w[i]) * w[i];
      }
    }
    Eigen::Map<Vec3T<T>>(&wrench[6 * b]) += R_WI * force;
    Eigen::Map<Vec3T<T>>(&wrench[6 * b + 3]) += R_WI * torque;
  }
}

template void add_fluid_wrenches_t<Real>(const Model&, const BodyStatesT<Real>&, std::vector<Real>&);
template void add_fluid_wrenches_t<Dual>(const Model&, const BodyStatesT<Dual>&, std::vector<Dual>&);

}  // namespace contactlab
