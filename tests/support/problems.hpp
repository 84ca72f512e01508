// Hand-built constraint problems shared by the solver tests: a unit particle
// with one contact, a box on 1-4 corners with optional bilateral and limit
// rows, and the natural-map residual (MATH.md E.1) computed independently of
// any solver with Eigen's dense Delassus matrix.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "contact_models/cone.hpp"
#include "core/constraint_problem.hpp"

namespace contactlab {
namespace test_problems {

// One row of J for a point r (from the CoM) of body 0 along direction d.
inline ConstraintRow row_at(const Vec3& r, const Vec3& d) {
  ConstraintRow row;
  row.body_a = -1;  // world
  row.body_b = 0;
  row.J_b << d, r.cross(d);
  return row;
}

// Unit-mass particle (body 0) with one contact at its centre, normal z,
// t1 = x, t2 = y; v_free already contains h.
inline ConstraintProblem particle(const Vec3& vf, double mu) {
  ConstraintProblem pr;
  pr.resize(1, 0, 0, 1);
  pr.inv_mass[0] = 1;
  pr.inv_inertia_W[0] = Mat3::Identity();
  pr.rows[0] = row_at(Vec3::Zero(), Vec3::UnitZ());
  pr.rows[1] = row_at(Vec3::Zero(), Vec3::UnitX());
  pr.rows[2] = row_at(Vec3::Zero(), Vec3::UnitY());
  for (int i = 0; i < 3; ++i) pr.v_free[i] = vf[i];
  pr.mu[0] = mu;
  return pr;
}

// Box (mass 2, half extents 0.5 x 0.3 x 0.2) touching the ground at `corners`
// of its bottom face, moving with twist (v, w); optional bilateral and limit
// rows along `extra` directions at the CoM.
inline ConstraintProblem box(int corners, const Vec3& v, const Vec3& w, double mu, int bilateral = 0, int limits = 0) {
  const Vec3 h(0.5, 0.3, 0.2);
  const double mass = 2;
  ConstraintProblem pr;
  pr.resize(1, bilateral, limits, corners);
  pr.inv_mass[0] = 1 / mass;
  const Vec3 I(mass / 3 * (h.y() * h.y() + h.z() * h.z()), mass / 3 * (h.x() * h.x() + h.z() * h.z()),
               mass / 3 * (h.x() * h.x() + h.y() * h.y()));
  pr.inv_inertia_W[0] = I.cwiseInverse().asDiagonal();
  int r = 0;
  for (int i = 0; i < bilateral; ++i) pr.rows[r++] = row_at(Vec3(0.1 * i, 0, 0.3), Vec3::UnitX());  // e.g. a rail
  for (int i = 0; i < limits; ++i) pr.rows[r++] = row_at(Vec3(0, 0.2, 0.1 * i), Vec3::UnitY());    // a stop
  const Vec3 pts[4] = {{h.x(), h.y(), -h.z()}, {-h.x(), -h.y(), -h.z()}, {h.x(), -h.y(), -h.z()}, {-h.x(), h.y(), -h.z()}};
  for (int k = 0; k < corners; ++k) {
    pr.rows[r++] = row_at(pts[k], Vec3::UnitZ());
    pr.rows[r++] = row_at(pts[k], Vec3::UnitX());
    pr.rows[r++] = row_at(pts[k], Vec3::UnitY());
    pr.mu[k] = mu;
  }
  std::vector<Real> u(6);
  for (int i = 0; i < 3; ++i) {
    u[i] = v[i];
    u[3 + i] = w[i];
  }
  pr.apply_J(u.data(), pr.v_free.data());
  return pr;
}

// v = D lambda + v_f from Eigen's dense D (independent of the solver's assembly).
inline std::vector<Real> velocity(const ConstraintProblem& pr, const std::vector<Real>& lambda) {
  MatX D;
  pr.dense_delassus(D);
  const VecX v = D * Eigen::Map<const VecX>(lambda.data(), pr.num_rows()) +
                 Eigen::Map<const VecX>(pr.v_free.data(), pr.num_rows());
  return std::vector<Real>(v.data(), v.data() + v.size());
}

// Natural-map residual (MATH.md E.1): bilateral |v|, limits |lambda - max(0,
// lambda - v)|, contacts |lambda - Pi_K(lambda - (v + Gamma(v)))|, infinity norm.
inline double natural_map(const ConstraintProblem& pr, const std::vector<Real>& lambda, const std::vector<Real>& v) {
  double r = 0;
  for (int i = 0; i < pr.num_bilateral; ++i) r = std::max(r, std::abs(v[i]));
  for (int i = pr.num_bilateral; i < pr.contact_offset(); ++i)
    r = std::max(r, std::abs(lambda[i] - std::max(0.0, lambda[i] - v[i])));
  for (int k = 0; k < pr.num_contacts; ++k) {
    const int o = pr.contact_offset() + 3 * k;
    const double mu = pr.mu[k];
    double arg[3];
    const double shift = mu * std::hypot(v[o + 1], v[o + 2]);
    arg[0] = lambda[o] - (v[o] + shift);
    arg[1] = lambda[o + 1] - v[o + 1];
    arg[2] = lambda[o + 2] - v[o + 2];
    cone::project_primal(mu, arg);
    for (int j = 0; j < 3; ++j) r = std::max(r, std::abs(lambda[o + j] - arg[j]));
  }
  return r;
}

}  // namespace test_problems
}  // namespace contactlab
