// Fuzz target: the STL mesh reader (io/mesh_io.hpp), binary and ASCII, on
// arbitrary bytes. A std::exception is the expected answer to bad input; a
// crash, a sanitizer report, a hang or unbounded memory is a finding.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "io/mesh_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    (void)contactlab::read_stl_bytes(bytes, "fuzz.stl");
  } catch (const std::exception&) {
  }
  return 0;
}
