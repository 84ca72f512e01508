#include "contact_models/desaxce.hpp"

#include "contact_models/cone.hpp"
#include "contact_models/cone_relations.hpp"

namespace contactlab {

void DeSaxceCones::project_primal(const Real* mu, int nc, Real* x) const {
  for (int k = 0; k < nc; ++k) cone::project_primal(mu[k], x + 3 * k);
}

void DeSaxceCones::project_dual(const Real* mu, int nc, Real* x) const {
  for (int k = 0; k < nc; ++k) cone::project_dual(mu[k], x + 3 * k);
}

void DeSaxceCones::velocity_shift(const Real* mu, int nc, const Real* v, Real* s) const {
  for (int k = 0; k < nc; ++k) cone::desaxce_shift(mu[k], v + 3 * k, s + 3 * k);
}

void DeSaxceCones::contact_compliance(const Real*, int nc, Real* R) const {
  for (int i = 0; i < 3 * nc; ++i) R[i] = 0;
}

void DeSaxceCones::contact_modes(const Real* mu, int nc, const Real* lambda, const Real* sigma, const Real* step,
                                 Real slip_speed, ContactMode* modes) const {
  cone_relations::modes(true, mu, nc, lambda, sigma, step, slip_speed, modes);
}

void DeSaxceCones::contact_relations(SensitivityKind kind, const Real* mu, int nc, const ContactMode* modes, Real rho,
                                     const RelationScales& scales, const Real* lambda, const Real* sigma,
                                     ContactRelationBlock* out) const {
  cone_relations::relations(true, kind, mu, nc, modes, rho, scales, lambda, sigma, out);
}

bool DeSaxceCones::contact_interior(SensitivityKind kind, const Real* mu, int nc, const Real* lambda,
                                    const Real* sigma) const {
  return cone_relations::interior(true, kind, mu, nc, lambda, sigma);
}

void DeSaxceCones::relaxed_start(SensitivityKind kind, const Real* mu, int nc, const ContactMode* modes,
                                 const Real* step, Real rho, Real* lambda, Real* sigma) const {
  cone_relations::relaxed_start(true, kind, mu, nc, modes, step, rho, lambda, sigma);
}

}  // namespace contactlab
