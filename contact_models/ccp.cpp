#include "contact_models/ccp.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "contact_models/cone.hpp"
#include "contact_models/cone_relations.hpp"

namespace contactlab {

namespace {

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

}  // namespace contactlab
