// The contactlab command as a user runs it: exit codes, exact CSV headers,
// error messages naming the culprit, and no output file left by a failed run.
#include <doctest/doctest.h>

#include "support/cli.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using Result = contactlab::test_cli::CliResult;
Result run(const std::string& args) { return contactlab::test_cli::run_binary(args); }

bool exists(const std::string& path) { return std::ifstream(path).good(); }

std::string temp_path(const std::string& name) { return "/tmp/contactlab_cli_test_" + name; }

}  // namespace

TEST_CASE("cli: list prints every axis") {
  const Result r = run("list");
  CHECK(r.status == 0);
  CHECK(r.output.find("desaxce") != std::string::npos);
  CHECK(r.output.find("padmm") != std::string::npos);
  CHECK(r.output.find("velocity") != std::string::npos);
  CHECK(r.output.find("wheeled_pallet") != std::string::npos);
  CHECK(run("list solvers").output.find("padmm") != std::string::npos);
  const Result combos = run("list combos");
  CHECK(combos.status == 0);
  CHECK(combos.output.find("velocity + desaxce + padmm: ok") != std::string::npos);
  CHECK(combos.output.find("velocity + desaxce + newton: refused:") != std::string::npos);
  CHECK(run("list nonsense").status != 0);
}

TEST_CASE("cli: run writes the trajectory CSV with the exact header, one row per step per body") {
  const std::string out = temp_path("traj.csv"), stats = temp_path("stats.csv");
  std::remove(out.c_str());
  std::remove(stats.c_str());
  const Result r = run("run stacked_boxes --steps 5 --out " + out + " --stats " + stats + " --json");
  REQUIRE(r.status == 0);
  std::ifstream in(out);
  std::string header;
  std::getline(in, header);
  CHECK(header == "step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");
  int rows = 0;
  std::string line;
  while (std::getline(in, line)) ++rows;
  CHECK(rows == 6 * 2);  // steps 0..5, two bodies
  CHECK(r.output.find("\"steps\": 5") != std::string::npos);
  std::ifstream st(stats);
  std::getline(st, header);
  CHECK(header.rfind("step,time,contacts,iterations,converged,r_primal,r_dual,r_compl,r_vi", 0) == 0);
  CHECK(!exists(out + ".partial"));
}

TEST_CASE("cli: errors name the culprit, exit non-zero and leave no output file") {
  const std::string out = temp_path("should_not_exist.csv");
  std::remove(out.c_str());
  struct Case {
    std::string args, expected;
  };
  const Case cases[] = {
      {"run no_such_scene --steps 2", "no_such_scene"},
      {"run box_ramp --steps 2 --solver nope", "nope"},
      {"run box_ramp --steps 2 --contact nope", "nope"},
      {"run box_ramp --steps 2 --scheme nope", "nope"},
      {"run box_ramp --steps 2 --set solver.no_such_key=1", "solver.no_such_key"},
      {"run box_ramp --steps 2 --set solver.max_iterations=abc", "solver.max_iterations"},
      {"run box_ramp --steps 2 --set body.nobody.mass=2", "nobody"},
      {"run box_ramp --steps 2 --set body.box.mass=-1", "mass"},
      {"run box_ramp --steps 2 --ctrl nobody=1", "nobody"},
      {"run box_ramp --steps 2 --keyframe nokey", "nokey"},
      {"run box_ramp --steps 2 --dt -0.1", "dt"},
      {"run " + std::string(CONTACTLAB_TEST_DATA) + "/bad_geom_type.xml --steps 2", "bad_geom_type.xml:"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const Result r = run(c.args + " --out " + out);
    CHECK(r.status != 0);
    CHECK(r.output.find(c.expected) != std::string::npos);
    CHECK(!exists(out));
    CHECK(!exists(out + ".partial"));
  }
}

TEST_CASE("cli: --ctrl-file drives an actuator per step") {
  const std::string ctrl = temp_path("ctrl.csv"), out = temp_path("cart.csv");
  {
    std::ofstream f(ctrl);
    f << "step,slide_motor\n";
    for (int s = 0; s < 20; ++s) f << s << ",10\n";
  }
  const Result r = run("run cart_pole --steps 20 --ctrl-file " + ctrl + " --json");
  REQUIRE(r.status == 0);
  const Result still = run("run cart_pole --steps 20 --json");
  REQUIRE(still.status == 0);
  CHECK(r.output != still.output);  // the force moved the cart
  std::ofstream(ctrl) << "step,unknown_actuator\n0,1\n";
  CHECK(run("run cart_pole --steps 2 --ctrl-file " + ctrl).status != 0);
}
