#include "contact_models/central_path.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "contact_models/cone.hpp"
#include "contact_models/soc_smoothing.hpp"

namespace contactlab {

void CentralPathOptions::Validate() const {
  if (rho >= 0 && std::isfinite(rho)) return;
  std::ostringstream s;
  s << "CentralPathOptions.rho must be finite and >= 0 (got " << rho << ")";
  throw std::invalid_argument(s.str());
}

void CentralPathModel::project_primal(const Real* mu, int nc, Real* x) const {
  options.Validate();
  for (int k = 0; k < nc; ++k) soc_smoothing::project_primal(mu[k], options.rho, x + 3 * k);
}

void CentralPathModel::project_primal_step(const Real* mu, int nc, Real step, Real* x) const {
  options.Validate();
  if (!(step > 0 && std::isfinite(step))) {
    std::ostringstream s;
    s << "CentralPathModel::project_primal_step: step must be finite and > 0 (got " << step << ")";
    throw std::invalid_argument(s.str());
  }
  for (int k = 0; k < nc; ++k) soc_smoothing::project_primal(mu[k], options.rho * step, x + 3 * k);
}

ContactKernel CentralPathModel::contact_kernel() const {
  options.Validate();
  return {ContactKernel::Kind::CentralPath, options.rho, this};
}

void CentralPathModel::project_dual(const Real* mu, int nc, Real* x) const {
  options.Validate();
  for (int k = 0; k < nc; ++k) soc_smoothing::project_dual(mu[k], options.rho, x + 3 * k);
}

void CentralPathModel::forward_sensitivity(SensitivityOptions& sensitivity) const {
  if (!(options.rho > 0)) return;
  sensitivity.kind = SensitivityKind::CentralPath;
  sensitivity.rho = options.rho;
}

void CentralPathModel::bind_options(OptionSet& set, const std::string& prefix) {
  set.add_validator([this] { options.Validate(); });
  set.add(prefix + "rho", &options.rho,
          "central-path parameter of the unit-step relation lambda^T sigma^ = rho, J = N s m/s, >= 0 (0: de Saxce)",
          0, std::numeric_limits<Real>::infinity());
}

}  // namespace contactlab
