// Issue 12, "bad input never runs and never crashes", for problem files: one
// row per kind of bad .dat / .hdf5 input, each run through `contactlab
// solve` (and `bench-problems`) as a user runs it. Every row must exit 1
// (not a signal, not 0), name the file (and the line where one is
// meaningful) with what was wrong, and leave no --out file behind. The crash
// cases of the fuzzer (a zero W, entries underflowing to zero) are also run
// with every solver and every --delassus storage. docs/reliability.md.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/fc3d_io.hpp"
#include "sim/registry.hpp"
#include "support/cli.hpp"

#ifdef CONTACTLAB_HAVE_FCLIB
#if __has_include(<hdf5.h>)
#include <hdf5.h>
#else
#include <hdf5/serial/hdf5.h>
#endif
#endif

namespace {

namespace fs = std::filesystem;
using contactlab::test_cli::CliResult;

// This process's scratch folder, removed when the process ends.
std::string temp_dir() {
  struct Folder {
    fs::path path = fs::temp_directory_path() / ("contactlab_reliability_" + std::to_string(::getpid()));
    Folder() { fs::create_directories(path); }
    ~Folder() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const Folder folder;
  return folder.path.string();
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A dense one-contact problem: 3 x 3 W (9 entries, column-major), q, mu.
std::string dense1(const std::string& W, const std::string& q = "-1 0 0", const std::string& mu = "0.5") {
  return "3\n1\n0\n3\n3\n3 3\n" + W + "\n" + q + "\n" + mu + "\n";
}

const char* kIdentity = "1 0 0 0 1 0 0 0 1";

// Two contacts in dense storage; W given as 36 entries (column-major).
std::string dense2(const std::string& W) { return "3\n2\n0\n6\n6\n6 6\n" + W + "\n-1 0 0 -1 0 0\n0.5 0.5\n"; }

std::string second_block_zero() {  // contact 1's rows and columns are zero
  std::string W;
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 6; ++i) W += (i == j && i < 3) ? "1 " : "0 ";
  return dense2(W);
}

struct Row {
  const char* name;
  std::string path;     // the input
  int line;             // the line the message must name (0: none is meaningful)
  const char* message;  // part of the message
};

std::vector<Row> bad_dat_rows() {
  std::string huge_line(contactlab::Fc3dLimits::max_line_bytes + 1, ' ');
  return {
      {"zero W", write_file("zero.dat", dense1("0 0 0 0 0 0 0 0 0")), 0, "W is zero"},
      {"entries underflowing to 0", write_file("underflow.dat", dense1("1e-620 0 0 0 1e-620 0 0 0 1e-620")), 0,
       "W is zero"},
      {"one underflowing diagonal entry", write_file("underflow_diag.dat", dense1("1e-620 0 0 0 1 0 0 0 1")), 0,
       "W is singular at contact 0"},
      {"a zero diagonal block", write_file("zero_block.dat", second_block_zero()), 0, "W is singular at contact 1"},
      {"a negative diagonal entry", write_file("negative_diag.dat", dense1("1 0 0 0 -1 0 0 0 1")), 0,
       "not positive semi-definite"},
      {"non-symmetric W", write_file("nonsym.dat", dense1("1 0 0 1 1 0 0 0 1")), 0, "W is not symmetric"},
      {"nan entry", write_file("nan.dat", dense1("1 0 0 0 nan 0 0 0 1")), 7, "a finite number), found 'nan'"},
      {"inf entry", write_file("inf.dat", dense1("1 0 0 0 inf 0 0 0 1")), 7, "found 'inf'"},
      {"overflowing entry", write_file("overflow.dat", dense1("1 0 0 0 1e400 0 0 0 1")), 7, "found '1e400'"},
      {"nan in q", write_file("nan_q.dat", dense1(kIdentity, "-1 nan 0")), 8, "q[1]"},
      {"inf mu", write_file("inf_mu.dat", dense1(kIdentity, "-1 0 0", "inf")), 9, "mu[0]"},
      {"negative mu", write_file("negative_mu.dat", dense1(kIdentity, "-1 0 0", "-0.5")), 9, "mu[0] is negative"},
      {"wrong size", write_file("wrong_size.dat", "3\n2\n0\n3\n3\n3 3\n" + std::string(kIdentity) + "\n"), 4,
       "expected a 6 x 6 matrix (3 rows per contact), found 3 x 3"},
      {"dense block not of the declared size", write_file("wrong_block.dat", "3\n1\n0\n3\n3\n2 2\n1 0 0 1\n"), 6,
       "a dense block of the declared size 3 x 3, found 2 x 2"},
      {"truncated", write_file("truncated.dat", "3\n1\n0\n3\n3\n3 3\n1 0 0\n0 1 0\n"), 8, "found end of file"},
      {"extra tokens", write_file("extra.dat", dense1(kIdentity) + "0 7\n"), 10,
       "expected the end of the file after mu"},
      {"a word instead of a number", write_file("word.dat", dense1("1 0 0 0 x 0 0 0 1")), 7, "found 'x'"},
      {"binary garbage", write_file("garbage.dat", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe", 18)), 1,
       "found '\\x89PNG'"},
      {"an empty file", write_file("empty.dat", ""), 1, "the file is empty"},
      {"a directory", temp_dir(), 0, "is a directory"},
      {"/dev/zero", "/dev/zero", 1, "a word longer than 256 bytes"},
      {"a line longer than the limit", write_file("long_line.dat", "3\n" + huge_line), 2, "a line longer than"},
      {"1e12 contacts", write_file("huge.dat", "3\n1e12\n0\n"), 2, "the number of contacts (an integer in [1, 100000])"},
      {"100000 contacts declared, no data", write_file("big_empty.dat", "3\n100000\n0\n300000\n300000\n300000 300000\n"),
       6, "found end of file"},
      {"sparse-block sizes beyond W", write_file("blocks.dat", "3\n1\n1\n3\n3\n1\n1000000\n"), 7,
       "the number of block rows (an integer in [0, 3])"},
  };
}

void check_rejected(const Row& r, const std::string& args_after) {
  const std::string out = temp_dir() + "/out.csv";
  fs::remove(out);
  const auto t0 = std::chrono::steady_clock::now();
  const CliResult res = contactlab::test_cli::run_binary("solve " + r.path + args_after + " --out " + out);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  INFO(r.name << ": contactlab solve " << r.path << args_after << "\n" << res.output);
  CHECK(res.status == 1);
  CHECK(res.output.find("contactlab solve: error: " + r.path) != std::string::npos);
  if (r.line > 0) CHECK(res.output.find(r.path + ":" + std::to_string(r.line) + ":") != std::string::npos);
  CHECK(res.output.find(r.message) != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  CHECK_FALSE(fs::exists(out + ".partial"));
  CHECK(seconds < 2.0);  // no row reads far, allocates much or solves anything
}

}  // namespace

TEST_CASE("reliability problems: every bad .dat input exits 1 naming the file, the line and the fault") {
  for (const Row& r : bad_dat_rows()) check_rejected(r, "");
  // The message shows binary bytes escaped, never raw.
  const CliResult g = contactlab::test_cli::run_binary("solve " + temp_dir() + "/garbage.dat");
  CHECK(g.output.find('\x89') == std::string::npos);
}

TEST_CASE("reliability problems: /dev/zero fails within a second, on the word-length limit") {
  const auto t0 = std::chrono::steady_clock::now();
  const CliResult r = contactlab::test_cli::run_binary("solve /dev/zero");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 1.0);
  CHECK(r.status == 1);
  CHECK(r.output.find("/dev/zero:1: a word longer than") != std::string::npos);
}

TEST_CASE("reliability problems: the fuzzer's crash inputs, with every solver and every Delassus storage") {
  // Before: a segmentation fault in ExplicitDelassus (maxCoeff of an empty
  // array) with --delassus sparse|auto, for padmm, pgs and newton.
  const std::vector<Row> rows = bad_dat_rows();
  for (const contactlab::PartInfo& solver : contactlab::solver_names())
    for (const char* storage : {"dense", "sparse", "auto"})
      for (int k = 0; k < 2; ++k)  // zero W, underflowing entries
        check_rejected(rows[k], std::string(" --solver ") + solver.name + " --delassus " + storage);
}

TEST_CASE("reliability problems: bench-problems refuses each bad file by name and writes no results") {
  const std::string out = temp_dir() + "/bench";
  for (const Row& r : bad_dat_rows()) {
    if (r.path == temp_dir() || r.path == "/dev/zero") continue;  // a directory is a list of problems; not a .dat
    fs::remove_all(out);
    const CliResult res = contactlab::test_cli::run_binary("bench-problems " + r.path + " --out " + out);
    INFO(r.name << "\n" << res.output);
    CHECK(res.status == 1);
    CHECK(res.output.find(r.path) != std::string::npos);
    CHECK(res.output.find(r.message) != std::string::npos);
    CHECK_FALSE(fs::exists(out + "/results.csv"));
  }
}

TEST_CASE("reliability problems: a crashed bench-problems row is reported and makes the command exit 1") {
  // A row is "crashed" when its process dies of a signal other than the time
  // limit's. With a 1 s CPU limit (inherited by each row's process), a PGS
  // run of 1e9 sweeps dies of SIGXCPU long before its 60 s time limit.
  const std::string out = temp_dir() + "/bench_crash";
  fs::remove_all(out);
  const std::string problem = std::string(CONTACTLAB_FC3D_DIR) + "/NESpheres_30_1.dat";
  REQUIRE(fs::exists(problem));
  const std::string cmd = "bash -c 'ulimit -t 1; exec " + std::string(CONTACTLAB_BINARY) + " bench-problems " +
                          problem + " --solvers pgs --time-limit 60 --set solver.tolerance=0" +
                          " --set solver.max_iterations=1000000000 --out " + out + "' 2>&1";
  const contactlab::test_cli::ShellResult shell = contactlab::test_cli::run_shell(cmd);
  const int raw = shell.raw_status;
  const std::string& output = shell.output;
  INFO(output);
  CHECK(WIFEXITED(raw));
  CHECK(WEXITSTATUS(raw) == 1);
  CHECK(output.find("error: pgs on NESpheres_30_1 (signal") != std::string::npos);
  std::ifstream in(out + "/results.csv");  // written before the command fails
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  CHECK(row.find("NESpheres_30_1,44,pgs,crashed,") == 0);
}

#ifdef CONTACTLAB_HAVE_FCLIB
namespace {

template <class T>
void write_dataset(hid_t loc, const char* name, hid_t file_type, hid_t mem_type, const std::vector<T>& v) {
  const hsize_t dim = v.size();
  const hid_t space = H5Screate_simple(1, &dim, nullptr);
  const hid_t d = H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(d >= 0);
  REQUIRE(H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) >= 0);
  H5Dclose(d);
  H5Sclose(space);
}

// A one-contact FCLib local problem with W in compressed columns; each part can be damaged.
struct H5Spec {
  int m = 3, n = 3, nz = -1;
  std::vector<int> p{0, 1, 2, 3}, i{0, 1, 2};
  std::vector<double> x{1, 1, 1}, q{-1, 0, 0}, mu{0.5};
  bool write_q = true;
};

std::string write_h5(const std::string& name, const H5Spec& s) {
  const std::string path = temp_dir() + "/" + name;
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t root = H5Gcreate2(file, "fclib_local", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  write_dataset(root, "spacedim", H5T_STD_I32LE, H5T_NATIVE_INT, std::vector<int>{3});
  const hid_t W = H5Gcreate2(root, "W", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  write_dataset(W, "nzmax", H5T_STD_I32LE, H5T_NATIVE_INT, std::vector<int>{static_cast<int>(s.x.size())});
  write_dataset(W, "m", H5T_STD_I32LE, H5T_NATIVE_INT, std::vector<int>{s.m});
  write_dataset(W, "n", H5T_STD_I32LE, H5T_NATIVE_INT, std::vector<int>{s.n});
  write_dataset(W, "nz", H5T_STD_I32LE, H5T_NATIVE_INT, std::vector<int>{s.nz});
  write_dataset(W, "p", H5T_STD_I32LE, H5T_NATIVE_INT, s.p);
  write_dataset(W, "i", H5T_STD_I32LE, H5T_NATIVE_INT, s.i);
  write_dataset(W, "x", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, s.x);
  H5Gclose(W);
  const hid_t vectors = H5Gcreate2(root, "vectors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (s.write_q) write_dataset(vectors, "q", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, s.q);
  write_dataset(vectors, "mu", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, s.mu);
  H5Gclose(vectors);
  H5Gclose(root);
  REQUIRE(H5Fclose(file) >= 0);
  return path;
}

H5Spec with(void (*change)(H5Spec&)) {
  H5Spec s;
  change(s);
  return s;
}

}  // namespace

TEST_CASE("reliability problems: every bad .hdf5 input exits 1 naming the file and the dataset") {
  const std::vector<Row> rows = {
      {"hdf5 zero W", write_h5("zero.hdf5", with([](H5Spec& s) { s.x = {0, 0, 0}; })), 0, "W is zero"},
      {"hdf5 underflowing W", write_h5("underflow.hdf5", with([](H5Spec& s) { s.x = {1e-320 * 1e-300, 0, 0}; })), 0,
       "W is zero"},
      {"hdf5 missing q", write_h5("no_q.hdf5", with([](H5Spec& s) { s.write_q = false; })), 0,
       "missing dataset /fclib_local/vectors/q"},
      {"hdf5 q of the wrong shape", write_h5("short_q.hdf5", with([](H5Spec& s) { s.q = {-1, 0}; })), 0,
       "/fclib_local/vectors/q holds 2 values"},
      {"hdf5 mu of the wrong shape", write_h5("long_mu.hdf5", with([](H5Spec& s) { s.mu = {0.5, 0.5}; })), 0,
       "/fclib_local/vectors/mu holds 2 values"},
      {"hdf5 W not square", write_h5("rect.hdf5", with([](H5Spec& s) { s.n = 4; })), 0, "not square"},
      {"hdf5 p of the wrong length", write_h5("short_p.hdf5", with([](H5Spec& s) { s.p = {0, 1}; })), 0,
       "/fclib_local/W/p holds 2 pointers"},
      {"hdf5 row index out of range", write_h5("bad_i.hdf5", with([](H5Spec& s) { s.i = {0, 7, 2}; })), 0,
       "row out of range"},
      {"hdf5 nan entry", write_h5("nan.hdf5", with([](H5Spec& s) { s.x = {1, std::nan(""), 1}; })), 0,
       "/fclib_local/W/x[1] is not finite"},
      {"hdf5 negative mu", write_h5("neg_mu.hdf5", with([](H5Spec& s) { s.mu = {-1}; })), 0, "friction must be finite"},
      {"hdf5 huge m", write_h5("huge_m.hdf5", with([](H5Spec& s) { s.m = s.n = 2000000000; })), 0,
       "more than the 300000"},
      {"hdf5 zero diagonal", write_h5("zero_diag.hdf5", with([](H5Spec& s) { s.x = {1, 0, 1}; })), 0,
       "W is singular at contact 0"},
      {"not HDF5 at all", write_file("garbage.hdf5", "this is not HDF5\n"), 0, "not an HDF5 file"},
      {"an empty .hdf5", write_file("empty.hdf5", ""), 0, "not an HDF5 file"},
  };
  for (const Row& r : rows) check_rejected(r, "");
}
#endif

TEST_CASE("reliability problems: --delassus dense over its memory limit is refused before it allocates") {
  // 20000 independent contacts in sparse-block storage: W held dense would be
  // 60000^2 doubles, 27 GiB, over Fc3dLimits::max_dense_bytes (4 GiB).
  const int nc = 20000;
  std::string text = "3\n" + std::to_string(nc) + "\n1\n" + std::to_string(3 * nc) + "\n" + std::to_string(3 * nc) +
                     "\n" + std::to_string(nc) + "\n" + std::to_string(nc) + "\n" + std::to_string(nc) + "\n";
  std::string ends, pointers = "0", columns;
  for (int k = 0; k < nc; ++k) {
    ends += std::to_string(3 * (k + 1)) + " ";
    pointers += " " + std::to_string(k + 1);
    columns += std::to_string(k) + " ";
  }
  text += ends + "\n" + ends + "\n" + std::to_string(nc + 1) + "\n" + std::to_string(nc) + "\n" + pointers + "\n" +
          columns + "\n";
  for (int k = 0; k < nc; ++k) text += std::to_string(k) + "\n1 0 0 0 1 0 0 0 1\n";
  for (int k = 0; k < nc; ++k) text += "-1 0 0 ";
  text += "\n";
  for (int k = 0; k < nc; ++k) text += "0.5 ";
  const std::string path = write_file("block_diagonal_20000.dat", text + "\n");
  const Row row{"dense over the limit", path, 0, "W held dense would take 27465 MiB"};
  check_rejected(row, " --delassus dense");
  // Held sparse, as auto chooses, the same problem solves.
  const CliResult ok = contactlab::test_cli::run_binary("solve " + path + " --solver pgs");
  CHECK(ok.status == 0);
}
