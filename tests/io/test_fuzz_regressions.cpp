// The fuzzers' inputs as regression tests (docs/testing.md, Fuzzing): every
// file under tests/data/fuzz_regressions/TARGET/ (inputs scripts/fuzz.sh
// found crashing) and fuzz/corpus/TARGET/ (the committed seeds) goes through
// the reader its fuzz target calls (fuzz/TARGET.cpp), read from the file
// itself. The only requirement is the issue's: bad input is refused with a
// std::exception whose message names the file, never a crash. Seeds named
// bad_* or truncated* are known-bad and must be refused; the other seeds are
// valid and must load.
//
// kKnownFindings lists inputs that still crash, each with its finding
// (docs/reliability.md, Fuzzing): they are reported and not run. When a
// finding is fixed, delete its line: the input then runs like the others.
#include <doctest/doctest.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "io/fc3d_io.hpp"
#include "io/fclib_io.hpp"
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

// TARGET/FILE (relative to tests/data/fuzz_regressions/) -> the finding. Each
// line is a crash not fixed yet; delete it with the fix.
const std::map<std::string, std::string> kKnownFindings = {
    {"fc3d_dat/zero_W.dat",
     "F1: ExplicitDelassus::finish (core/explicit_delassus.cpp:24) takes maxCoeff of W's stored "
     "values, none for W = 0 (Eigen assertion; in Release a read through a null pointer)"},
    {"fclib_hdf5/crash-b8e8a4dfdc0a7dc644517ea5f07cb120a6df8dd5.hdf5", "F1, through the FCLib reader"},
    {"fclib_hdf5_bytes/crash-ad3a5fd4a0a1496b6a2dda9cea1bc6a89541fac7",
     "F2: Debian's libhdf5 1.10.8 reads through a null pointer in H5F__accum_read (H5Gopen2 -> "
     "H5G__stab_lookup -> H5HL_protect) on a corrupted local heap; in HDF5, not our reader"},
    {"fclib_hdf5_bytes/crash-00d25f0cfdf6cf3cde97ea247352e11bcd3e2801",
     "F3: libhdf5 1.10.8 asks malloc for 0xf012810000000058 bytes (H5C_protect, a corrupted object "
     "header size); ASan reports it, a Release malloc returns null; in HDF5"},
    {"fclib_hdf5_bytes/leak-f7f14a772442a4111ceafc074012e360b5f95c4f",
     "F5: libhdf5 1.10.8 leaks 424 bytes on a corrupted file (LeakSanitizer); in HDF5"},
};

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
  const std::string regressions = std::string(CONTACTLAB_TEST_DATA) + "/fuzz_regressions";
  for (const std::string& root : {regressions, std::string(CONTACTLAB_FUZZ_CORPUS)}) {
    const bool corpus = root != regressions;
    for (const fs::path& file : inputs(root, target)) {
      const std::string key = target + "/" + file.filename().string();
      if (!corpus && kKnownFindings.count(key)) {
        MESSAGE("not run, known finding: " << key << ": " << kKnownFindings.at(key));
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
  for (const auto& [key, finding] : kKnownFindings) {
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
