// The Delassus matrix D = J M^-1 J^T + diag(R) assembled sparse, straight
// from the rows: D_rs is non-zero only when rows r and s share a moving body,
// so a contact's 3x3 block couples only the contacts and joints of its two
// bodies. The lower triangle is stored in compressed columns (Eigen's
// SparseMatrix, column major), which is what a sparse Cholesky/LDL^T reads.
//
// Cost: O(sum over bodies of (rows touching the body)^2) per assembly,
// against O(m^2 (m + nb)) for the dense one. Buffers keep their capacity, and
// the pattern of the previous assembly is remembered so that a caller can
// reuse a symbolic factorisation while it holds.
#pragma once

#include <vector>

#include "core/constraint_problem.hpp"
#include "core/explicit_delassus.hpp"

namespace contactlab {

class SparseDelassus {
 public:
  // Assembles the lower triangle of D + diag(extra) (extra: an addition on
  // the contact rows, 3 nc entries, or nullptr). A problem given by an
  // explicit W takes its lower triangle (W must be symmetric: the caller
  // checks). Returns whether the sparsity pattern differs from the previous
  // call's.
  bool assemble(const ConstraintProblem& problem, const Real* extra_contact_diagonal);
  // Scales the assembled matrix to P D P (p: m entries).
  void scale(const Real* p);

  const SparseMat& lower() const { return lower_; }
  // The diagonal of the last assembly (before any scaling).
  const std::vector<Real>& diagonal() const { return diagonal_; }

 private:
  void assemble_from_rows(const ConstraintProblem& problem, const Real* extra);
  void assemble_from_explicit(const ConstraintProblem& problem, const Real* extra);
  // The columns are built in order into outer_/inner_/values_, then copied
  // into lower_ (one pass over the pattern, one copy of it).
  void begin_columns(int m);
  void start_column(int j);
  void add_entry(int i, int j, Real v);  // i >= j, in ascending i within column j
  void finish_columns(int m);

  SparseMat lower_;
  std::vector<Real> diagonal_;
  // Rows touching each body, in ascending order (compressed: body_row_begin_).
  std::vector<int> body_row_begin_, body_rows_, fill_;
  // M^-1 j of each row's two ends (zero where the end is the world or static).
  std::vector<Vec6> minv_a_, minv_b_;
  // The column being built, the columns built so far, and the previous pattern.
  std::vector<int> column_rows_, outer_, inner_, previous_outer_, previous_inner_;
  std::vector<Real> values_;
};

}  // namespace contactlab
