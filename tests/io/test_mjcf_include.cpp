// MJCF <include>: splicing, MuJoCo's path rule (relative to the main file),
// file and line of every message, and the include errors.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "io/mjcf.hpp"

#ifndef CONTACTLAB_TEST_DATA
#define CONTACTLAB_TEST_DATA "tests/data"
#endif

using namespace contactlab;

namespace {

const std::string kDir = std::string(CONTACTLAB_TEST_DATA) + "/mjcf/include/";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string include_error(const std::string& file) {
  REQUIRE(std::filesystem::exists(kDir + file));
  try {
    std::vector<std::string> warnings;
    load_mjcf_file(kDir + file, &warnings);
  } catch (const MjcfError& e) {
    return e.what();
  }
  FAIL("no MjcfError for " << file);
  return "";
}

}  // namespace

TEST_CASE("mjcf include: files spliced at top level in worldbody and in a body") {
  std::vector<std::string> warnings;
  const Model m = load_mjcf_file(kDir + "main.xml", &warnings);
  CHECK(m.name == "include_main");
  REQUIRE(m.find_body("box") >= 0);  // from parts/box.xml, included by parts/floor.xml
  REQUIRE(m.find_body("ball") >= 0);
  REQUIRE(m.find_geom("floor") >= 0);
  REQUIRE(m.find_geom("ball") >= 0);
  // Document order as if the files were pasted in: floor (world geom), box, ball.
  CHECK(m.find_geom("floor") == 0);
  CHECK(m.find_geom("box") == 1);
  CHECK(m.find_geom("ball") == 2);
  // The included <default> (density 500) applies to the included geom:
  // m = 4/3 pi r^3 rho, r = 0.1, rho = 500 (exact up to rounding: 1e-12 relative).
  const Real expected = 4.0 / 3.0 * M_PI * 0.001 * 500;
  CHECK(m.bodies[m.find_body("ball")].mass == doctest::Approx(expected).epsilon(1e-12));
  CHECK(m.bodies[m.find_body("box")].pos0_W.isApprox(Vec3(1, 0, 0.1)));
  // The notice names the included file and its own line (parts/box.xml line 4).
  bool found = false;
  for (const std::string& w : warnings) found = found || (contains(w, "parts/box.xml:4: ") && contains(w, "'solref'"));
  CHECK(found);
}

TEST_CASE("mjcf include: an error inside an included file names that file and line") {
  const std::string what = include_error("bad_main.xml");
  CHECK(contains(what, "parts/bad_geom.xml:3: "));
  CHECK(contains(what, "size[0] must be > 0"));
}

TEST_CASE("mjcf include: malformed included XML names the included file") {
  const std::string what = include_error("malformed_include.xml");
  CHECK(contains(what, "parts/malformed.xml:"));
  CHECK(contains(what, "XML parse error"));
}

TEST_CASE("mjcf include: cycles repeats missing and empty files are errors") {
  std::string what = include_error("cycle_a.xml");
  CHECK(contains(what, "cycle_b.xml:3: "));
  CHECK(contains(what, "include cycle"));
  CHECK(contains(what, "cycle_a.xml -> "));

  what = include_error("twice.xml");
  CHECK(contains(what, "twice.xml:3: "));
  CHECK(contains(what, "included more than once"));

  what = include_error("missing.xml");
  CHECK(contains(what, "missing.xml:4: "));
  CHECK(contains(what, "cannot open included file 'parts/no_such_file.xml'"));

  what = include_error("empty_include.xml");
  CHECK(contains(what, "parts/empty.xml:1: "));
  CHECK(contains(what, "nothing to include"));
}

TEST_CASE("mjcf include: strings resolve includes against their label's directory") {
  const std::string xml =
      "<mujoco>\n"
      "  <worldbody>\n"
      "    <include file=\"parts/ball_geom.xml\"/>\n"
      "    <geom name=\"after\" type=\"sphere\" size=\"0.2\"/>\n"
      "    <geom type=\"sphere\" size=\"-0.2\"/>\n"
      "  </worldbody>\n"
      "</mujoco>\n";
  try {
    load_mjcf_string(xml, kDir + "inline.xml", nullptr);
    FAIL("expected MjcfError");
  } catch (const MjcfError& e) {
    // Line 5 of the string, whatever the included file added in between.
    CHECK(e.file() == kDir + "inline.xml");
    CHECK(e.line() == 5);
  }
  const std::string good = xml.substr(0, xml.find("    <geom type")) + "  </worldbody>\n</mujoco>\n";
  const Model m = load_mjcf_string(good, kDir + "inline.xml", nullptr);
  CHECK(m.find_geom("ball") == 0);
  CHECK(m.find_geom("after") == 1);
}

TEST_CASE("mjcf include: include needs a file attribute and no content") {
  const auto error = [](const std::string& inner) {
    try {
      load_mjcf_string("<mujoco>\n" + inner + "\n</mujoco>", kDir + "inline.xml", nullptr);
    } catch (const MjcfError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(contains(error("<include/>"), "inline.xml:2: <include> needs attribute 'file'"));
  CHECK(contains(error("<include file=\"parts/defaults.xml\"><geom/></include>"), "must be empty"));
  CHECK(contains(error("<include file=\"parts/defaults.xml\" extra=\"1\"/>"), "unknown attribute 'extra'"));
}

TEST_CASE("mjcf include: dm_control suite files get past their includes") {
  const std::string suite = std::string(CONTACTLAB_MJCF_DIR) + "/dm_control/dm_control/suite/";
  // The corpus is a required test input (CMake cache CONTACTLAB_MJCF_DIR): a missing file fails.
  REQUIRE_MESSAGE(std::filesystem::exists(suite + "cartpole.xml"), "missing corpus " << suite);
  int checked = 0;
  for (const char* name : {"cartpole.xml", "pendulum.xml", "acrobot.xml", "hopper.xml", "walker.xml", "cheetah.xml"}) {
    INFO(name);
    std::vector<std::string> warnings;
    try {
      load_mjcf_file(suite + name, &warnings);
    } catch (const MjcfError& e) {
      // Whatever stops the load, it is not the include and it is not in a missing file.
      CHECK(!contains(e.what(), "include"));
      CHECK(!contains(e.what(), "cannot open"));
    }
    ++checked;
  }
  CHECK(checked == 6);
}
