#include "core/sensitivity.hpp"

#include <cmath>
#include <stdexcept>

#include "core/contact_model.hpp"
#include "core/options.hpp"

namespace contactlab {

const char* to_string(SensitivityKind kind) {
  switch (kind) {
    case SensitivityKind::Exact:
      return "exact";
    case SensitivityKind::Signorini:
      return "signorini";
    case SensitivityKind::CentralPath:
      return "central_path";
    case SensitivityKind::FrozenW:
      return "frozen_w";
    case SensitivityKind::Custom:
      return "custom";
  }
  return "?";
}

SensitivityKind parse_sensitivity_kind(const std::string& name) {
  for (SensitivityKind k :
       {SensitivityKind::Exact, SensitivityKind::Signorini, SensitivityKind::CentralPath, SensitivityKind::FrozenW})
    if (name == to_string(k)) return k;
  throw std::invalid_argument("unknown sensitivity kind '" + name + "' (exact, signorini, central_path, frozen_w)");
}

bool is_relaxed(SensitivityKind kind) {
  return kind == SensitivityKind::Signorini || kind == SensitivityKind::CentralPath;
}

bool is_relaxed(const SensitivityOptions& options) {
  if (options.kind == SensitivityKind::Custom) return options.custom && options.custom->relaxed();
  return is_relaxed(options.kind);
}

std::string kind_name(const SensitivityOptions& options) {
  if (options.kind == SensitivityKind::Custom && options.custom) return options.custom->name();
  return to_string(options.kind);
}

const char* to_string(ContactMode mode) {
  switch (mode) {
    case ContactMode::Separating:
      return "separating";
    case ContactMode::Sticking:
      return "sticking";
    case ContactMode::Sliding:
      return "sliding";
  }
  return "?";
}

void SensitivityOptions::Validate() const {
  const OptionCheck require("SensitivityOptions");
  require(rho > 0 && std::isfinite(rho), "rho", rho, "must be finite and > 0");
  require(std::isfinite(delta), "delta", delta, "must be finite");
  require(newton_iterations >= 1, "newton_iterations", newton_iterations, "must be >= 1");
  require(newton_tolerance > 0 && newton_tolerance < 1, "newton_tolerance", newton_tolerance, "must lie in (0, 1)");
  require(continuation_stages >= 0, "continuation_stages", continuation_stages, "must be >= 0");
  require(continuation_factor > 1 && std::isfinite(continuation_factor), "continuation_factor", continuation_factor,
          "must be finite and > 1");
  require(slip_threshold >= 0 && std::isfinite(slip_threshold), "slip_threshold", slip_threshold,
          "must be finite and >= 0");
  require(singular_tolerance >= 0 && singular_tolerance < 1, "singular_tolerance", singular_tolerance,
          "must lie in [0, 1)");
  require(kind != SensitivityKind::Custom || custom != nullptr, "custom", "null", "must be set when kind is custom");
}

bool CustomSensitivity::contact_interior(const ContactModel& law, const Real* mu, int nc, const Real* lambda,
                                         const Real* sigma) const {
  return law.contact_interior(SensitivityKind::Signorini, mu, nc, lambda, sigma);
}

void CustomSensitivity::relaxed_start(const ContactModel& law, const Real* mu, int nc, const ContactMode* modes,
                                      const Real* step, Real rho, Real* lambda, Real* sigma) const {
  law.relaxed_start(SensitivityKind::CentralPath, mu, nc, modes, step, rho, lambda, sigma);
}

}  // namespace contactlab
