// `contactlab solve` and `contactlab bench-problems` as a user runs them: the
// exact CSV headers and JSON keys, exit codes, and no output file left by a
// run that failed on bad input.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/cli.hpp"

namespace {

namespace fs = std::filesystem;
using Result = contactlab::test_cli::CliResult;
Result run(const std::string& args) { return contactlab::test_cli::run_binary(args); }

std::string problem(const std::string& name) {
  const std::string path = std::string(CONTACTLAB_FC3D_DIR) + "/" + name;
  REQUIRE_MESSAGE(fs::exists(path), "missing test problem " << path);
  return path;
}

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("contactlab_solve_cli_" + name)).string();
}

int count_lines(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) ++n;
  return n;
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

TEST_CASE("solve cli: JSON keys, the solution CSV header and one row per contact") {
  const std::string out = temp_path("rover.csv");
  fs::remove(out);
  const Result r = run("solve " + problem("Rover4144.dat") + " --solver pgs --json --out " + out);
  REQUIRE(r.status == 0);
  for (const char* key : {"\"status\": \"converged\"", "\"iterations\":", "\"time\":", "\"natural_map\":",
                          "\"siconos_error\":", "\"natural_map_relative\":", "\"r_primal\":", "\"r_dual\":", "\"r_compl\":", "\"contacts\": 4"})
    CHECK_MESSAGE(r.output.find(key) != std::string::npos, key);
  CHECK(first_line(out) == "contact,rn,rt1,rt2,un,ut1,ut2");
  CHECK(count_lines(out) == 1 + 4);
}

TEST_CASE("solve cli: the default solver, newton with its law, and every --set reaching the solver") {
  CHECK(run("solve " + problem("FrictionContact3D_1c.dat")).status == 0);
  const Result n = run("solve " + problem("NESpheres_10_1.dat") + " --solver newton --json");
  CHECK(n.status == 0);
  CHECK(n.output.find("\"contact\": \"fischer_burmeister\"") != std::string::npos);
  // Two PGS sweeps cannot reach 1e-6: exit 1, status not_converged, the iterate still written.
  const std::string out = temp_path("short.csv");
  fs::remove(out);
  const Result s = run("solve " + problem("NESpheres_10_1.dat") + " --solver pgs --set solver.max_iterations=2 --json --out " + out);
  CHECK(s.status == 1);
  CHECK(s.output.find("\"status\": \"not_converged\"") != std::string::npos);
  CHECK(fs::exists(out));
}

TEST_CASE("solve cli: bad input exits non-zero, names the culprit and writes nothing") {
  const std::string out = temp_path("bad.csv");
  fs::remove(out);
  const std::string bad = temp_path("bad.dat");
  std::ofstream(bad) << "3\n1\n0\n3\n3\n3 3\n1 2 x\n";
  Result r = run("solve " + bad + " --out " + out);
  CHECK(r.status != 0);
  CHECK(r.output.find(bad + ":7:") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  r = run("solve " + problem("Rover4144.dat") + " --solver convex_newton --out " + out);
  CHECK(r.status != 0);
  CHECK(r.output.find("Delassus") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  r = run("solve " + problem("Rover4144.dat") + " --set solver.nope=1");
  CHECK(r.status != 0);
  CHECK(r.output.find("solver.nope") != std::string::npos);
  CHECK(run("solve").status == 2);
  CHECK(run("solve " + problem("Rover4144.dat") + " --tol -1").status != 0);
}

TEST_CASE("bench-problems cli: results and profile CSVs with their headers, one row per solver and problem") {
  const std::string dir = temp_path("problems"), out = temp_path("bench");
  fs::remove_all(dir);
  fs::remove_all(out);
  fs::create_directories(dir);
  for (const char* name : {"FrictionContact3D_1c.dat", "Rover4396.dat", "NESpheres_10_1.dat"})
    fs::copy_file(problem(name), dir + "/" + name);
  const Result r = run("bench-problems " + dir + " --solvers padmm,pgs,newton --out " + out);
  REQUIRE(r.status == 0);
  CHECK(first_line(out + "/results.csv") == "problem,contacts,solver,status,iterations,time_s,relative_error,siconos_error");
  CHECK(count_lines(out + "/results.csv") == 1 + 3 * 3);
  CHECK(first_line(out + "/profile.csv") == "tau,padmm,pgs,newton");
  CHECK(fs::exists(out + "/performance_profile.gp"));
  CHECK(r.output.find("3/3") != std::string::npos);
  std::ifstream in(out + "/results.csv");
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) CHECK_MESSAGE(line.find(",solved,") != std::string::npos, line);
}

TEST_CASE("bench-problems cli: a hard time limit ends a long solve and is reported as such") {
  const std::string out = temp_path("bench_limit");
  fs::remove_all(out);
  // Matrix-free PADMM on 276 capsules takes seconds (docs/benchmarks.md); 50 ms cannot be enough.
  const Result r = run("bench-problems " + problem("Capsules-i100-1090.dat") +
                       " --solvers padmm_matrix_free --time-limit 0.05 --out " + out);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("time_limit") != std::string::npos);
  std::ifstream in(out + "/results.csv");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  CHECK(row.find(",time_limit,") != std::string::npos);
}

TEST_CASE("bench-problems cli: unknown solvers, peers and paths are refused") {
  CHECK(run("bench-problems " + std::string(CONTACTLAB_FC3D_DIR) + " --solvers padmm,nosuch").output.find("nosuch") !=
        std::string::npos);
  CHECK(run("bench-problems " + std::string(CONTACTLAB_FC3D_DIR) + " --peer nobody").status != 0);
  CHECK(run("bench-problems /nonexistent/dir").status != 0);
  CHECK(run("bench-problems").status != 0);
}
