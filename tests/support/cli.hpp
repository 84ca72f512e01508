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

// Runs a shell command line; returns its raw wait status (pclose) and what it
// wrote on the pipe (its stdout, and stderr where the line redirects it).
struct ShellResult {
  int raw_status;
  std::string output;
};

inline ShellResult run_shell(const std::string& cmd) {
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  return {pclose(pipe), out};
}

// `args` are appended to the binary's path (CONTACTLAB_BINARY, set by CMake).
inline CliResult run_binary(const std::string& args) {
  const ShellResult r = run_shell(std::string(CONTACTLAB_BINARY) + " " + args + " 2>&1");
  const int raw = r.raw_status;
  const std::string& out = r.output;
  // A sanitizer report of the child (scripts/sanitize.sh) fails the test that
  // ran it, whatever the test checks of its status and output.
  for (const char* report : {"runtime error: ", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer"})
    CHECK_MESSAGE(out.find(report) == std::string::npos, "contactlab " << args << ":\n" << out);
  return {WEXITSTATUS(raw), out};
}

}  // namespace test_cli
}  // namespace contactlab
