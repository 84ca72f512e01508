// Smoke test of the kim_cito study (docs/studies.md) with two arms and one
// restart of the reference (its rho ladder from zero control), on all three tasks. Certain outcomes:
//  - one forward model: the zero-control cost is the same for every arm;
//  - iLQR never ends above its start (it accepts only descending steps);
//  - the restarts' best (from zero control along a rho ladder) descends from
//    the zero-control cost; the reference is the lowest cost found by any
//    run, so every normalised cost is >= 1 and the best arm's is 1 exactly
//    unless the restarts won (bookkeeping of summary.csv);
//  - lift_off and traverse start clamped on the floor, where the exact
//    gradient of the position is zero: iLQR with it stays within 1% of its
//    start (measured: 0 and 1e-5 lower), while the central-path gradient more
//    than halves the cost;
//  - braking: the exact gradient never touches the floor (separating: no
//    sensitivity to the normal force), the central-path one brakes on it.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "studies/study.hpp"
#include "support/study_rows.hpp"
#include "support/temp_dir.hpp"

using namespace contactlab;

TEST_CASE("kim_cito: reference below every arm, exact stuck at clamped contact, central path moves") {
  test::TempDir tmp;
  StudyOptions options;
  options.out_dir = tmp / "out";
  options.trials = 1;
  options.arms = {"exact", "central_path"};
  run_study(find_study("kim_cito"), options);
  const test::StudyRows rows = test::study_output(tmp / "out", {"summary.csv", "trajectories.csv", "modes.csv"});
  for (const std::string task : {"lift_off", "traverse", "braking"}) {
    CAPTURE(task);
    const double ref = rows.get(task, "reference", "cost");
    const double restarts = rows.get(task, "restarts", "cost");
    const double start = rows.get(task, "exact", "initial_cost");
    CHECK(std::isfinite(ref));
    CHECK(ref > 0);
    CHECK(restarts < start);
    CHECK(ref <= restarts);
    CHECK(rows.get(task, "central_path", "initial_cost") == start);
    for (const std::string arm : {"exact", "central_path"}) {
      CAPTURE(arm);
      CHECK(rows.get(task, arm, "cost") <= start);
      CHECK(rows.get(task, arm, "cost") >= ref);
      CHECK(rows.get(task, arm, "normalised_cost") == doctest::Approx(rows.get(task, arm, "cost") / ref));
    }
  }
  for (const std::string task : {"lift_off", "traverse"}) {
    CAPTURE(task);
    CHECK(rows.get(task, "exact", "cost") >= 0.99 * rows.get(task, "exact", "initial_cost"));
    CHECK(rows.get(task, "central_path", "cost") < 0.5 * rows.get(task, "central_path", "initial_cost"));
  }
  CHECK(rows.get("braking", "exact", "contact_steps") == 0);
  CHECK(rows.get("braking", "central_path", "contact_steps") > 0);
  CHECK(rows.get("braking", "central_path", "cost") < 0.1 * rows.get("braking", "exact", "cost"));
}
