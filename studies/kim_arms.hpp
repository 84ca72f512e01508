// The gradient arms of the Kim et al. studies: a sensitivity kind and its rho.
//   exact, signorini, central_path      rho = the study's default
//   central_path_rhoX, signorini_rhoX   rho = X (a positive number, e.g. 1e-2)
#pragma once

#include <string>

#include "core/sensitivity.hpp"

namespace contactlab {

struct KimArm {
  std::string name;
  SensitivityKind kind = SensitivityKind::Exact;
  Real rho = 0;  // 0 for exact
};

// Throws std::invalid_argument saying what an arm name must look like.
KimArm parse_kim_arm(const std::string& arm, Real default_rho);
// "" when parse_kim_arm accepts `arm` as one of the rhoX variants, else why not
// (StudyDefinition::accepts_extra_arm).
std::string check_kim_rho_arm(const std::string& arm);
// The sensitivity options of an arm (delta and the Newton settings as given).
SensitivityOptions kim_sensitivity_options(const KimArm& arm, SensitivityOptions base = {});

}  // namespace contactlab
