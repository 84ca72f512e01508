// Smoke test of the kim_sensitivity study at its short scale (docs/studies.md):
// the numbers it reports against what the physics of one contact of a unit
// point mass makes certain (A = I, mu 0.8, b = (b_N, 0.5, 0)):
//  - exact: d lambda_n/d b_N is exactly 0 in separation, and every component
//    matches the mode-wise closed form off the mode boundaries;
//  - central_path and signorini (rho 0.3): non-zero in separation;
//    central_path continuous (adjacent b_N 0.01 apart differ by far less than
//    exact's unit jump; measured 0.0058). Signorini falls back to exact in
//    part of the sliding range (measured 48 of 601 points), reported, not checked;
//  - delta_offset: the relaxed point equals the closed form of
//    lambda_N sigma_N = rho, sigma_N = lambda_N + b_N + delta (b_T = 0), and
//    the transition of d sigma_N/d b_N sits at b_N = -delta;
//  - newton: every central_path evaluation reaches a relaxed point.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "studies/study.hpp"
#include "support/study_rows.hpp"
#include "support/temp_dir.hpp"

using namespace contactlab;

TEST_CASE("kim_sensitivity: exact is zero in separation, the relaxed kinds are smooth and match the closed form") {
  test::TempDir tmp;
  StudyOptions options;
  options.out_dir = tmp / "out";
  options.trials = 200;
  run_study(find_study("kim_sensitivity"), options);
  const test::StudyRows rows =
      test::study_output(tmp / "out", {"summary.csv", "sweep.csv", "delta.csv", "newton_iterations.csv"});

  // Exact: zero in separation (not small: zero), the closed form elsewhere
  // (PGS to 1e-13; the map is linear within a mode).
  CHECK(rows.get("sweep", "exact", "separation_max_abs_dlambda_n") == 0);
  CHECK(rows.get("sweep", "exact", "max_deviation_from_exact_closed_form") < 1e-8);
  CHECK(rows.get("sweep", "exact", "max_jump") > 0.99);  // the unit jump at b_N = 0
  CHECK(rows.get("sweep", "central_path", "fallbacks") == 0);
  CHECK(rows.get("sweep", "central_path", "max_jump") < 0.05);
  CHECK(rows.get("newton", "central_path", "success_rate") == 1);
  for (const std::string arm : {"central_path", "signorini"}) {
    CAPTURE(arm);
    CHECK(rows.get("sweep", arm, "separation_min_abs_dlambda_n") > 1e-3);
    // Closed form to the Newton tolerance (1e-12 relative), at every b_N and delta.
    CHECK(rows.get("delta_offset", arm, "max_error_vs_closed_form") < 1e-9);
    CHECK(rows.get("delta_offset", arm, "fallbacks") == 0);
    for (const std::string d : {"0", "0.25", "0.5", "1"}) {
      CAPTURE(d);
      // d sigma_N/d b_N = 1/2 exactly at b_N + delta = 0; linear interpolation
      // on a 0.01 grid of a curve of curvature O(1/sqrt(rho)) errs < 1e-3.
      CHECK(std::abs(rows.get("delta_offset", arm, "transition_b_n_delta" + d) + std::stod(d)) < 1e-3);
    }
    CHECK(rows.get("newton", arm, "evaluations") == 601 + 200);
  }
  // Fig. 4(a): a larger delta moves the relaxed point at b_N = 0 to lower
  // lambda_N and higher sigma_N.
  CHECK(rows.get("delta_offset", "central_path", "lambda_n_at_b0_delta1") <
        rows.get("delta_offset", "central_path", "lambda_n_at_b0_delta0"));
  CHECK(rows.get("delta_offset", "central_path", "sigma_n_at_b0_delta1") >
        rows.get("delta_offset", "central_path", "sigma_n_at_b0_delta0"));
}
