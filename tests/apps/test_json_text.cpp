// The JSON the commands print (apps/json_text.hpp): a name holding quotes,
// backslashes or control characters stays one valid string literal. `grad`
// once escaped only quotes and backslashes, so a tab in a body name went out raw.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "support/cli.hpp"
#include "support/temp_dir.hpp"

using namespace contactlab;

TEST_CASE("json text: grad and run --json escape a tab in a body name as u0009") {
  test::TempDir tmp;
  const std::string file = tmp / "tab.xml";
  std::ofstream(file) << R"(<mujoco>
  <worldbody>
    <body name="a&#9;b" pos="0 0 1">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="1"/>
    </body>
    <body name="c" pos="1 0 1">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="1"/>
    </body>
  </worldbody>
</mujoco>
)";
  // The loss names the other body (a loss's text drops blanks); printf makes
  // the tab, as /bin/sh has no $'\t'.
  const auto g =
      test_cli::run_binary("grad " + file + " --steps 2 --loss final:c.pz --wrt \"$(printf 'init:a\\tb.vz')\"");
  CHECK_MESSAGE(g.status == 0, g.output);
  CHECK_MESSAGE(g.output.find("\"init:a\\u0009b.vz\": ") != std::string::npos, g.output);
  const auto r = test_cli::run_binary("run " + file + " --steps 2 --json");
  CHECK_MESSAGE(r.status == 0, r.output);
  CHECK_MESSAGE(r.output.find("\"a\\u0009b\": [") != std::string::npos, r.output);
}
