// Fuzz target: the MJCF reader (io/mjcf.hpp) on arbitrary bytes.
//
// load_mjcf_string is the reader load_mjcf_file uses after reading the file.
// A std::exception (MjcfError for malformed models) is the expected answer to
// bad input; a crash, a sanitizer report, a hang (-timeout) or unbounded
// memory (-rss_limit_mb) is a finding. Loading only: stepping a loaded model
// would link every layer into the fuzz build (see docs/testing.md, Fuzzing).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "io/mjcf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> warnings;  // kept off stderr
  // <replicate> turns a few bytes into a model of any size, and a large model
  // is slow to load, not a finding: expansion is bounded to 256 KiB of XML
  // here (a few thousand bodies, well under -timeout in the sanitized build;
  // the 10^5-body load is a test of its own).
  contactlab::MjcfLoadOptions options;
  options.max_expanded_bytes = size_t(1) << 18;
  try {
    const contactlab::Model model = contactlab::load_mjcf_string(xml, "fuzz.xml", options, &warnings);
    (void)model;
  } catch (const std::exception&) {
  }
  return 0;
}
