// The arm names of the Kim et al. studies (studies/kim_arms.hpp): each maps to
// its sensitivity kind and rho; a bad name or rho is refused naming the arm.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "studies/kim_arms.hpp"
#include "studies/study.hpp"

using namespace contactlab;

TEST_CASE("kim arms: names map to kind and rho, bad ones are refused with the arm named") {
  CHECK(parse_kim_arm("exact", 0.3).kind == SensitivityKind::Exact);
  CHECK(parse_kim_arm("exact", 0.3).rho == 0);
  CHECK(parse_kim_arm("central_path", 0.3).kind == SensitivityKind::CentralPath);
  CHECK(parse_kim_arm("central_path", 0.3).rho == 0.3);
  CHECK(parse_kim_arm("signorini", 0.3).kind == SensitivityKind::Signorini);
  CHECK(parse_kim_arm("central_path_rho1e-2", 0.3).rho == 1e-2);
  CHECK(parse_kim_arm("signorini_rho0.5", 0.3).kind == SensitivityKind::Signorini);
  CHECK(parse_kim_arm("signorini_rho0.5", 0.3).rho == 0.5);
  for (const std::string bad : {"central_path_rho", "central_path_rho-1", "central_path_rho0", "central_path_rho1x",
                                "central_path_rhonan", "frozen_w", "Exact"}) {
    CAPTURE(bad);
    const std::string named = "'" + bad + "'";
    CHECK_THROWS_WITH_AS(parse_kim_arm(bad, 0.3), doctest::Contains(named.c_str()), std::invalid_argument);
    CHECK(!check_kim_rho_arm(bad).empty());
  }
  CHECK(check_kim_rho_arm("central_path_rho1e-3").empty());
  // Through the framework: an unknown arm is refused before anything runs.
  StudyOptions options;
  options.out_dir = "unused_kim_dir";
  options.arms = {"central_path_rho-1"};
  CHECK_THROWS_AS(run_study(find_study("kim_cito"), options), std::invalid_argument);
  CHECK_THROWS_AS(run_study(find_study("kim_sensitivity"), options), std::invalid_argument);
}
