#include "core/constraint_problem.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace contactlab {

void ConstraintProblem::resize(int bodies, int bilateral, int limits, int contacts) {
  num_bodies = bodies;
  num_bilateral = bilateral;
  num_limit = limits;
  num_contacts = contacts;
  const int m = bilateral + limits + 3 * contacts;
  rows.resize(m);
  compliance.assign(m, 0.0);
  v_free.assign(m, 0.0);
  mu.assign(contacts, 0.0);
  inv_mass.resize(bodies);
  inv_inertia_W.resize(bodies);
}

void ConstraintProblem::set_explicit(const MatX& W, const VecX& q, const VecX& mu_in) {
  set_explicit(std::make_shared<const ExplicitDelassus>(W), q, mu_in);
}

void ConstraintProblem::set_explicit(std::shared_ptr<const ExplicitDelassus> W, const VecX& q, const VecX& mu_in) {
  const int m = static_cast<int>(q.size());
  if (!W || W->size() != m || m % 3 != 0 || mu_in.size() != m / 3)
    throw std::invalid_argument("explicit Delassus problem: W must be m x m, q of size m = 3 nc, mu of size nc");
  if (!q.allFinite()) throw std::invalid_argument("explicit Delassus problem: q has a non-finite entry");
  for (Eigen::Index k = 0; k < mu_in.size(); ++k)
    if (!(mu_in[k] >= 0) || !std::isfinite(mu_in[k]))
      throw std::invalid_argument("explicit Delassus problem: mu[" + std::to_string(k) +
                                  "] must be finite and not negative");
  num_bodies = 0;
  num_bilateral = num_limit = 0;
  num_contacts = m / 3;
  rows.clear();
  inv_mass.clear();
  inv_inertia_W.clear();
  compliance.assign(m, 0.0);
  v_free.assign(q.data(), q.data() + m);
  mu.assign(mu_in.data(), mu_in.data() + mu_in.size());
  explicit_W = std::move(W);
}

void ConstraintProblem::apply_JT(const Real* x, Real* y) const {
  if (explicit_W) {
    if (y != x) std::copy(x, x + num_rows(), y);
    return;
  }
  for (int i = 0; i < 6 * num_bodies; ++i) y[i] = 0;
  for (int r = 0; r < num_rows(); ++r) {
    const ConstraintRow& row = rows[r];
    if (row.body_a >= 0) Eigen::Map<Vec6>(y + 6 * row.body_a) += row.J_a * x[r];
    if (row.body_b >= 0) Eigen::Map<Vec6>(y + 6 * row.body_b) += row.J_b * x[r];
  }
}

void ConstraintProblem::apply_J(const Real* u, Real* y) const {
  if (explicit_W) {
    if (y != u) std::copy(u, u + num_rows(), y);
    return;
  }
  for (int r = 0; r < num_rows(); ++r) {
    const ConstraintRow& row = rows[r];
    Real s = 0;
    if (row.body_a >= 0) s += row.J_a.dot(Eigen::Map<const Vec6>(u + 6 * row.body_a));
    if (row.body_b >= 0) s += row.J_b.dot(Eigen::Map<const Vec6>(u + 6 * row.body_b));
    y[r] = s;
  }
}

void ConstraintProblem::apply_Minv(const Real* x, Real* y) const {
  if (explicit_W) {  // y = W x; in place allowed, as for the block-diagonal M^-1
    if (x != y) return explicit_W->multiply(x, y);
    const VecX copy = Eigen::Map<const VecX>(x, num_rows());
    explicit_W->multiply(copy.data(), y);
    return;
  }
  for (int b = 0; b < num_bodies; ++b) {
    Eigen::Map<const Vec3> lin(x + 6 * b), ang(x + 6 * b + 3);
    Eigen::Map<Vec3>(y + 6 * b) = inv_mass[b] * lin;
    Eigen::Map<Vec3>(y + 6 * b + 3) = inv_inertia_W[b] * ang;
  }
}

void ConstraintProblem::apply_delassus(const Real* x, Real* y, Real* scratch) const {
  if (explicit_W) {  // J = I: W x directly, without the in-place copy of apply_Minv
    explicit_W->multiply(x, y);
    for (int r = 0; r < num_rows(); ++r) y[r] += compliance[r] * x[r];
    return;
  }
  apply_JT(x, scratch);
  apply_Minv(scratch, scratch);  // block-diagonal: in place is safe
  apply_J(scratch, y);
  for (int r = 0; r < num_rows(); ++r) y[r] += compliance[r] * x[r];
}

void ConstraintProblem::dense_delassus(MatX& D) const {
  const int m = num_rows();
  if (explicit_W) {
    explicit_W->to_dense(D);
    for (int i = 0; i < m; ++i) D(i, i) += compliance[i];
    return;
  }
  D.setZero(m, m);
  // M^-1 J^T column per row, kept per endpoint: D_ij = sum over shared bodies.
  auto minv_row = [&](int body, const Vec6& j) {
    Vec6 out;
    out.head<3>() = inv_mass[body] * j.head<3>();
    out.tail<3>() = inv_inertia_W[body] * j.tail<3>();
    return out;
  };
  for (int i = 0; i < m; ++i) {
    const ConstraintRow& ri = rows[i];
    for (int j = i; j < m; ++j) {
      const ConstraintRow& rj = rows[j];
      Real s = 0;
      const int bi[2] = {ri.body_a, ri.body_b};
      const Vec6* Ji[2] = {&ri.J_a, &ri.J_b};
      const int bj[2] = {rj.body_a, rj.body_b};
      const Vec6* Jj[2] = {&rj.J_a, &rj.J_b};
      for (int p = 0; p < 2; ++p) {
        if (bi[p] < 0) continue;
        for (int q = 0; q < 2; ++q) {
          if (bj[q] == bi[p]) s += Ji[p]->dot(minv_row(bi[p], *Jj[q]));
        }
      }
      D(i, j) = s;
      D(j, i) = s;
    }
    D(i, i) += compliance[i];
  }
}

Vec6 body_minv(const ConstraintProblem& pr, int body, const Vec6& j) {
  Vec6 out;
  out.head<3>() = pr.inv_mass[body] * j.head<3>();
  out.tail<3>() = pr.inv_inertia_W[body] * j.tail<3>();
  return out;
}

Real delassus_diagonal_entry(const ConstraintProblem& pr, int r) {
  if (pr.explicit_delassus()) return pr.explicit_W->diagonal(r);
  const ConstraintRow& row = pr.rows[r];
  Real d = 0;
  for (int side = 0; side < 2; ++side) {
    const int b = side == 0 ? row.body_a : row.body_b;
    if (b < 0) continue;
    const Vec6& j = side == 0 ? row.J_a : row.J_b;
    d += pr.inv_mass[b] * j.head<3>().squaredNorm() + j.tail<3>().dot(pr.inv_inertia_W[b] * j.tail<3>());
  }
  return d;
}

Real delassus_entry(const ConstraintProblem& pr, int r, int s) {
  if (pr.explicit_delassus()) return pr.explicit_W->entry(r, s);
  if (r == s) return delassus_diagonal_entry(pr, r);
  const ConstraintRow& a = pr.rows[r];
  const ConstraintRow& c = pr.rows[s];
  Real d = 0;
  for (int side_a = 0; side_a < 2; ++side_a) {
    const int b = side_a == 0 ? a.body_a : a.body_b;
    if (b < 0) continue;
    for (int side_c = 0; side_c < 2; ++side_c) {
      if ((side_c == 0 ? c.body_a : c.body_b) != b) continue;
      d += (side_a == 0 ? a.J_a : a.J_b).dot(body_minv(pr, b, side_c == 0 ? c.J_a : c.J_b));
    }
  }
  return d;
}

}  // namespace contactlab
