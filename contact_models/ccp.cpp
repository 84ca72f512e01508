#include "contact_models/ccp.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "contact_models/ccp_zones.hpp"
#include "contact_models/cone.hpp"
#include "contact_models/cone_relations.hpp"

namespace contactlab {

namespace {

using Mat3R = Eigen::Matrix<Real, 3, 3, Eigen::RowMajor>;

void require(bool ok, const char* field, Real value, const char* what) {
  if (ok) return;
  std::ostringstream s;
  s << "CcpOptions." << field << " " << what << " (got " << value << ")";
  throw std::invalid_argument(s.str());
}

}  // namespace

void CcpOptions::Validate() const {
  require(compliance > 0 && std::isfinite(compliance), "compliance", compliance, "must be finite and > 0");
  require(gap_recovery >= 0 && gap_recovery <= 1, "gap_recovery", gap_recovery, "must lie in [0, 1]");
}

void CcpModel::project_primal(const Real* mu, int nc, Real* x) const {
  for (int k = 0; k < nc; ++k) cone::project_primal(mu[k], x + 3 * k);
}

void CcpModel::project_dual(const Real* mu, int nc, Real* x) const {
  for (int k = 0; k < nc; ++k) cone::project_dual(mu[k], x + 3 * k);
}

void CcpModel::velocity_shift(const Real*, int nc, const Real*, Real* s) const {
  for (int i = 0; i < 3 * nc; ++i) s[i] = 0;
}

void CcpModel::contact_compliance(const Real*, int nc, Real* R) const {
  options.Validate();
  for (int i = 0; i < 3 * nc; ++i) R[i] = options.compliance;
}

Real CcpModel::penetration_recovery(Real) const {
  options.Validate();
  return options.gap_recovery;
}

void CcpModel::bind_options(OptionSet& set, const std::string& prefix) {
  set.add_validator([this] { options.Validate(); });
  const Real inf = std::numeric_limits<Real>::infinity();
  set.add(prefix + "compliance", &options.compliance, "rho_c on each contact row, (m/s)/(N s) = 1/kg, > 0", 0, inf);
  set.add(prefix + "gap_recovery", &options.gap_recovery, "eta: fraction of a penetration removed per step", 0, 1);
}

void CcpModel::contact_modes(const Real* mu, int nc, const Real* lambda, const Real* sigma, const Real* step,
                             Real slip_speed, ContactMode* modes) const {
  cone_relations::modes(false, mu, nc, lambda, sigma, step, slip_speed, modes);
}

void CcpModel::contact_relations(SensitivityKind kind, const Real* mu, int nc, const ContactMode* modes, Real rho,
                                 const RelationScales& scales, const Real* lambda, const Real* sigma,
                                 ContactRelationBlock* out) const {
  cone_relations::relations(false, kind, mu, nc, modes, rho, scales, lambda, sigma, out);
}

bool CcpModel::contact_interior(SensitivityKind kind, const Real* mu, int nc, const Real* lambda,
                                const Real* sigma) const {
  return cone_relations::interior(false, kind, mu, nc, lambda, sigma);
}

void CcpModel::relaxed_start(SensitivityKind kind, const Real* mu, int nc, const ContactMode* modes, const Real* step,
                             Real rho, Real* lambda, Real* sigma) const {
  cone_relations::relaxed_start(false, kind, mu, nc, modes, step, rho, lambda, sigma);
}

void CcpModel::convex_penalty(const Real* mu, int nc, const Real* rho, const Real* r, Real* cost, Real* lambda,
                              Real* H) const {
  for (int k = 0; k < nc; ++k) {
    const int o = 3 * k;
    *cost += ccp::evaluate(mu[k], rho[o], r + o, lambda ? lambda + o : nullptr, H ? H + 9 * k : nullptr);
  }
}

void CcpModel::convex_penalty_along(const Real* mu, int nc, const Real* rho, const Real* r, const Real* s, Real a,
                                    Real* pen, Real* dpen, Real* d2pen) const {
  for (int k = 0; k < nc; ++k) {
    const int o = 3 * k;
    const Real x[3] = {r[o] + a * s[o], r[o + 1] + a * s[o + 1], r[o + 2] + a * s[o + 2]};
    Real lam[3], H[9];
    *pen += ccp::evaluate(mu[k], rho[o], x, lam, H);
    const Eigen::Map<const Vec3> sv(s + o);
    *dpen -= Eigen::Map<const Vec3>(lam).dot(sv);
    *d2pen += sv.dot(Eigen::Map<const Mat3R>(H) * sv);
  }
}

void CcpModel::convex_penalty_hessian_from_impulse(const Real* mu, int nc, const Real* rho, const Real* r,
                                                   const Real* lambda, Real* H) const {
  for (int k = 0; k < nc; ++k) {
    const int o = 3 * k;
    if (ccp::zone(mu[k], r + o) != ccp::kMiddle) continue;
    const Real rh = rho[o], m = mu[k];
    ccp::middle_hessian(m, rh, r + o, rh * (1 + m * m) * lambda[o], H + 9 * k);
  }
}

void CcpModel::convex_penalty_zones(const Real* mu, int nc, const Real* r, ContactMode* zones) const {
  for (int k = 0; k < nc; ++k) {
    const int zone = ccp::zone(mu[k], r + 3 * k);
    zones[k] = zone == ccp::kTop      ? ContactMode::Separating
               : zone == ccp::kBottom ? ContactMode::Sticking
                                      : ContactMode::Sliding;
  }
}

void CcpModel::convex_impulse_mu_derivative(const Real* mu, int nc, const Real* rho, const Real* r,
                                            const Real* lambda, Real* out) const {
  for (int k = 0; k < nc; ++k) {
    const int o = 3 * k;
    ccp::impulse_mu_derivative(mu[k], rho[o], r + o, out + o, lambda ? lambda[o] : Real(-1));
  }
}

}  // namespace contactlab
