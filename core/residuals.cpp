#include "core/residuals.hpp"

#include <algorithm>
#include <cmath>

namespace contactlab {

namespace {

// s = v + Gamma(v) over the contact rows into scratch.shifted.
void shifted_velocities(const ConstraintProblem& p, const ContactModel& law, const Real* v, ResidualScratch& scratch) {
  const int n = 3 * p.num_contacts;
  scratch.shifted.resize(n);
  if (n == 0) return;
  law.velocity_shift(p.mu.data(), p.num_contacts, v, scratch.shifted.data());
  for (int i = 0; i < n; ++i) scratch.shifted[i] += v[i];
}

// max_i |lambda_i - Pi_K(lambda - s)_i| over the contact rows.
Real contact_natural_map(const ConstraintProblem& p, const ContactModel& law, const Real* l, ResidualScratch& scratch) {
  const int n = 3 * p.num_contacts;
  Real rvi = 0;
  if (n == 0) return rvi;
  std::vector<Real>& nat = scratch.projected;
  nat.resize(n);
  for (int i = 0; i < n; ++i) nat[i] = l[i] - scratch.shifted[i];
  law.project_primal(p.mu.data(), p.num_contacts, nat.data());
  for (int i = 0; i < n; ++i) rvi = std::max(rvi, std::abs(l[i] - nat[i]));
  return rvi;
}

}  // namespace

ConstraintResiduals constraint_residuals(const ConstraintProblem& p, const ContactModel& law,
                                         const std::vector<Real>& lambda, const std::vector<Real>& v_plus,
                                         ResidualScratch& scratch) {
  Real rp = 0, rd = 0, rc = 0, rvi = 0;
  for (int r = 0; r < p.num_bilateral; ++r) {
    rd = std::max(rd, std::abs(v_plus[r]));
    rvi = std::max(rvi, std::abs(v_plus[r]));
  }
  for (int r = p.num_bilateral; r < p.contact_offset(); ++r) {
    const Real l = lambda[r], v = v_plus[r];
    rp = std::max(rp, std::max(Real(0), -l));
    rd = std::max(rd, std::max(Real(0), -v));
    rc = std::max(rc, std::abs(l * v));
    rvi = std::max(rvi, std::abs(l - std::max(Real(0), l - v)));
  }
  const int off = p.contact_offset(), n = 3 * p.num_contacts;
  if (n > 0) {
    const Real* l = &lambda[off];
    shifted_velocities(p, law, &v_plus[off], scratch);
    const std::vector<Real>& s = scratch.shifted;
    std::vector<Real>& proj = scratch.projected;
    proj.assign(l, l + n);
    law.project_primal(p.mu.data(), p.num_contacts, proj.data());
    for (int i = 0; i < n; ++i) rp = std::max(rp, std::abs(l[i] - proj[i]));
    proj.assign(s.begin(), s.end());
    law.project_dual(p.mu.data(), p.num_contacts, proj.data());
    for (int i = 0; i < n; ++i) rd = std::max(rd, std::abs(s[i] - proj[i]));
    const Real target = law.complementarity_target();
    for (int k = 0; k < p.num_contacts; ++k) {
      const int o = 3 * k;
      rc = std::max(rc, std::abs(l[o] * s[o] + l[o + 1] * s[o + 1] + l[o + 2] * s[o + 2] - target));
    }
    rvi = std::max(rvi, contact_natural_map(p, law, l, scratch));
  }
  return ConstraintResiduals{rp, rd, rc, rvi};
}

Real natural_map_residual(const ConstraintProblem& p, const ContactModel& law, const std::vector<Real>& lambda,
                          const std::vector<Real>& v_plus, ResidualScratch& scratch) {
  Real rvi = 0;
  for (int r = 0; r < p.num_bilateral; ++r) rvi = std::max(rvi, std::abs(v_plus[r]));
  for (int r = p.num_bilateral; r < p.contact_offset(); ++r) {
    const Real l = lambda[r], v = v_plus[r];
    rvi = std::max(rvi, std::abs(l - std::max(Real(0), l - v)));
  }
  if (p.num_contacts > 0) {
    const int off = p.contact_offset();
    shifted_velocities(p, law, &v_plus[off], scratch);
    rvi = std::max(rvi, contact_natural_map(p, law, &lambda[off], scratch));
  }
  return rvi;
}

}  // namespace contactlab
