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
#pragma once

#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "core/constraint_problem.hpp"
#include "core/math.hpp"

namespace contactlab {

struct FrictionContactProblem {
  std::string name;       // file stem
  int dimension = 3;
  int num_contacts = 0;
  int storage = 0;        // as stored: 0 dense, 1 sparse block, 2 sparse
  SparseMat W;            // (3 nc x 3 nc)
  VecX q;                 // (3 nc)
  VecX mu;                // (nc)

  // The problem as a ConstraintProblem solvers take (explicit Delassus W),
  // with W held dense, sparse, or (auto) sparse when at most 10 % of its
  // entries are non-zero (W x and column updates then cost ~nnz, not m^2).
  enum class Storage { Auto, Dense, Sparse };
  ConstraintProblem to_constraint_problem(Storage storage = Storage::Auto) const;
};

// Throws std::invalid_argument naming the file (and the token) on malformed input.
FrictionContactProblem read_siconos_dat(const std::string& path);

// Whether W is worth holding sparse: at most 10 % of its entries non-zero
// (our solvers and the Siconos peer use the same rule).
bool mostly_zero(const SparseMat& W);

// W from (row, column, value) entries: duplicates summed, zeros dropped.
SparseMat sparse_matrix(long size, const std::vector<Eigen::Triplet<Real>>& entries);

// By extension: .hdf5 / .h5 -> read_fclib_hdf5 (io/fclib_io.hpp), anything
// else (.dat, including Siconos' "*.hdf5.dat" exports) -> read_siconos_dat.
FrictionContactProblem read_fc3d_problem(const std::string& path);

// The problem files (.dat, .hdf5, .h5) of a directory, sorted by name, or the
// path itself when it is a file. Throws naming a path that does not exist.
std::vector<std::string> fc3d_problem_files(const std::string& path);

}  // namespace contactlab
