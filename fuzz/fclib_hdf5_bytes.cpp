// Fuzz target: the FCLib .hdf5 reader (io/fclib_io.hpp) on raw bytes. The
// input is handed to read_fclib_hdf5 as a file in /dev/shm
// (fuzz/input_file.hpp), so HDF5's own parser of the file format (Debian's
// libhdf5, not instrumented for coverage) runs on it first. Debian 12's
// libhdf5 1.10.8 crashes on some corrupted files within seconds of fuzzing
// (docs/reliability.md), so this target is run by hand, not in CI;
// fclib_hdf5.cpp fuzzes our reader's checks with valid HDF5 files. A
// std::exception is the expected answer to bad input; a crash, a sanitizer
// report, a hang or unbounded memory is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>

#include "fuzz/input_file.hpp"
#include "io/fclib_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static contactlab::fuzz::InputFile file(".hdf5");
  file.assign(data, size);
  try {
    const contactlab::FrictionContactProblem problem = contactlab::read_fclib_hdf5(file.path());
    (void)problem.to_constraint_problem();
  } catch (const std::exception&) {
  }
  return 0;
}
