// Kamino's elementary validations and the pendulum period against their
// analytic references (studies/validation.cpp; tolerances are justified there
// and in docs/validation.md). Each quantity is checked separately so a failure
// names it.
#include <doctest/doctest.h>

#include "studies/validation.hpp"

using namespace contactlab;

namespace {
void check_all(const ValidationResult& r) {
  REQUIRE(!r.quantities.empty());
  for (const auto& q : r.quantities) {
    CAPTURE(r.name);
    CAPTURE(q.name);
    CAPTURE(q.measured);
    CAPTURE(q.reference);
    CHECK(std::isfinite(q.measured));
    CHECK(q.error <= q.tolerance);
  }
}
const PartChoice kKamino{"desaxce", "padmm", "velocity"};
}  // namespace

TEST_CASE("validation: box_ramp stick-slip time, stop time and sliding distance") {
  check_all(validate_box_ramp(kKamino));
}

TEST_CASE("validation: bouncing_ball impact times and apex heights with e = 0.8") {
  check_all(validate_bouncing_ball(kKamino));
}

TEST_CASE("validation: stacked_boxes trajectory independent of the mass ratio") {
  for (double ratio : {1.0, 100.0, 1000.0, 0.01, 0.001}) {
    CAPTURE(ratio);
    check_all(validate_stacked_boxes(kKamino, ratio));
  }
}

TEST_CASE("validation: four_bar loop residual and energy at 400 Hz and 1000 Hz") {
  check_all(validate_four_bar(kKamino, 1.0 / 400));
  check_all(validate_four_bar(kKamino, 1.0 / 1000));
}

TEST_CASE("validation: pendulum period against the exact (elliptic) period") {
  check_all(validate_pendulum(kKamino));
}

TEST_CASE("validation: elliptic K against known values") {
  CHECK(elliptic_k(0.0) == doctest::Approx(kPi / 2).epsilon(1e-15));
  // K(sin 30 deg) = 1.685750354812596 (Abramowitz & Stegun table 17.1)
  CHECK(elliptic_k(0.5) == doctest::Approx(1.685750354812596).epsilon(1e-14));
}

TEST_CASE("validation: the checks can fail (a wrong reference is caught)") {
  // Guard against a validation that passes whatever happens: the box_ramp
  // stop time of a scene whose friction has been doubled must miss the
  // reference of the original scene.
  ValidationResult r = validate_box_ramp(kKamino);
  REQUIRE(r.pass());
  ValidationQuantity q = r.quantities[2];  // total sliding distance
  q.reference *= 1.5;
  q.error = std::abs(q.measured - q.reference);
  CHECK_FALSE(q.pass());
}
