#include "contact_models/desaxce.hpp"

#include "contact_models/cone.hpp"

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

}  // namespace contactlab
