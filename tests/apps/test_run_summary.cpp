// `contactlab run`'s closing line on stderr: present by default, gone with
// --quiet, and the --json line on stdout unchanged by it.
#include <doctest/doctest.h>

#include <string>

#include "support/cli.hpp"

using contactlab::test_cli::run_binary;
using contactlab::test_cli::run_shell;

TEST_CASE("run summary: one stderr line with steps, convergence, penetration and final positions, and --quiet drops it") {
  const auto r = run_binary("run stacked_boxes --steps 5");
  REQUIRE(r.status == 0);
  CHECK(r.output.find("contactlab run: stacked_boxes (velocity+desaxce+padmm, dt 0.001 s): 5 steps") == 0);
  CHECK(r.output.find("0 steps not converged; max penetration") != std::string::npos);
  CHECK(r.output.find("final bottom (") != std::string::npos);
  CHECK(r.output.find(", top (") != std::string::npos);
  CHECK(run_binary("run stacked_boxes --steps 5 --quiet").output.empty());
  // stdout alone is the JSON line, as before the summary existed.
  const auto js = run_shell(std::string(CONTACTLAB_BINARY) + " run stacked_boxes --steps 5 --json 2>/dev/null");
  CHECK(js.output.rfind("{\"scene\": \"stacked_boxes\"", 0) == 0);
  CHECK(js.output.find("contactlab run:") == std::string::npos);
}
