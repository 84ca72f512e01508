// FCLib local problems (.hdf5) read with HDF5's C API into the dense form of
// FrictionContactProblem. Every size and index is checked before it is used:
// the files come from elsewhere, and a bad index would write outside W.
#include "io/fclib_io.hpp"

#include <hdf5.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace contactlab {

namespace {

// Owns one HDF5 identifier and closes it on every path, throws included.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle(hid_t id, Closer close) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  Closer close_;
};

// HDF5 prints its own error stack to stderr by default; our exceptions say
// what went wrong, so silence it while reading and restore it afterwards.
class SilenceHdf5Errors {
 public:
  SilenceHdf5Errors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~SilenceHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  SilenceHdf5Errors(const SilenceHdf5Errors&) = delete;
  SilenceHdf5Errors& operator=(const SilenceHdf5Errors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

class Reader {
 public:
  Reader(std::string path, hid_t file) : path_(std::move(path)), file_(file) {}

  [[noreturn]] void fail(const std::string& what) const { throw std::invalid_argument(path_ + ": " + what); }

  // Opening is the portable test (H5Oget_info's signature differs across
  // HDF5 versions); it fails for a missing path and for a dataset.
  bool has_group(const char* name) const { return Handle(H5Gopen2(file_, name, H5P_DEFAULT), H5Gclose).ok(); }

  std::vector<int> ints(const std::string& name) const { return read<int>(name, H5T_NATIVE_INT, false); }
  std::vector<double> doubles(const std::string& name) const { return read<double>(name, H5T_NATIVE_DOUBLE, true); }

  int scalar_int(const std::string& name) const {
    const std::vector<int> v = ints(name);
    if (v.size() != 1) fail(name + " should hold one integer, it holds " + std::to_string(v.size()));
    return v[0];
  }

 private:
  // Reads a whole dataset of any rank as a flat array, converted by HDF5 to T.
  // Integer datasets must be stored as integers (HDF5 would silently truncate
  // floats); double datasets may be stored as floats or integers.
  template <class T>
  std::vector<T> read(const std::string& name, hid_t mem_type, bool allow_float) const {
    Handle d(H5Dopen2(file_, name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!d.ok()) fail("missing dataset " + name);
    Handle type(H5Dget_type(d.get()), H5Tclose);
    const H5T_class_t cls = type.ok() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
    if (!(cls == H5T_INTEGER || (allow_float && cls == H5T_FLOAT)))
      fail("dataset " + name + " should hold " + (allow_float ? "numbers" : "integers"));
    Handle space(H5Dget_space(d.get()), H5Sclose);
    const hssize_t n = space.ok() ? H5Sget_simple_extent_npoints(space.get()) : -1;
    if (n < 0) fail("cannot read the size of dataset " + name);
    // The size is bounded before anything is allocated: by the problem limits,
    // and by the file's size, since a damaged dataspace can declare any count
    // (FCLib's writers do not compress: every value takes at least a byte).
    if (n > Fc3dLimits::max_nonzeros)
      fail("dataset " + name + " holds " + std::to_string(n) + " values, more than the " +
           std::to_string(Fc3dLimits::max_nonzeros) + " a problem may have (Fc3dLimits)");
    hsize_t file_bytes = 0;
    if (H5Fget_filesize(file_, &file_bytes) < 0 || static_cast<hsize_t>(n) > file_bytes)
      fail("dataset " + name + " declares " + std::to_string(n) + " values, more than the file's " +
           std::to_string(file_bytes) + " bytes hold");
    std::vector<T> v(static_cast<size_t>(n));
    if (n > 0 && H5Dread(d.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
      fail("cannot read dataset " + name);
    return v;
  }

  std::string path_;
  hid_t file_;
};

}  // namespace

bool fclib_reader_built() { return true; }

FrictionContactProblem read_fclib_hdf5(const std::string& path) {
  SilenceHdf5Errors silence;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::invalid_argument(path + ": is a directory, not a problem file");
  if (!std::filesystem::is_regular_file(path, ec)) throw std::invalid_argument(path + ": no such file");
  const auto bytes = std::filesystem::file_size(path, ec);
  if (!ec && bytes > static_cast<std::uintmax_t>(Fc3dLimits::max_file_bytes))
    throw std::invalid_argument(path + ": the file is " + std::to_string(bytes) + " bytes, more than the " +
                                std::to_string(Fc3dLimits::max_file_bytes) + " a problem file may hold");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw std::invalid_argument(path + ": not an HDF5 file");
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.ok()) throw std::invalid_argument(path + ": cannot open the HDF5 file");
  const Reader in(path, file.get());

  if (!in.has_group("/fclib_local")) {
    if (in.has_group("/fclib_global"))
      in.fail("holds an FCLib global problem (/fclib_global); only local ones are read");
    in.fail("missing group /fclib_local (not an FCLib local problem)");
  }
  const int spacedim = in.scalar_int("/fclib_local/spacedim");
  if (spacedim != 3) in.fail("/fclib_local/spacedim is " + std::to_string(spacedim) + ", only 3 is supported");
  if (!in.has_group("/fclib_local/W")) in.fail("missing group /fclib_local/W");

  // W in CSparse form. nz = -1: compressed columns (p: n+1 column pointers,
  // i: row indices); -2: compressed rows (p: m+1 row pointers, i: column
  // indices); nz >= 0: nz triplets with i the rows and p the columns (CSparse's
  // cs_entry, which Siconos, the writer of these files, hands to fclib as is).
  const int m = in.scalar_int("/fclib_local/W/m");
  const int n = in.scalar_int("/fclib_local/W/n");
  const int nz = in.scalar_int("/fclib_local/W/nz");
  if (m < 0 || n < 0) in.fail("/fclib_local/W/m and n must not be negative");
  if (m != n) in.fail("W is " + std::to_string(m) + " x " + std::to_string(n) + " (/fclib_local/W/m, n): not square");
  if (m > 3 * Fc3dLimits::max_contacts)
    in.fail("W has " + std::to_string(m) + " rows (/fclib_local/W/m), more than the " +
            std::to_string(3 * Fc3dLimits::max_contacts) + " of " + std::to_string(Fc3dLimits::max_contacts) +
            " contacts (Fc3dLimits)");
  if (nz < -2) in.fail("/fclib_local/W/nz is " + std::to_string(nz) + ": neither -1, -2 nor a triplet count");
  // The vectors fix the sizes before W is allocated: a file cannot ask for a
  // dense W larger than the data it holds.
  const std::vector<double> q = in.doubles("/fclib_local/vectors/q");
  const std::vector<double> mu = in.doubles("/fclib_local/vectors/mu");
  if (q.size() != size_t(m))
    in.fail("/fclib_local/vectors/q holds " + std::to_string(q.size()) + " values, W has " + std::to_string(m) +
            " rows");
  if (size_t(m) != 3 * mu.size())
    in.fail("/fclib_local/vectors/mu holds " + std::to_string(mu.size()) + " values, W has " + std::to_string(m) +
            " rows (3 per contact)");
  for (size_t k = 0; k < q.size(); ++k)
    if (!std::isfinite(q[k])) in.fail("/fclib_local/vectors/q[" + std::to_string(k) + "] is not finite");
  for (size_t k = 0; k < mu.size(); ++k)
    if (!std::isfinite(mu[k]) || mu[k] < 0) {
      std::ostringstream value;
      value << mu[k];
      in.fail("/fclib_local/vectors/mu[" + std::to_string(k) + "] = " + value.str() +
              ": friction must be finite and not negative");
    }

  // nzmax is not needed: p, nz and the dataset sizes say how many entries there are.
  const std::vector<int> p = in.ints("/fclib_local/W/p");
  const std::vector<int> idx = in.ints("/fclib_local/W/i");
  const std::vector<double> x = in.doubles("/fclib_local/W/x");

  std::vector<Eigen::Triplet<Real>> entries;
  entries.reserve(x.size());
  // Adds one entry; duplicates are summed, as CSparse does when compressing.
  const auto add = [&](long k, int row, int col, const char* row_name, const char* col_name) {
    if (row < 0 || row >= m)
      in.fail(std::string(row_name) + "[" + std::to_string(k) + "] = " + std::to_string(row) +
              ": row out of range [0, " + std::to_string(m) + ")");
    if (col < 0 || col >= n)
      in.fail(std::string(col_name) + "[" + std::to_string(k) + "] = " + std::to_string(col) +
              ": column out of range [0, " + std::to_string(n) + ")");
    if (!std::isfinite(x[k])) in.fail("/fclib_local/W/x[" + std::to_string(k) + "] is not finite");
    entries.emplace_back(row, col, x[k]);
  };
  if (nz >= 0) {
    if (p.size() < size_t(nz) || idx.size() < size_t(nz) || x.size() < size_t(nz))
      in.fail("triplet W with nz = " + std::to_string(nz) + " entries but /fclib_local/W/p, i, x hold " +
              std::to_string(p.size()) + ", " + std::to_string(idx.size()) + ", " + std::to_string(x.size()));
    for (long k = 0; k < nz; ++k) add(k, idx[k], p[k], "/fclib_local/W/i", "/fclib_local/W/p");
  } else {
    const bool by_column = nz == -1;
    const int outer = by_column ? n : m;
    if (p.size() != size_t(outer) + 1)
      in.fail("/fclib_local/W/p holds " + std::to_string(p.size()) + " pointers, compressed " +
              (by_column ? "columns" : "rows") + " need " + std::to_string(outer + 1));
    if (p[0] != 0) in.fail("/fclib_local/W/p[0] is " + std::to_string(p[0]) + ", not 0");
    for (int j = 0; j < outer; ++j)
      if (p[j + 1] < p[j]) in.fail("/fclib_local/W/p is not monotone at " + std::to_string(j + 1));
    const long nnz = p[outer];
    if (size_t(nnz) > idx.size() || size_t(nnz) > x.size())
      in.fail("/fclib_local/W/p ends at " + std::to_string(nnz) + " but /fclib_local/W/i, x hold " +
              std::to_string(idx.size()) + ", " + std::to_string(x.size()) + " entries");
    for (int j = 0; j < outer; ++j)
      for (long k = p[j]; k < p[j + 1]; ++k) {
        if (by_column)
          add(k, idx[k], j, "/fclib_local/W/i", "/fclib_local/W/p");
        else
          add(k, j, idx[k], "/fclib_local/W/p", "/fclib_local/W/i");
      }
  }

  FrictionContactProblem problem;
  problem.name = std::filesystem::path(path).stem().string();
  problem.source = path;
  problem.dimension = 3;
  problem.num_contacts = static_cast<int>(mu.size());
  problem.storage = 3;  // FCLib hdf5
  problem.W = sparse_matrix(m, entries);
  problem.q = Eigen::Map<const VecX>(q.data(), Eigen::Index(q.size()));
  problem.mu = Eigen::Map<const VecX>(mu.data(), Eigen::Index(mu.size()));
  return problem;
}

}  // namespace contactlab
