// Runs the contactlab binary as a user would (tests of the command line).
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <initializer_list>
#include <string>

namespace contactlab {
namespace test_cli {

struct CliResult {
  int status;
  std::string output;  // stdout and stderr together
};

// `args` are appended to the binary's path (CONTACTLAB_BINARY, set by CMake).
inline CliResult run_binary(const std::string& args) {
  const std::string cmd = std::string(CONTACTLAB_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int raw = pclose(pipe);
  // A sanitizer report of the child (scripts/sanitize.sh) fails the test that
  // ran it, whatever the test checks of its status and output.
  for (const char* report : {"runtime error: ", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer"})
    CHECK_MESSAGE(out.find(report) == std::string::npos, "contactlab " << args << ":\n" << out);
  return {WEXITSTATUS(raw), out};
}

}  // namespace test_cli
}  // namespace contactlab
