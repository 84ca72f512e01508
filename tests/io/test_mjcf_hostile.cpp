// Hostile MJCF input: deep nesting, many bodies, huge and non-finite numbers,
// zero quaternions, XML entities. Each must give a clear MjcfError (or load)
// in bounded time, never crash.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "io/mjcf.hpp"

using namespace contactlab;

namespace {

std::string error_of(const std::string& xml) {
  try {
    std::vector<std::string> warnings;
    load_mjcf_string(xml, "hostile.xml", &warnings);
  } catch (const MjcfError& e) {
    return e.what();
  }
  FAIL("no MjcfError");
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("mjcf hostile: nesting 10^4 bodies deep is refused without recursion") {
  std::string xml = "<mujoco><worldbody>";
  for (int i = 0; i < 10000; ++i) xml += "<body>";
  for (int i = 0; i < 10000; ++i) xml += "</body>";
  xml += "</worldbody></mujoco>";
  const std::string what = error_of(xml);
  // tinyxml2 stops at its element depth limit (100 in tinyxml2 9) before any recursion of ours.
  CHECK(contains(what, "hostile.xml:1: "));
  CHECK(contains(what, "DEPTH"));
}

TEST_CASE("mjcf hostile: 10^5 bodies load in bounded time") {
  const int n = 100000;
  std::string xml = "<mujoco><default><geom type=\"sphere\" size=\"0.1\"/></default><worldbody>\n";
  for (int i = 0; i < n; ++i) xml += "<body pos=\"" + std::to_string(i) + " 0 0\"><geom/></body>\n";
  xml += "</worldbody></mujoco>\n";
  const auto t0 = std::chrono::steady_clock::now();
  const Model m = load_mjcf_string(xml, "many.xml", nullptr);
  const double elapsed = seconds_since(t0);
  CHECK(m.num_bodies() == n);
  CHECK(m.geoms.size() == static_cast<size_t>(n));
  CHECK(m.bodies[n - 1].pos0_W.x() == n - 1);
  // Linear work: 3.3 s in a Release build on a shared 2-core machine
  // (build/tests/contactlab_tests -tc='*10^5 bodies*'); 30 s catches a
  // quadratic step (10^10 operations), not noise.
  MESSAGE("10^5 bodies loaded in " << elapsed << " s");
  CHECK(elapsed < 30);
}

TEST_CASE("mjcf hostile: huge non-finite and degenerate values are refused at their line") {
  struct Case {
    const char* inner;
    const char* words;
  };
  const Case cases[] = {
      {"<worldbody>\n<geom type=\"sphere\" size=\"1e308\"/></worldbody>", "1e+308"},
      {"<worldbody>\n<geom type=\"sphere\" size=\"nan\"/></worldbody>", "non-finite"},
      {"<worldbody>\n<geom type=\"sphere\" size=\"1\" pos=\"inf 0 0\"/></worldbody>", "non-finite"},
      {"<worldbody>\n<body quat=\"0 0 0 0\"/></worldbody>", "zero quaternion"},
      // The same from a default class: the default's line.
      {"<default>\n<geom size=\"nan\"/></default>\n<worldbody><geom type=\"sphere\"/></worldbody>", "non-finite"},
  };
  for (const Case& c : cases) {
    INFO(c.inner);
    const std::string what = error_of(std::string("<mujoco>\n") + c.inner + "\n</mujoco>");
    CHECK(contains(what, "hostile.xml:3: "));  // line 1 <mujoco>, line 2 the section
    CHECK(contains(what, c.words));
  }
}

TEST_CASE("mjcf hostile: XML entities are never expanded") {
  // A "billion laughs" document: tinyxml2 does not read DTD entity
  // declarations, so &lol9; stays unexpanded text and the number is refused.
  std::string xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE mujoco [\n<!ENTITY lol \"lol\">\n";
  for (int i = 1; i <= 9; ++i) {
    xml += "<!ENTITY lol" + std::to_string(i) + " \"";
    for (int k = 0; k < 10; ++k) xml += "&lol" + (i > 1 ? std::to_string(i - 1) : std::string()) + ";";
    xml += "\">\n";
  }
  xml += "]>\n<mujoco><worldbody>\n<geom type=\"sphere\" size=\"&lol9;\"/></worldbody></mujoco>\n";
  const auto t0 = std::chrono::steady_clock::now();
  const std::string what = error_of(xml);
  CHECK(seconds_since(t0) < 5);  // 10^9 expansions would take far longer
  CHECK(contains(what, "hostile.xml:15: "));
  CHECK(contains(what, "is not a number"));
}
