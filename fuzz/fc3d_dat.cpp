// Fuzz target: the Siconos .dat frictional-contact reader (io/fc3d_io.hpp).
// The input is handed to read_siconos_dat as a file in /dev/shm (fuzz/input_file.hpp). A
// std::exception is the expected answer to bad input; a crash, a sanitizer
// report, a hang (-timeout) or unbounded memory (-rss_limit_mb) is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>

#include "fuzz/input_file.hpp"
#include "io/fc3d_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static contactlab::fuzz::InputFile file(".dat");
  file.assign(data, size);
  try {
    const contactlab::FrictionContactProblem problem = contactlab::read_siconos_dat(file.path());
    // What a solver would do first with it: the ConstraintProblem (checks sizes).
    (void)problem.to_constraint_problem();
  } catch (const std::exception&) {
  }
  return 0;
}
