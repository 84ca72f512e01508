// Fuzz target: the FCLib .hdf5 reader (io/fclib_io.hpp), structure-aware.
//
// The input bytes choose an FCLib local problem: which groups and datasets
// exist, their stored type (int, int64, double, float, string), shape (scalar,
// 1-D, 2-D), lengths and values (sizes and indices near their valid ranges,
// non-finite and negative numbers). It is written as a valid HDF5 file with
// HDF5's own writer and handed to read_fclib_hdf5, so what is fuzzed is our
// reader's checks of the contents, not HDF5's parser of the file format;
// fclib_hdf5_bytes.cpp feeds raw bytes to HDF5 (Debian's libhdf5 1.10.8
// crashes on some corrupted files, docs/reliability.md). A std::exception is
// the expected answer to a bad problem; a crash, a sanitizer report, a hang or
// unbounded memory is a finding.
#include <fuzzer/FuzzedDataProvider.h>
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "fuzz/input_file.hpp"
#include "io/fclib_io.hpp"

namespace {

// How one dataset is stored.
enum class Stored { Expected, Missing, Int64, Float, String, TwoD };

Stored stored(FuzzedDataProvider& in) {
  // Mostly as FCLib stores it, so the reader gets past the first checks.
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return Stored::Missing;
    case 1: return Stored::Int64;
    case 2: return Stored::Float;
    case 3: return Stored::String;
    case 4: return Stored::TwoD;
    default: return Stored::Expected;
  }
}

// A size or index: mostly near `around` (the valid value), sometimes anything.
int near(FuzzedDataProvider& in, long around) {
  long v = around;
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return in.ConsumeIntegral<int>();
    case 1: v += in.ConsumeIntegralInRange<int>(-3, 3); break;
    default: break;
  }
  return static_cast<int>(std::clamp<long>(v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

double number(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 9)) {
    case 0: return std::numeric_limits<double>::quiet_NaN();
    case 1: return in.ConsumeBool() ? HUGE_VAL : -HUGE_VAL;
    case 2: return in.ConsumeFloatingPoint<double>();
    case 3: return -in.ConsumeProbability<double>();
    default: return in.ConsumeProbability<double>() * 4;
  }
}

void write(hid_t group, const char* name, Stored how, const std::vector<double>& values, bool integer) {
  if (how == Stored::Missing || group < 0) return;
  hsize_t dims[2] = {values.size(), 1};
  int rank = 1;
  if (how == Stored::TwoD && values.size() % 2 == 0 && !values.empty()) {
    dims[0] = values.size() / 2;
    dims[1] = 2;
    rank = 2;
  }
  const hid_t space = H5Screate_simple(rank, dims, nullptr);
  hid_t file_type = integer ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE;
  if (how == Stored::Int64) file_type = H5T_STD_I64LE;
  if (how == Stored::Float) file_type = H5T_NATIVE_FLOAT;
  hid_t string_type = -1;
  if (how == Stored::String) {
    string_type = H5Tcopy(H5T_C_S1);
    H5Tset_size(string_type, 8);
    file_type = string_type;
  }
  const hid_t set = H5Dcreate2(group, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (set >= 0 && !values.empty()) {
    if (how == Stored::String) {
      std::vector<char> text(8 * values.size(), '7');
      H5Dwrite(set, string_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data());
    } else {
      H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    }
  }
  if (set >= 0) H5Dclose(set);
  if (string_type >= 0) H5Tclose(string_type);
  H5Sclose(space);
}

std::vector<double> ints(FuzzedDataProvider& in, size_t count, int lo, int hi) {
  std::vector<double> v(count);
  for (double& x : v) x = in.ConsumeIntegralInRange<int>(0, 9) == 0 ? in.ConsumeIntegral<int>()
                                                                    : in.ConsumeIntegralInRange<int>(lo, hi);
  return v;
}

// Length `valid` mostly, sometimes a little off.
size_t length(FuzzedDataProvider& in, size_t valid) {
  if (in.ConsumeIntegralInRange<int>(0, 7) != 0) return valid;
  const long l = static_cast<long>(valid) + in.ConsumeIntegralInRange<int>(-2, 2);
  return l < 0 ? 0 : static_cast<size_t>(l);
}

hid_t group(hid_t parent, const char* name, bool make) {
  return make && parent >= 0 ? H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
}

void write_problem(FuzzedDataProvider& in, const std::string& path) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) std::abort();
  const bool global = in.ConsumeIntegralInRange<int>(0, 31) == 0;
  const hid_t top = group(file, global ? "fclib_global" : "fclib_local", in.ConsumeIntegralInRange<int>(0, 31) != 0);
  const hid_t W = group(top, "W", in.ConsumeIntegralInRange<int>(0, 31) != 0);
  const hid_t vectors = group(top, "vectors", in.ConsumeIntegralInRange<int>(0, 31) != 0);

  const int contacts = in.ConsumeIntegralInRange<int>(0, 4);
  const int m = near(in, 3 * contacts);
  const int n = near(in, m);
  // -2 compressed rows, -1 compressed columns, >= 0 triplets; sometimes invalid.
  const int layout = in.ConsumeIntegralInRange<int>(0, 2);
  const int rows = m < 0 || m > 64 ? 3 : m;
  const int cols = n < 0 || n > 64 ? 3 : n;
  const int outer = layout == 1 ? rows : cols;
  const int nnz = in.ConsumeIntegralInRange<int>(0, 2 * outer + 2);
  const int nz = near(in, layout == 0 ? nnz : (layout == 1 ? -2 : -1));

  write(top, "spacedim", stored(in), {double(near(in, 3))}, true);
  write(W, "m", stored(in), {double(m)}, true);
  write(W, "n", stored(in), {double(n)}, true);
  write(W, "nz", stored(in), {double(nz)}, true);
  write(W, "nzmax", stored(in), {double(nnz)}, true);
  std::vector<double> p;
  if (layout == 0) {
    p = ints(in, length(in, nnz), -1, cols);  // triplets: p holds the columns
  } else {
    p.push_back(near(in, 0));
    for (size_t k = 1; k < length(in, outer + 1); ++k)
      p.push_back(in.ConsumeIntegralInRange<int>(0, 5) == 0 ? near(in, long(p.back()) - 1)
                                                            : std::min(p.back() + in.ConsumeIntegralInRange<int>(0, 3), 1e9));
  }
  const size_t entries = layout == 0 ? nnz : (p.empty() || p.back() < 0 || p.back() > 1000 ? 0 : size_t(p.back()));
  write(W, "p", stored(in), p, true);
  write(W, "i", stored(in), ints(in, length(in, entries), -1, layout == 1 ? cols : rows), true);
  std::vector<double> x(length(in, entries));
  for (double& v : x) v = number(in);
  write(W, "x", stored(in), x, false);
  std::vector<double> q(length(in, rows));
  for (double& v : q) v = number(in);
  write(vectors, "q", stored(in), q, false);
  std::vector<double> mu(length(in, rows / 3));
  for (double& v : mu) v = number(in);
  write(vectors, "mu", stored(in), mu, false);

  for (hid_t g : {vectors, W, top})
    if (g >= 0) H5Gclose(g);
  H5Fclose(file);
}

}  // namespace

// CONTACTLAB_FUZZ_SAVE_AS=FILE: keep a copy of the HDF5 file written for the
// input (scripts/fuzz.sh runs a crash's input once more this way, so the
// regression test has the file the reader crashed on).
const char* save_as = nullptr;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // the writer's expected failures are not news
  save_as = std::getenv("CONTACTLAB_FUZZ_SAVE_AS");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static contactlab::fuzz::InputFile file(".hdf5");
  FuzzedDataProvider in(data, size);
  write_problem(in, file.path());
  if (save_as) std::filesystem::copy_file(file.path(), save_as, std::filesystem::copy_options::overwrite_existing);
  try {
    const contactlab::FrictionContactProblem problem = contactlab::read_fclib_hdf5(file.path());
    (void)problem.to_constraint_problem();
  } catch (const std::exception&) {
  }
  return 0;
}
