// The fuzzers' inputs as regression tests (docs/testing.md, Fuzzing): every
// file under tests/data/fuzz_regressions/TARGET/ (inputs scripts/fuzz.sh
// found crashing) and fuzz/corpus/TARGET/ (the committed seeds) goes through
// the reader its fuzz target calls (fuzz/TARGET.cpp), read from the file
// itself. The only requirement is the issue's: bad input is refused with a
// std::exception whose message names the file, never a crash. Seeds named
// bad_* or truncated* are known-bad and must be refused; the other seeds are
// valid and must load.
//
// tests/data/fuzz_regressions/known_findings.txt lists inputs that still
// crash, each with its finding (docs/reliability.md, Fuzzing): they are
// reported and not run. When a finding is fixed, delete its line: the input
// then runs like the others.
#include <doctest/doctest.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "io/fc3d_io.hpp"
#include "io/fclib_io.hpp"
#include "io/mesh_io.hpp"
#include "io/mjcf.hpp"

#ifndef CONTACTLAB_TEST_DATA
#define CONTACTLAB_TEST_DATA "tests/data"
#endif
#ifndef CONTACTLAB_FUZZ_CORPUS
#define CONTACTLAB_FUZZ_CORPUS "fuzz/corpus"
#endif

using namespace contactlab;
namespace fs = std::filesystem;

namespace {

// tests/data/fuzz_regressions/known_findings.txt: TARGET/FILE -> the finding,
// for inputs that still crash.
std::map<std::string, std::string> known_findings() {
  std::map<std::string, std::string> out;
  std::ifstream in(std::string(CONTACTLAB_TEST_DATA) + "/fuzz_regressions/known_findings.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.find(' ');
    out[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(line.find_first_not_of(' ', space));
  }
  return out;
}

// What the fuzz target fuzz/TARGET.cpp does with an input, here read from the file.
using Reader = std::function<void(const std::string& path)>;

void solver_form(const FrictionContactProblem& p) { (void)p.to_constraint_problem(); }

const std::map<std::string, Reader>& readers() {
  static const std::map<std::string, Reader> table = {
      {"mjcf",
       [](const std::string& path) {
         std::vector<std::string> warnings;
         (void)load_mjcf_file(path, &warnings);
       }},
      {"fc3d_dat", [](const std::string& path) { solver_form(read_siconos_dat(path)); }},
      {"obj", [](const std::string& path) { (void)read_mesh_file(path); }},
      {"stl", [](const std::string& path) { (void)read_mesh_file(path); }},
      // The structure-aware target's inputs are recipes for an HDF5 file;
      // scripts/fuzz.sh keeps the file it wrote (NAME.hdf5) beside a crash's recipe.
      {"fclib_hdf5", [](const std::string& path) { solver_form(read_fclib_hdf5(path)); }},
      {"fclib_hdf5_bytes", [](const std::string& path) { solver_form(read_fclib_hdf5(path)); }},
  };
  return table;
}

// The files of ROOT/TARGET/ that are inputs of the reader, sorted.
std::vector<fs::path> inputs(const std::string& root, const std::string& target) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(root) / target;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    if (target == "fclib_hdf5" && entry.path().extension() != ".hdf5") continue;  // a recipe
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool known_bad(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.rfind("bad_", 0) == 0 || name.rfind("truncated", 0) == 0;
}

// Runs every input of TARGET; returns how many ran.
int run_target(const std::string& target) {
  const Reader& read = readers().at(target);
  int ran = 0;
  const std::map<std::string, std::string> known = known_findings();
  const std::string regressions = std::string(CONTACTLAB_TEST_DATA) + "/fuzz_regressions";
  for (const std::string& root : {regressions, std::string(CONTACTLAB_FUZZ_CORPUS)}) {
    const bool corpus = root != regressions;
    for (const fs::path& file : inputs(root, target)) {
      const std::string key = target + "/" + file.filename().string();
      if (!corpus && known.count(key)) {
        MESSAGE("not run, known finding: " << key << ": " << known.at(key));
        continue;
      }
      const std::string path = file.string();
      CAPTURE(path);
      ++ran;
      try {
        read(path);
        CHECK_MESSAGE(!(corpus && known_bad(file)), "a known-bad seed was accepted");
      } catch (const std::exception& e) {
        const std::string what = e.what();
        CAPTURE(what);
        CHECK_MESSAGE(!(corpus && !known_bad(file)), "a valid seed was refused");
        CHECK_MESSAGE(what.find(path) != std::string::npos, "the message does not name the file");
      }
    }
  }
  return ran;
}

}  // namespace

TEST_CASE("fuzz regressions: every input folder has its reader, every known finding its input") {
  for (const std::string& root :
       {std::string(CONTACTLAB_TEST_DATA) + "/fuzz_regressions", std::string(CONTACTLAB_FUZZ_CORPUS)}) {
    if (!fs::is_directory(root)) continue;
    for (const auto& entry : fs::directory_iterator(root)) {
      if (!entry.is_directory()) continue;
      const std::string target = entry.path().filename().string();
      CHECK_MESSAGE(readers().count(target), "no reader for the fuzz inputs of " << entry.path().string());
    }
  }
  const std::map<std::string, std::string> known = known_findings();
  CHECK(fs::is_regular_file(std::string(CONTACTLAB_TEST_DATA) + "/fuzz_regressions/known_findings.txt"));
  for (const auto& entry : known) {
    const std::string& key = entry.first;  // no structured binding: clang 14 cannot CAPTURE one
    CAPTURE(key);
    CHECK(fs::is_regular_file(std::string(CONTACTLAB_TEST_DATA) + "/fuzz_regressions/" + key));
    CHECK(readers().count(key.substr(0, key.find('/'))));
  }
}

TEST_CASE("fuzz regressions: the MJCF reader refuses or loads every kept input") { CHECK(run_target("mjcf") > 0); }

TEST_CASE("fuzz regressions: the Siconos .dat reader refuses or reads every kept input") {
  CHECK(run_target("fc3d_dat") > 0);
}

TEST_CASE("fuzz regressions: the FCLib .hdf5 reader refuses or reads every kept input") {
  if (!fclib_reader_built()) {
    MESSAGE("built without HDF5: the .hdf5 inputs are not read");
    return;
  }
  run_target("fclib_hdf5");
  CHECK(run_target("fclib_hdf5_bytes") > 0);
}

TEST_CASE("fuzz regressions: the OBJ and STL mesh readers refuse or read every kept input") {
  CHECK(run_target("obj") > 0);
  CHECK(run_target("stl") > 0);
}
