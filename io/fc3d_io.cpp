// Siconos .dat reader. The file is whitespace-separated tokens except for the
// CSparse text of storage 2, which is read by its keywords; every token keeps
// its line so errors can point at it.
#include "io/fc3d_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "io/fclib_io.hpp"

namespace contactlab {
namespace {

// A word as it may be shown in a message: at most 40 characters, bytes
// outside printable ASCII as \xNN (a binary file must not reach the terminal raw).
std::string shown(const std::string& word) {
  std::string out;
  for (size_t i = 0; i < word.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(word[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (word.size() > 40) out += "...";
  return out;
}

// The file's whitespace-separated words, read one at a time (one word of
// lookahead), each with its line; the limits of Fc3dLimits are enforced as
// the bytes arrive, so neither an endless device (/dev/zero) nor a file
// without newlines can make the reader grow.
class TokenStream {
 public:
  TokenStream(const std::string& path) : path_(path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw std::invalid_argument(path + ": is a directory, not a problem file");
    if (fs::is_regular_file(path, ec)) {
      const auto bytes = fs::file_size(path, ec);
      if (!ec && bytes > static_cast<std::uintmax_t>(Fc3dLimits::max_file_bytes))
        throw std::invalid_argument(path + ": the file is " + std::to_string(bytes) + " bytes, more than the " +
                                    std::to_string(Fc3dLimits::max_file_bytes) + " a problem file may hold");
    }
    in_.open(path, std::ios::binary);
    if (!in_) throw std::invalid_argument(path + ": cannot open the file");
    advance();
    empty_ = !has_ && bytes_ == 0;
  }

  [[noreturn]] void fail(const std::string& what) const {
    const std::string found = has_ ? "'" + shown(word_) + "'" : (empty_ ? "end of file (the file is empty)" : "end of file");
    throw std::invalid_argument(path_ + ":" + std::to_string(line()) + ": expected " + what +
                                ", found " + found);
  }

  // At a given line, with the message as it stands ("PATH:LINE: expected WHAT").
  [[noreturn]] void fail_at(int line, const std::string& what) const {
    throw std::invalid_argument(path_ + ":" + std::to_string(line) + ": expected " + what);
  }

  const std::string& peek(const std::string& what) const {
    if (!has_) fail(what);
    return word_;
  }

  std::string word(const std::string& what) {
    const std::string text = peek(what);
    advance();
    return text;
  }

  void expect(const std::string& keyword) {
    if (peek("'" + keyword + "'") != keyword) fail("'" + keyword + "'");
    advance();
  }

  long integer(const std::string& what, long lo, long hi) {
    const std::string& text = peek(what);
    char* end = nullptr;
    // CSparse prints indices with %g, so "1e+03"-style integers are accepted.
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || value != std::floor(value) || value < lo || value > hi)
      fail(what + " (an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "])");
    advance();
    return static_cast<long>(value);
  }

  // A finite number; one that underflows (1e-620) reads as strtod gives it (0
  // or a subnormal), one that overflows (1e400) is not finite and refused.
  Real real(const std::string& what) {
    const std::string& text = peek(what);
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !std::isfinite(value)) fail(what + " (a finite number)");
    advance();
    return value;
  }

  // "A-by-B," -> (A, B).
  std::pair<long, long> dimensions(const std::string& what) {
    const std::string& text = peek(what);
    long a = 0, b = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%ld-by-%ld%c", &a, &b, &tail) < 2 || a < 0 || b < 0) fail(what + " ('M-by-N,')");
    advance();
    return {a, b};
  }

  bool at_end() const { return !has_; }
  // The line of the next word; at the end of the file, that of the last one.
  int line() const { return has_ ? word_line_ : last_line_; }

 private:
  [[noreturn]] void too_long(const std::string& what, long limit) const {
    throw std::invalid_argument(path_ + ":" + std::to_string(line_) + ": " + what + " longer than " +
                                std::to_string(limit) + " bytes (not a problem file?)");
  }

  // Loads the next word into word_ (has_ false at the end of the file).
  void advance() {
    if (has_) last_line_ = word_line_;
    word_.clear();
    has_ = false;
    std::streambuf* buf = in_.rdbuf();
    for (;;) {
      const int c = buf->sbumpc();
      if (c == std::char_traits<char>::eof()) break;
      if (++bytes_ > Fc3dLimits::max_file_bytes)
        throw std::invalid_argument(path_ + ":" + std::to_string(line_) + ": more than " +
                                    std::to_string(Fc3dLimits::max_file_bytes) +
                                    " bytes, more than a problem file may hold");
      if (c == '\n') {
        ++line_;
        line_bytes_ = 0;
        if (has_) return;
        continue;
      }
      if (++line_bytes_ > Fc3dLimits::max_line_bytes) too_long("a line", Fc3dLimits::max_line_bytes);
      if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
        if (has_) return;
        continue;
      }
      if (!has_) {
        has_ = true;
        word_line_ = line_;
      }
      if (static_cast<long>(word_.size()) >= Fc3dLimits::max_word_bytes) too_long("a word", Fc3dLimits::max_word_bytes);
      word_ += static_cast<char>(c);
    }
  }

  std::string path_;
  std::ifstream in_;
  std::string word_;
  bool has_ = false, empty_ = false;
  int line_ = 1, word_line_ = 1, last_line_ = 1;
  long bytes_ = 0, line_bytes_ = 0;
};

constexpr long kMaxRows = 3 * Fc3dLimits::max_contacts;

// W's entries as they are read (duplicates summed, zeros dropped at the end):
// a file costs its non-zeros, not m^2, and at most Fc3dLimits::max_nonzeros.
struct Entries {
  const TokenStream* in = nullptr;
  long size = 0;
  std::vector<Eigen::Triplet<Real>> list;
  long rows() const { return size; }
  long cols() const { return size; }
  void add(long i, long j, Real v) {
    if (v == 0) return;
    if (static_cast<long>(list.size()) >= Fc3dLimits::max_nonzeros)
      in->fail("at most " + std::to_string(Fc3dLimits::max_nonzeros) + " non-zero entries of W (Fc3dLimits)");
    list.emplace_back(static_cast<int>(i), static_cast<int>(j), v);
  }
};

void read_dense(TokenStream& in, Entries& W) {
  const int line = in.line();
  const long rows = in.integer("the dense matrix row count", 0, kMaxRows);
  const long cols = in.integer("the dense matrix column count", 0, kMaxRows);
  if (rows != W.rows() || cols != W.cols())
    in.fail_at(line, "a dense block of the declared size " + std::to_string(W.rows()) + " x " +
                         std::to_string(W.cols()) + ", found " + std::to_string(rows) + " x " + std::to_string(cols));
  for (long j = 0; j < cols; ++j)  // stored column by column
    for (long i = 0; i < rows; ++i) W.add(i, j, in.real("matrix entry (" + std::to_string(i) + ", " + std::to_string(j) + ")"));
}

// Sparse block matrix: the block layout (cumulative block sizes, compressed
// row pointers and block column indices), then each block column-major.
void read_sparse_block(TokenStream& in, Entries& W) {
  const long nblocks = in.integer("the number of blocks", 0, kMaxRows);
  const long block_rows = in.integer("the number of block rows", 0, W.rows());
  const long block_cols = in.integer("the number of block columns", 0, W.cols());
  std::vector<long> row_end(block_rows), col_end(block_cols);
  for (long& e : row_end) e = in.integer("a cumulative block row size", 1, W.rows());
  for (long& e : col_end) e = in.integer("a cumulative block column size", 1, W.cols());
  for (long k = 1; k < block_rows; ++k)
    if (row_end[k] <= row_end[k - 1]) in.fail("increasing cumulative block row sizes");
  for (long k = 1; k < block_cols; ++k)
    if (col_end[k] <= col_end[k - 1]) in.fail("increasing cumulative block column sizes");
  if ((block_rows > 0 && row_end.back() != W.rows()) || (block_cols > 0 && col_end.back() != W.cols()))
    in.fail("block sizes that add up to the matrix size " + std::to_string(W.rows()));
  const long filled1 = in.integer("the row pointer length", 0, kMaxRows);
  const long filled2 = in.integer("the number of stored blocks", 0, kMaxRows);
  if (filled1 != block_rows + 1 || filled2 != nblocks) in.fail("consistent block counts");
  std::vector<long> row_ptr(filled1), col_index(filled2);
  for (long& p : row_ptr) p = in.integer("a block row pointer", 0, nblocks);
  for (long& c : col_index) c = in.integer("a block column index", 0, block_cols - 1);
  if (row_ptr.front() != 0 || row_ptr.back() != nblocks) in.fail("block row pointers from 0 to the block count");
  for (long bi = 0; bi < block_rows; ++bi) {
    if (row_ptr[bi + 1] < row_ptr[bi]) in.fail("non-decreasing block row pointers");
    const long r0 = bi == 0 ? 0 : row_end[bi - 1];
    const long nr = row_end[bi] - r0;
    for (long k = row_ptr[bi]; k < row_ptr[bi + 1]; ++k) {
      if (in.integer("block number " + std::to_string(k), 0, nblocks - 1) != k)
        in.fail("block number " + std::to_string(k));
      const long bj = col_index[k];
      const long c0 = bj == 0 ? 0 : col_end[bj - 1];
      const long nc = col_end[bj] - c0;
      for (long j = 0; j < nc; ++j)
        for (long i = 0; i < nr; ++i) W.add(r0 + i, c0 + j, in.real("an entry of block " + std::to_string(k)));
    }
  }
}

// CSparse text (cs_print) after Siconos' origin code (NSM_TRIPLET 1,
// NSM_CSC 2, NSM_CSR 3; 0 unknown, then the header says triplet or
// compressed, read as columns): a version line, then a triplet list or
// compressed columns ("col" is a row for compressed-row storage). Siconos
// prints these values with %g, so storage 2 files carry 6 digits.
void read_sparse(TokenStream& in, Entries& W) {
  const long origin = in.integer("the sparse origin (1 triplet, 2 compressed column, 3 compressed row; 0 unknown)", 0, 3);
  in.expect("CSparse");
  in.expect("Version");
  while (!in.at_end() && in.peek("") != "triplet:" && in.peek("").find("-by-") == std::string::npos) in.word("");
  const bool triplet = in.peek("the sparse header") == "triplet:";
  if (triplet) in.word("");
  if (origin != 0 && triplet != (origin == 1)) in.fail(origin == 1 ? "a triplet header" : "a compressed header");
  const auto [m, n] = in.dimensions("the sparse matrix size");
  if (m != W.rows() || n != W.cols()) in.fail("a sparse matrix of the declared size " + std::to_string(W.rows()));
  in.expect("nzmax:");
  in.integer("nzmax", 0, kMaxRows * kMaxRows);
  in.expect("nnz:");
  std::string nnz_text = in.word("nnz");
  if (!nnz_text.empty() && nnz_text.back() == ',') nnz_text.pop_back();
  const long nnz = std::strtol(nnz_text.c_str(), nullptr, 10);
  if (nnz < 0) in.fail("a non-negative nnz");
  if (triplet) {
    for (long k = 0; k < nnz; ++k) {
      const long i = in.integer("a triplet row index", 0, m - 1);
      const long j = in.integer("a triplet column index", 0, n - 1);
      in.expect(":");
      W.add(i, j, in.real("a triplet value"));  // duplicates sum, as in CSparse
    }
    return;
  }
  in.expect("1-norm:");
  in.real("the 1-norm");
  const bool by_row = origin == 3;
  const long outer = by_row ? m : n;
  const long inner = by_row ? n : m;
  long expected_start = 0;
  for (long c = 0; c < outer; ++c) {
    in.expect("col");
    if (in.integer("the column number", 0, outer - 1) != c) in.fail("column " + std::to_string(c));
    in.expect(":");
    in.expect("locations");
    const long first = in.integer("the first location", 0, nnz);
    in.expect("to");
    const long last = in.integer("the last location", -1, nnz - 1);
    if (first != expected_start || last < first - 1) in.fail("contiguous locations");
    expected_start = last + 1;
    for (long k = first; k <= last; ++k) {
      const long i = in.integer("an index", 0, inner - 1);
      in.expect(":");
      const Real value = in.real("a value");
      if (by_row) W.add(c, i, value);
      else W.add(i, c, value);
    }
  }
  if (expected_start != nnz) in.fail(std::to_string(nnz) + " stored entries");
}

}  // namespace

ConstraintProblem FrictionContactProblem::to_constraint_problem(Storage how) const {
  const bool sparse = how == Storage::Sparse || (how == Storage::Auto && mostly_zero(W));
  const double dense_bytes = 8.0 * static_cast<double>(W.rows()) * static_cast<double>(W.cols());
  if (!sparse && dense_bytes > static_cast<double>(Fc3dLimits::max_dense_bytes))
    throw std::invalid_argument((source.empty() ? name : source) + ": W held dense would take " +
                                std::to_string(static_cast<long>(dense_bytes / (1 << 20))) + " MiB (" +
                                std::to_string(W.rows()) + " x " + std::to_string(W.cols()) + " doubles), more than " +
                                std::to_string(Fc3dLimits::max_dense_bytes >> 20) + " MiB; hold it sparse");
  ConstraintProblem problem;
  if (sparse) problem.set_explicit(std::make_shared<const ExplicitDelassus>(W), q, mu);
  else problem.set_explicit(MatX(W), q, mu);
  return problem;
}

FrictionContactProblem read_siconos_dat(const std::string& path) {
  TokenStream in(path);
  FrictionContactProblem p;
  p.name = std::filesystem::path(path).stem().string();
  p.source = path;
  p.dimension = static_cast<int>(in.integer("the problem dimension", 3, 3));
  p.num_contacts = static_cast<int>(in.integer("the number of contacts", 1, Fc3dLimits::max_contacts));
  p.storage = static_cast<int>(in.integer("the matrix storage (0 dense, 1 sparse block, 2 sparse)", 0, 2));
  const long m = 3L * p.num_contacts;
  const int size_line = in.line();
  const long size0 = in.integer("the matrix row count", 0, kMaxRows);
  const long size1 = in.integer("the matrix column count", 0, kMaxRows);
  if (size0 != m || size1 != m)
    throw std::invalid_argument(path + ":" + std::to_string(size_line) + ": expected a " + std::to_string(m) + " x " +
                                std::to_string(m) + " matrix (3 rows per contact), found " + std::to_string(size0) +
                                " x " + std::to_string(size1));
  Entries entries;
  entries.in = &in;
  entries.size = m;
  if (p.storage == 0) read_dense(in, entries);
  else if (p.storage == 1) read_sparse_block(in, entries);
  else read_sparse(in, entries);
  p.W = sparse_matrix(m, entries.list);
  p.q.resize(m);
  for (long i = 0; i < m; ++i) p.q[i] = in.real("q[" + std::to_string(i) + "]");
  p.mu.resize(p.num_contacts);
  for (int i = 0; i < p.num_contacts; ++i) {
    const int line = in.line();
    p.mu[i] = in.real("mu[" + std::to_string(i) + "]");
    if (p.mu[i] < 0)
      throw std::invalid_argument(path + ":" + std::to_string(line) + ": mu[" + std::to_string(i) +
                                  "] is negative (friction must be >= 0)");
  }
  // Older Siconos versions wrote an "isComplete" flag (0 or 1) after mu.
  if (!in.at_end()) in.integer("the end of the file or the isComplete flag after mu", 0, 1);
  if (!in.at_end()) in.fail("the end of the file after mu");
  return p;
}

void check_fc3d_problem(const FrictionContactProblem& p) {
  const std::string who = p.source.empty() ? (p.name.empty() ? std::string("problem") : p.name) : p.source;
  auto fail = [&](const std::string& what) { throw std::invalid_argument(who + ": " + what); };
  const long nc = p.num_contacts, m = 3 * nc;
  if (nc < 1) fail("no contacts");
  if (p.W.rows() != m || p.W.cols() != m || p.q.size() != m || p.mu.size() != nc)
    fail("W is " + std::to_string(p.W.rows()) + " x " + std::to_string(p.W.cols()) + ", q has " +
         std::to_string(p.q.size()) + " entries and mu " + std::to_string(p.mu.size()) + ", for " +
         std::to_string(nc) + " contacts (W 3 nc x 3 nc, q 3 nc, mu nc)");
  auto number = [](Real x) {
    std::ostringstream s;
    s << std::setprecision(6) << x;
    return s.str();
  };
  auto row_name = [&](long i) {
    static const char* const kAxis[3] = {"normal", "first tangent", "second tangent"};
    return "row " + std::to_string(i) + ", the " + kAxis[i % 3] + " of contact " + std::to_string(i / 3);
  };
  for (long i = 0; i < m; ++i)
    if (!std::isfinite(p.q[i])) fail("q[" + std::to_string(i) + "] = " + number(p.q[i]) + " is not finite");
  for (long k = 0; k < nc; ++k)
    if (!std::isfinite(p.mu[k]) || p.mu[k] < 0)
      fail("mu[" + std::to_string(k) + "] = " + number(p.mu[k]) + ": friction must be finite and not negative");
  Real largest = 0;
  for (int j = 0; j < p.W.outerSize(); ++j)
    for (SparseMat::InnerIterator it(p.W, j); it; ++it) {
      if (!std::isfinite(it.value()))
        fail("W[" + std::to_string(it.row()) + "][" + std::to_string(it.col()) + "] = " + number(it.value()) +
             " is not finite");
      largest = std::max(largest, std::abs(it.value()));
    }
  if (largest == 0)
    fail("W is zero (no non-zero entry; entries such as 1e-620 underflow to 0): u = q whatever r, so the "
         "problem has no solution in general");
  for (long i = 0; i < m; ++i) {
    const Real d = p.W.coeff(i, i);
    if (d == 0)
      fail("W[" + std::to_string(i) + "][" + std::to_string(i) + "] = 0 (" + row_name(i) +
           "): W is singular at contact " + std::to_string(i / 3) +
           " (that reaction has no effect on its own velocity)");
    if (d < 0)
      fail("W[" + std::to_string(i) + "][" + std::to_string(i) + "] = " + number(d) + " < 0 (" + row_name(i) +
           "): W is not positive semi-definite");
  }
  const SparseMat T = p.W.transpose();
  const SparseMat D = p.W - T;
  Real asym = 0;
  long ai = 0, aj = 0;
  for (int j = 0; j < D.outerSize(); ++j)
    for (SparseMat::InnerIterator it(D, j); it; ++it)
      if (std::abs(it.value()) > asym) {
        asym = std::abs(it.value());
        ai = it.row();
        aj = it.col();
      }
  if (asym > Fc3dLimits::symmetry_tolerance * largest)
    fail("W is not symmetric: |W[" + std::to_string(ai) + "][" + std::to_string(aj) + "] - W[" + std::to_string(aj) +
         "][" + std::to_string(ai) + "]| = " + number(asym) + " is " + number(100 * asym / largest) +
         " % of max |W| = " + number(largest) + " (at most " + number(100 * Fc3dLimits::symmetry_tolerance) +
         " % is accepted; every solver assumes W symmetric positive semi-definite)");
}

bool mostly_zero(const SparseMat& W) { return 10 * W.nonZeros() <= W.size(); }

SparseMat sparse_matrix(long size, const std::vector<Eigen::Triplet<Real>>& entries) {
  SparseMat W(size, size);
  W.setFromTriplets(entries.begin(), entries.end());  // sums duplicates
  W.prune(Real(0));                                   // entries that summed to zero
  W.makeCompressed();
  return W;
}

namespace {
bool is_hdf5_name(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".hdf5" || ext == ".h5";
}
}  // namespace

FrictionContactProblem read_fc3d_problem(const std::string& path) {
  FrictionContactProblem p = is_hdf5_name(path) ? read_fclib_hdf5(path) : read_siconos_dat(path);
  check_fc3d_problem(p);
  return p;
}

std::vector<std::string> fc3d_problem_files(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) throw std::invalid_argument(path + ": no such file or directory");
  if (!fs::is_directory(path, ec)) return {path};
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(path)) {
    if (!entry.is_regular_file()) continue;
    if (entry.path().extension() == ".dat" || is_hdf5_name(entry.path())) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace contactlab
