// The Siconos .dat reader (io/fc3d_io.hpp): sizes and entries of known
// files of ../shared/data/fc3d (values read off the files with sed, not with
// our reader), one non-symmetric matrix written in every storage (dense,
// sparse block, and the three CSparse forms) that must read back identically,
// and damaged files whose errors must name the file and the line.
// Siconos' own reader is compared entry by entry in test_siconos_peer.cpp.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/fc3d_io.hpp"

using namespace contactlab;

namespace {

std::string data_file(const std::string& name) {
  const std::string path = std::string(CONTACTLAB_FC3D_DIR) + "/" + name;
  // The collection is a required test input (CMake cache CONTACTLAB_FC3D_DIR): a missing file fails.
  REQUIRE_MESSAGE(std::filesystem::exists(path), "missing test problem " << path << " (set CONTACTLAB_FC3D_DIR)");
  return path;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / ("contactlab_fc3d_" + name)).string();
  std::ofstream(path) << text;
  return path;
}

// The 6 x 6 (2 contacts) non-symmetric test matrix: W(i, j) = 10 (i == j) + i - 2 j / 10,
// with the off-diagonal 3 x 3 blocks (0, 1) set to zero so that block storage skips one.
MatX test_matrix() {
  MatX W(6, 6);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) W(i, j) = (i == j ? 10.0 : 0.0) + i - 0.2 * j;
  W.block(0, 3, 3, 3).setZero();
  return W;
}

const char* kTail = "-1 2 3 -4 5 6\n0.3 0.5\n";

std::string dense_text(const MatX& W) {
  std::string s = "3\n2\n0\n6\n6\n6 6\n";
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 6; ++i) s += std::to_string(W(i, j)) + (i == 5 ? "\n" : " ");
  return s + kTail;
}

std::string block_text(const MatX& W) {
  // 3 stored blocks: (0,0), (1,0), (1,1); row pointers 0 1 3.
  std::string s = "3\n2\n1\n6\n6\n3\n2\n2\n3 6\n3 6\n3\n3\n0 1 3\n0 0 1\n";
  const int blocks[3][2] = {{0, 0}, {1, 0}, {1, 1}};
  for (int k = 0; k < 3; ++k) {
    s += std::to_string(k) + "\n";
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) s += std::to_string(W(3 * blocks[k][0] + i, 3 * blocks[k][1] + j)) + "\n";
  }
  return s + kTail;
}

// CSparse's cs_print text after Siconos' origin code: 1 triplet, 2 compressed
// column, 3 compressed row (Siconos 4.4's NSM_TRIPLET, NSM_CSC, NSM_CSR).
std::string sparse_text(const MatX& W, int origin) {
  std::string s = "3\n2\n2\n6\n6\n" + std::to_string(origin) + "\nCSparse Version 2.2.3, Jan 20, 2009.  Copyright (c) Timothy A. Davis, 2006-2009\n";
  int nnz = 0;
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 6; ++i) nnz += W(i, j) != 0;
  if (origin == 1) {
    s += "triplet: 6-by-6, nzmax: " + std::to_string(nnz) + " nnz: " + std::to_string(nnz) + "\n";
    for (int i = 5; i >= 0; --i)  // any order
      for (int j = 0; j < 6; ++j)
        if (W(i, j) != 0) s += "    " + std::to_string(i) + " " + std::to_string(j) + " : " + std::to_string(W(i, j)) + "\n";
  } else {
    s += "6-by-6, nzmax: " + std::to_string(nnz) + " nnz: " + std::to_string(nnz) + ", 1-norm: 99\n";
    int loc = 0;
    for (int c = 0; c < 6; ++c) {
      int count = 0;
      for (int k = 0; k < 6; ++k) count += (origin == 2 ? W(k, c) : W(c, k)) != 0;
      s += "    col " + std::to_string(c) + " : locations " + std::to_string(loc) + " to " + std::to_string(loc + count - 1) + "\n";
      for (int k = 0; k < 6; ++k) {
        const double v = origin == 2 ? W(k, c) : W(c, k);
        if (v != 0) s += "      " + std::to_string(k) + " : " + std::to_string(v) + "\n";
      }
      loc += count;
    }
  }
  return s + kTail;
}

}  // namespace

TEST_CASE("fc3d io: FrictionContact3D_1c, dense, one contact") {
  // sed -n 1,30p FrictionContact3D_1c.dat: W columns (15,-1,-2) (-1,14,1) (-2,1,16), q (-1,2,3), mu 0.1.
  const FrictionContactProblem p = read_siconos_dat(data_file("FrictionContact3D_1c.dat"));
  CHECK(p.name == "FrictionContact3D_1c");
  CHECK(p.dimension == 3);
  CHECK(p.num_contacts == 1);
  CHECK(p.storage == 0);
  MatX W(3, 3);
  W << 15, -1, -2, -1, 14, 1, -2, 1, 16;
  CHECK(MatX(p.W) == W);
  CHECK(p.q == Vec3(-1, 2, 3));
  CHECK(p.mu[0] == 0.1);  // the file holds 1.000000000000000055511151e-01, 0.1 rounded
}

TEST_CASE("fc3d io: Rover4396 reads column by column (its W is not symmetric)") {
  // sed -n 7,14p Rover4396.dat: line 7 is column 0, line 8 column 1 ... each 6 values.
  const FrictionContactProblem p = read_siconos_dat(data_file("Rover4396.dat"));
  CHECK(p.num_contacts == 2);
  CHECK(p.W.rows() == 6);
  CHECK(p.W.coeff(0, 0) == 1.206265440170792811735989e-02);
  CHECK(p.W.coeff(1, 0) == -1.515988037597431909581094e-04);
  CHECK(p.W.coeff(0, 1) == -1.543351006400240027841009e-04);
  CHECK(p.W.coeff(0, 1) != p.W.coeff(1, 0));
  CHECK(p.mu[0] == 0.7);
  CHECK(p.mu[1] == 0.7);
}

TEST_CASE("fc3d io: FC3D_Example1 dense and sparse-block storage give the same problem") {
  const FrictionContactProblem d = read_siconos_dat(data_file("FC3D_Example1.dat"));
  const FrictionContactProblem b = read_siconos_dat(data_file("FC3D_Example1_SBM.dat"));
  CHECK(d.storage == 0);
  CHECK(b.storage == 1);
  CHECK(d.num_contacts == 3);
  CHECK(MatX(d.W) == MatX::Identity(9, 9));
  CHECK(MatX(b.W) == MatX(d.W));
  CHECK(b.q == d.q);
  CHECK(b.mu == d.mu);
}

TEST_CASE("fc3d io: every problem of the collection reads, with sizes that match its name") {
  int count = 0;
  for (const std::string& f : fc3d_problem_files(CONTACTLAB_FC3D_DIR)) {
    if (std::filesystem::path(f).extension() != ".dat") continue;
    CAPTURE(f);
    const FrictionContactProblem p = read_siconos_dat(f);
    CHECK(p.W.rows() == 3 * p.num_contacts);
    CHECK(p.q.size() == 3 * p.num_contacts);
    CHECK(p.mu.size() == p.num_contacts);
    CHECK(MatX(p.W).allFinite());
    CHECK((p.mu.array() >= 0).all());
    ++count;
  }
  CHECK(count == 34);  // ls ../shared/data/fc3d/*.dat | wc -l
  const FrictionContactProblem kaplas = read_siconos_dat(data_file("KaplasTower-i1061-4.hdf5.dat"));
  CHECK(kaplas.num_contacts == 570);
  // Held sparse: 4 % of the 1710 x 1710 entries are non-zero (zeros are not stored).
  CHECK(kaplas.W.nonZeros() == (MatX(kaplas.W).array() != 0).count());
  CHECK(kaplas.W.nonZeros() < kaplas.W.size() / 20);
  CHECK(read_siconos_dat(data_file("NESpheres_10_1.dat")).num_contacts == 9);
}

TEST_CASE("fc3d io: one non-symmetric matrix in all five storages reads back exactly") {
  const MatX W = test_matrix();
  const std::string texts[5] = {dense_text(W), block_text(W), sparse_text(W, 1), sparse_text(W, 2), sparse_text(W, 3)};
  for (int k = 0; k < 5; ++k) {
    CAPTURE(k);
    const FrictionContactProblem p = read_siconos_dat(write_temp("storage" + std::to_string(k) + ".dat", texts[k]));
    CHECK(p.num_contacts == 2);
    CHECK(p.storage == (k == 0 ? 0 : k == 1 ? 1 : 2));
    CHECK((MatX(p.W) - W).cwiseAbs().maxCoeff() <= 1e-6);  // std::to_string keeps 6 decimals
    CHECK(p.W.coeff(4, 1) == doctest::Approx(W(4, 1)).epsilon(1e-9));
    CHECK(p.W.coeff(1, 4) == 0.0);
    CHECK(p.q[3] == -4.0);
    CHECK(p.mu[1] == 0.5);
  }
}

TEST_CASE("fc3d io: the old isComplete flag after mu is accepted, anything else after it is not") {
  const std::string ok = dense_text(test_matrix()) + "1\n";
  CHECK(read_siconos_dat(write_temp("flag.dat", ok)).num_contacts == 2);
  CHECK_THROWS_WITH_AS(read_siconos_dat(write_temp("trailing.dat", ok + "7\n")),
                       doctest::Contains("expected the end of the file after mu"), std::invalid_argument);
}

TEST_CASE("fc3d io: damaged files are rejected naming the file, the line and what was expected") {
  const std::string good = dense_text(test_matrix());
  struct Case {
    const char* name;
    std::string text;
    const char* message;
  };
  const Case cases[] = {
      {"empty", "", "expected the problem dimension"},
      {"dim2", "2\n1\n0\n", "expected the problem dimension"},
      {"storage7", "3\n2\n7\n6\n6\n", "expected the matrix storage"},
      {"wrongsize", "3\n2\n0\n9\n9\n", "expected a 6 x 6 matrix"},
      {"truncated", good.substr(0, good.size() / 2), "found end of file"},
      {"word", "3\n2\n0\n6\n6\n6 6\n1.0 abc\n", "found 'abc'"},
      {"nan", "3\n2\n0\n6\n6\n6 6\nnan\n", "a finite number"},
      {"negmu", good.substr(0, good.rfind("0.3 0.5")) + "0.3 -0.5\n", "mu[1] is negative"},
      {"badblock", "3\n2\n1\n6\n6\n3\n2\n2\n3 6\n3 6\n3\n3\n0 1 3\n0 0 5\n", "block column index"},
      {"badcsc", "3\n2\n2\n6\n6\n2\nCSparse Version 2\n6-by-6, nzmax: 1 nnz: 1, 1-norm: 1\n    col 0 : locations 0 to 0\n      9 : 1\n",
       "an index"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string path = write_temp(std::string(c.name) + ".dat", c.text);
    CHECK_THROWS_WITH_AS(read_siconos_dat(path), doctest::Contains(c.message), std::invalid_argument);
    CHECK_THROWS_WITH_AS(read_siconos_dat(path), doctest::Contains(path.c_str()), std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(read_siconos_dat(write_temp("word2.dat", "3\n2\n0\n6\n6\n6 6\n1.0 abc\n")),
                       doctest::Contains(":7:"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(read_siconos_dat("/nonexistent/x.dat"), doctest::Contains("cannot open"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(fc3d_problem_files("/nonexistent/dir"), doctest::Contains("no such file"), std::invalid_argument);
}
