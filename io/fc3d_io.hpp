// Frictional-contact problems in local form, u = W r + q with r_i in the
// Coulomb cone K_mu_i and u_i + Gamma(u_i) in its dual (normal first), read
// from the files of the field's benchmark collections (../shared/data/fc3d):
//   Siconos .dat  dimension, number of contacts, then a NumericsMatrix —
//                 storage 0 dense (column-major values), 1 sparse block (the
//                 block structure then each block, column-major), 2 sparse
//                 (CSparse: triplet, compressed column or compressed row) —
//                 then q and mu (older files end with an isComplete flag).
//                 Errors name the file, the line and what was expected.
// W is held sparse (compressed columns, zeros dropped): a problem costs its
// non-zeros, not m^2 (the collection's problems above 200 contacts are
// 1.6-4 % full); MatX(problem.W) gives it dense.
//
// Loading (read_fc3d_problem) is two steps: the reader checks the format
// (sizes as declared, every value finite, mu >= 0, nothing after mu, the
// limits below), then check_fc3d_problem checks the problem itself (W not
// zero, no zero or negative diagonal entry, symmetric within 5 %), which
// every solver assumes. docs/reliability.md gives the limits and why.
#pragma once

#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "core/constraint_problem.hpp"
#include "core/math.hpp"

namespace contactlab {

// What a problem file may hold (a file beyond them is refused before it can
// exhaust memory or time). The largest problem of ../shared/data/fc3d is 570
// contacts (KaplasTower: a 4 MB file, 116784 non-zeros, a longest line of
// 56 KB): each limit leaves a margin of 60x or more over it.
struct Fc3dLimits {
  static constexpr long max_file_bytes = 256L << 20;     // 256 MiB (also for .hdf5)
  static constexpr long max_line_bytes = 16L << 20;      // 16 MiB per line
  static constexpr long max_word_bytes = 256;            // a number or keyword; longer is not text of ours
  static constexpr long max_contacts = 100000;           // m = 3 nc <= 300000 rows
  static constexpr long max_nonzeros = 1L << 24;         // 16.8 M stored entries of W (~400 MB in memory)
  static constexpr double symmetry_tolerance = 0.05;     // max |W - W^T| / max |W|
  static constexpr long max_dense_bytes = 4L << 30;      // W held dense (--delassus dense): m^2 doubles <= 4 GiB
};

struct FrictionContactProblem {
  std::string name;       // file stem
  std::string source;     // the file it was read from (messages name it); empty for a problem built in code
  int dimension = 3;
  int num_contacts = 0;
  int storage = 0;        // as stored: 0 dense, 1 sparse block, 2 sparse
  SparseMat W;            // (3 nc x 3 nc)
  VecX q;                 // (3 nc)
  VecX mu;                // (nc)

  // The problem as a ConstraintProblem solvers take (explicit Delassus W),
  // with W held dense, sparse, or (auto) sparse when at most 10 % of its
  // entries are non-zero (W x and column updates then cost ~nnz, not m^2).
  // Dense W over Fc3dLimits::max_dense_bytes throws std::invalid_argument.
  enum class Storage { Auto, Dense, Sparse };
  ConstraintProblem to_constraint_problem(Storage storage = Storage::Auto) const;
};

// Throws std::invalid_argument naming the file (and the line and token) on
// malformed input: a directory, a file over Fc3dLimits (size, line, word,
// contacts, non-zeros), sizes other than declared, a truncated file, data
// after mu, a value that is not a finite number (nan, inf, 1e400; values
// that underflow, such as 1e-620, read as 0), mu < 0. The problem itself is
// checked by check_fc3d_problem (read_fc3d_problem does both).
FrictionContactProblem read_siconos_dat(const std::string& path);

// Throws std::invalid_argument naming the problem (its source file, else its
// name) when it is not one our solvers can take: sizes inconsistent
// (W 3 nc x 3 nc, q 3 nc, mu nc), a non-finite entry of W or q, mu negative
// or not finite, W zero (every entry 0, e.g. all underflowing: u = q
// whatever r, no solution in general), a zero diagonal entry of W ("W is
// singular at contact k": that row of r has no effect on its own velocity),
// a negative one (W not positive semi-definite), or W not symmetric:
// max |W_ij - W_ji| > Fc3dLimits::symmetry_tolerance max |W| (the
// collection's worst, RockPile_tob1, is 0.25 %).
void check_fc3d_problem(const FrictionContactProblem& problem);

// Whether W is worth holding sparse: at most 10 % of its entries non-zero
// (our solvers and the Siconos peer use the same rule).
bool mostly_zero(const SparseMat& W);

// W from (row, column, value) entries: duplicates summed, zeros dropped.
SparseMat sparse_matrix(long size, const std::vector<Eigen::Triplet<Real>>& entries);

// By extension: .hdf5 / .h5 -> read_fclib_hdf5 (io/fclib_io.hpp), anything
// else (.dat, including Siconos' "*.hdf5.dat" exports) -> read_siconos_dat;
// then check_fc3d_problem.
FrictionContactProblem read_fc3d_problem(const std::string& path);

// The problem files (.dat, .hdf5, .h5) of a directory, sorted by name, or the
// path itself when it is a file. Throws naming a path that does not exist.
std::vector<std::string> fc3d_problem_files(const std::string& path);

}  // namespace contactlab
