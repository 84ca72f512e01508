// The FCLib .hdf5 reader (io/fclib_io.hpp). Without HDF5 in the build it
// must say how to get it. With HDF5: the two FCLib problems of
// ../shared/data/fc3d against values looked up with h5dump (not with our
// reader), small files written here with HDF5's C API in each of the three W
// layouts, and files damaged in one way each, whose errors must name the file
// and the dataset.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "io/fclib_io.hpp"

using namespace contactlab;

#ifndef CONTACTLAB_HAVE_FCLIB

TEST_CASE("fclib: not built, and says how to get it") {
  CHECK_FALSE(fclib_reader_built());
  CHECK_THROWS_WITH_AS(read_fclib_hdf5("any.hdf5"), doctest::Contains("libhdf5-dev"), std::invalid_argument);
}

#else

// contactlab_io keeps HDF5's include directory private; Debian puts hdf5.h
// under hdf5/serial/, so name that path where plain <hdf5.h> is not found.
#if __has_include(<hdf5.h>)
#include <hdf5.h>
#else
#include <hdf5/serial/hdf5.h>
#endif
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

namespace {

std::string fc3d_file(const std::string& name) {
  const std::string path = std::string(CONTACTLAB_FC3D_DIR) + "/" + name;
  INFO("FCLib data file " << path << " (../shared/data/fc3d)");
  REQUIRE(std::filesystem::exists(path));
  return path;
}

// A path in the temp directory, unique to this process, removed at scope exit.
struct TempPath {
  std::string path;
  explicit TempPath(const std::string& name)
      : path((std::filesystem::temp_directory_path() /
              ("contactlab_fclib_" + std::to_string(::getpid()) + "_" + name))
                 .string()) {}
  ~TempPath() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

// What an FCLib writer puts in a local problem; each field can be damaged.
struct Spec {
  int m = 3, n = 3, nz = -1, spacedim = 3;
  std::vector<int> p, i;
  std::vector<double> x, q{-1.0, 0.5, 0.25}, mu{0.3};
  bool local_group = true;  // false: everything goes under /other instead
  bool write_q = true;
};

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
void write_ints(hid_t loc, const char* name, const std::vector<int>& v) {
  write_dataset(loc, name, H5T_STD_I32LE, H5T_NATIVE_INT, v);
}
void write_doubles(hid_t loc, const char* name, const std::vector<double>& v) {
  write_dataset(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v);
}

// Writes the layout FCLib's fclib_write_local produces (types as in the real files).
void write_fclib(const std::string& path, const Spec& s) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t root = H5Gcreate2(file, s.local_group ? "fclib_local" : "other", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  write_ints(root, "spacedim", {s.spacedim});
  const hid_t W = H5Gcreate2(root, "W", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  write_ints(W, "nzmax", {static_cast<int>(s.x.size())});
  write_ints(W, "m", {s.m});
  write_ints(W, "n", {s.n});
  write_ints(W, "nz", {s.nz});
  write_ints(W, "p", s.p);
  write_ints(W, "i", s.i);
  write_doubles(W, "x", s.x);
  H5Gclose(W);
  const hid_t vectors = H5Gcreate2(root, "vectors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (s.write_q) write_doubles(vectors, "q", s.q);
  write_doubles(vectors, "mu", s.mu);
  H5Gclose(vectors);
  H5Gclose(root);
  REQUIRE(H5Fclose(file) >= 0);
}

// W = [4 1 0; 0 3 2; 5 0 6]: not symmetric, so a transposed reading shows.
MatX tiny_W() {
  MatX W(3, 3);
  W << 4, 1, 0,  //
      0, 3, 2,   //
      5, 0, 6;
  return W;
}

// tiny_W in each layout, written out by hand (not generated from the matrix).
Spec tiny_csc() {
  Spec s;
  s.nz = -1;
  s.p = {0, 2, 4, 6};        // column pointers
  s.i = {0, 2, 0, 1, 1, 2};  // row of each entry
  s.x = {4, 5, 1, 3, 2, 6};
  return s;
}
Spec tiny_csr() {
  Spec s;
  s.nz = -2;
  s.p = {0, 2, 4, 6};        // row pointers
  s.i = {0, 1, 1, 2, 0, 2};  // column of each entry
  s.x = {4, 1, 3, 2, 5, 6};
  return s;
}
Spec tiny_triplet() {  // shuffled, with W(1,1) = 3 split into 1 + 2
  Spec s;
  s.nz = 7;
  s.i = {2, 0, 1, 2, 0, 1, 1};  // rows
  s.p = {2, 0, 2, 0, 1, 1, 1};  // columns
  s.x = {6, 4, 2, 5, 1, 1, 2};
  return s;
}

std::string read_error(const std::string& path) {
  try {
    read_fclib_hdf5(path);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  FAIL("no std::invalid_argument for " << path);
  return {};
}

// Writes `s`, reads it back and checks the error names the file and `dataset`.
void check_rejected(const std::string& name, const Spec& s, const std::string& dataset) {
  TempPath file(name + ".hdf5");
  write_fclib(file.path, s);
  const std::string what = read_error(file.path);
  INFO("error: " << what);
  CHECK(what.find(file.path) != std::string::npos);
  CHECK(what.find(dataset) != std::string::npos);
  CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);  // every handle closed on the error path
}

}  // namespace

TEST_CASE("fclib: Capsules-i125-1213.hdf5 loads with the sizes and values h5dump shows") {
  // Sizes, from `h5ls -r Capsules-i125-1213.hdf5` and
  // `h5dump -d /fclib_local/W/<m|n|nz|nzmax> -d /fclib_local/spacedim`:
  // m = n = 858, nz = -2 (compressed rows), nzmax = 11772, p {859},
  // i, x {11772}, q {858}, mu {286}, spacedim 3.
  const FrictionContactProblem p = read_fclib_hdf5(fc3d_file("Capsules-i125-1213.hdf5"));
  CHECK(p.name == "Capsules-i125-1213");
  CHECK(p.dimension == 3);
  CHECK(p.storage == 3);
  CHECK(p.num_contacts == 286);
  REQUIRE(p.W.rows() == 858);
  REQUIRE(p.W.cols() == 858);
  REQUIRE(p.q.size() == 858);
  REQUIRE(p.mu.size() == p.num_contacts);
  CHECK(p.W.nonZeros() == 11772);  // no stored zeros, no duplicates

  // Entries: row r of the CSR holds x[k], column i[k], for p[r] <= k < p[r+1];
  // looked up with `h5dump -m %.17g -d /fclib_local/W/p -s r -c 2` then
  // `-d /fclib_local/W/i -s k -c 1` and `-d /fclib_local/W/x -s k -c 1`
  // (%.17g round-trips, so the comparisons are exact).
  CHECK(p.W.coeff(0, 0) == 1.8960848564937047);     // k = 0
  CHECK(p.W.coeff(0, 1) == 0.39135190688683685);    // k = 1
  CHECK(p.W.coeff(0, 2) == 0.4524024185594045);     // k = 2
  CHECK(p.W.coeff(0, 105) == 1.0671705359968637);   // k = 3
  CHECK(p.W.coeff(1, 0) == 0.3913519068868375);     // k = 15: W(0,1) and W(1,0) differ in the last digits
  CHECK(p.W.coeff(855, 857) == -0.36259486316885986);  // k = 11753
  CHECK(p.W.coeff(857, 857) == 3.4469854620520803);    // k = 11771, the last entry
  // The asymmetry the collection notes for this file (largest |W - W^T|,
  // 9.4e-3), kept as stored: p[805..806] = 11139, 11145, i[11141] = 806,
  // x[11141] = 0.39216321367084078; p[806..807] = 11145, 11151,
  // i[11146] = 805, x[11146] = 0.40161187185387176.
  CHECK(p.W.coeff(805, 806) == 0.3921632136708408);
  CHECK(p.W.coeff(806, 805) == 0.40161187185387176);
  CHECK((MatX(p.W) - MatX(p.W).transpose()).cwiseAbs().maxCoeff() == doctest::Approx(0.009448658183030978));

  // `h5dump -m %.17g -d /fclib_local/vectors/q -d /fclib_local/vectors/mu`
  CHECK(p.q[0] == -0.004904999995580751);
  CHECK(p.q[1] == 3.0043975359387714e-11);
  CHECK(p.q[857] == 1.4176139845090716e-11);
  CHECK((p.mu.array() == 0.7).all());  // all 286 print as 0.69999999999999996
}

TEST_CASE("fclib: LMGC_100_PR_PerioBox-i00361-60-03000.hdf5 loads with the sizes and values h5dump shows") {
  // `h5ls -r` and `h5dump -d /fclib_local/W/<m|n|nz|nzmax>`: m = n = 180,
  // nz = -2 (compressed rows), nzmax = 9576, p {181}, i, x {9576}, q {180},
  // mu {60}, spacedim 3. Every row stores 60 entries (p = 0, 60, 120, ...),
  // column indices are not sorted in 114 rows, and 1728 stored values are 0.
  const FrictionContactProblem p = read_fclib_hdf5(fc3d_file("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5"));
  CHECK(p.name == "LMGC_100_PR_PerioBox-i00361-60-03000");
  CHECK(p.storage == 3);
  CHECK(p.num_contacts == 60);
  REQUIRE(p.W.rows() == 180);
  REQUIRE(p.W.cols() == 180);
  REQUIRE(p.q.size() == 180);
  REQUIRE(p.mu.size() == p.num_contacts);
  CHECK(p.W.nonZeros() == 9576 - 1728);  // stored zeros dropped

  // Same lookup as above (`h5dump -m %.17g -d /fclib_local/W/{p,i,x} -s .. -c ..`).
  CHECK(p.W.coeff(0, 0) == 1.0231321373347495e-05);    // k = 0
  CHECK(p.W.coeff(0, 1) == 3.2981695103321087e-06);    // k = 1
  CHECK(p.W.coeff(0, 2) == -3.4119441254701564e-06);   // k = 2
  CHECK(p.W.coeff(0, 12) == 0.0);                      // k = 24, a stored zero
  CHECK(p.W.coeff(1, 0) == 3.298169510332109e-06);     // k = 60
  CHECK(p.W.coeff(179, 71) == -4.122858643349927e-06);  // k = 9575, the last entry (row 179 is not sorted)
  CHECK(p.W.coeff(179, 179) == 1.2944839015776404e-05);
  CHECK((MatX(p.W) - MatX(p.W).transpose()).cwiseAbs().maxCoeff() < 1e-20);  // symmetric to rounding

  CHECK(p.q[0] == -0.19619411795336042);
  CHECK(p.q[1] == 0.00058766822512804767);
  CHECK(p.q[179] == 1.4019589753160157e-14);
  // mu: 16 values 0.5 then 44 values 0.29999999999999999 (sorted counts of the dump).
  CHECK(p.mu[0] == 0.5);
  CHECK(p.mu[59] == 0.3);
  CHECK((p.mu.array() == 0.5).count() == 16);
  CHECK((p.mu.array() == 0.3).count() == 44);
}

TEST_CASE("fclib: compressed column, compressed row and triplet W give the same matrix") {
  // Not a structured binding: clang 14 cannot capture one in CAPTURE's lambda.
  for (const auto& item : {std::pair{"csc", tiny_csc()}, std::pair{"csr", tiny_csr()},
                           std::pair{"triplet", tiny_triplet()}}) {
    const char* layout = item.first;
    const auto& spec = item.second;
    CAPTURE(layout);
    TempPath file(std::string("tiny_") + layout + ".hdf5");
    write_fclib(file.path, spec);
    const FrictionContactProblem p = read_fclib_hdf5(file.path);
    CHECK(p.name == std::string("contactlab_fclib_") + std::to_string(::getpid()) + "_tiny_" + layout);
    CHECK(p.dimension == 3);
    CHECK(p.storage == 3);
    CHECK(p.num_contacts == 1);
    REQUIRE(p.W.rows() == 3);
    REQUIRE(p.W.cols() == 3);
    CHECK(MatX(p.W) == tiny_W());
    REQUIRE(p.q.size() == 3);
    CHECK(p.q[0] == -1.0);
    CHECK(p.q[1] == 0.5);
    CHECK(p.q[2] == 0.25);
    REQUIRE(p.mu.size() == 1);
    CHECK(p.mu[0] == 0.3);
    CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0);  // the reader left nothing open
  }
}

TEST_CASE("fclib: malformed files throw naming the file and the dataset") {
  SUBCASE("missing /fclib_local") {
    Spec s = tiny_csc();
    s.local_group = false;
    check_rejected("no_local", s, "/fclib_local");
  }
  SUBCASE("missing q") {
    Spec s = tiny_csc();
    s.write_q = false;
    check_rejected("no_q", s, "/fclib_local/vectors/q");
  }
  SUBCASE("row index out of range") {
    Spec s = tiny_csc();
    s.i[3] = 3;
    check_rejected("row_range", s, "/fclib_local/W/i");
  }
  SUBCASE("triplet column index out of range") {
    Spec s = tiny_triplet();
    s.p[6] = -1;
    check_rejected("col_range", s, "/fclib_local/W/p");
  }
  SUBCASE("mu of the wrong length") {
    Spec s = tiny_csc();
    s.mu = {0.3, 0.3};
    check_rejected("mu_length", s, "/fclib_local/vectors/mu");
  }
  SUBCASE("q of the wrong length") {
    Spec s = tiny_csc();
    s.q.push_back(1.0);
    check_rejected("q_length", s, "/fclib_local/vectors/q");
  }
  SUBCASE("negative mu") {
    Spec s = tiny_csc();
    s.mu = {-0.1};
    check_rejected("mu_negative", s, "/fclib_local/vectors/mu");
  }
  SUBCASE("NaN in x") {
    Spec s = tiny_csr();
    s.x[2] = std::numeric_limits<double>::quiet_NaN();
    check_rejected("x_nan", s, "/fclib_local/W/x");
  }
  SUBCASE("non-monotone p") {
    Spec s = tiny_csr();
    s.p = {0, 4, 2, 6};
    check_rejected("p_order", s, "/fclib_local/W/p");
  }
  SUBCASE("W not square") {
    Spec s = tiny_csc();
    s.n = 4;
    check_rejected("not_square", s, "/fclib_local/W/m");
  }
  SUBCASE("spacedim 2") {
    Spec s = tiny_csc();
    s.spacedim = 2;
    check_rejected("spacedim", s, "/fclib_local/spacedim");
  }
}

TEST_CASE("fclib: a file that is not HDF5 throws naming the file") {
  TempPath file("plain.hdf5");
  std::ofstream(file.path) << "3\n1\n0\nnot an HDF5 file\n";
  const std::string what = read_error(file.path);
  CHECK(what.find(file.path) != std::string::npos);
  CHECK(what.find("not an HDF5 file") != std::string::npos);
  const std::string missing = file.path + ".missing";
  CHECK(read_error(missing).find(missing) != std::string::npos);
}

#endif
