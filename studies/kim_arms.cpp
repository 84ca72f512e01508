#include "studies/kim_arms.hpp"

#include <cmath>
#include <stdexcept>

namespace contactlab {

namespace {

// X of PREFIX_rhoX, or throws.
Real rho_suffix(const std::string& arm, const std::string& prefix) {
  const std::string text = arm.substr(prefix.size());
  size_t used = 0;
  Real rho = 0;
  try {
    rho = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !std::isfinite(rho) || !(rho > 0))
    throw std::invalid_argument("arm '" + arm + "': rho must be a positive number after '" + prefix + "'");
  return rho;
}

}  // namespace

KimArm parse_kim_arm(const std::string& arm, Real default_rho) {
  KimArm a;
  a.name = arm;
  if (arm == "exact") return a;
  if (arm == "signorini" || arm == "central_path") {
    a.kind = arm == "signorini" ? SensitivityKind::Signorini : SensitivityKind::CentralPath;
    a.rho = default_rho;
    return a;
  }
  for (const char* kind : {"central_path", "signorini"}) {
    const std::string prefix = std::string(kind) + "_rho";
    if (arm.rfind(prefix, 0) == 0) {
      a.kind = parse_sensitivity_kind(kind);
      a.rho = rho_suffix(arm, prefix);
      return a;
    }
  }
  throw std::invalid_argument("arm '" + arm +
                              "': expected exact, signorini, central_path, central_path_rhoX or signorini_rhoX");
}

std::string check_kim_rho_arm(const std::string& arm) {
  if (arm.rfind("central_path_rho", 0) != 0 && arm.rfind("signorini_rho", 0) != 0)
    return "expected central_path_rhoX or signorini_rhoX (X > 0, e.g. central_path_rho1e-2)";
  try {
    parse_kim_arm(arm, 1);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

SensitivityOptions kim_sensitivity_options(const KimArm& arm, SensitivityOptions base) {
  base.kind = arm.kind;
  if (arm.rho > 0) base.rho = arm.rho;
  return base;
}

}  // namespace contactlab
