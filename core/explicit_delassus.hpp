// The Delassus matrix W of a standalone local problem u = W r + q (a Siconos
// or FCLib file), behind the few operations solvers need, stored dense or
// sparse (compressed columns). The files of the collection are 1.6-4 % full
// above 200 contacts, so the sparse form makes W x and column updates ~50x
// cheaper there; solvers that factorise W get it dense (to_dense).
#pragma once

#include <Eigen/SparseCore>

#include "core/math.hpp"

namespace contactlab {

using SparseMat = Eigen::SparseMatrix<Real, Eigen::ColMajor, int>;

class ExplicitDelassus {
 public:
  // Throw std::invalid_argument when W is not square or has a NaN or inf
  // entry. A zero or singular W is accepted (solvers then report that they
  // did not converge; io/fc3d_io.hpp's check_fc3d_problem refuses it).
  explicit ExplicitDelassus(MatX W);
  explicit ExplicitDelassus(SparseMat W);

  int size() const { return size_; }
  bool sparse() const { return is_sparse_; }
  // Exact symmetry up to 1e-14 of the largest entry (files from other codes
  // are not always symmetric: Siconos' Rover and Capsules problems).
  bool symmetric() const { return symmetric_; }
  Real diagonal(int r) const { return diagonal_[r]; }
  Real entry(int i, int j) const;
  // y = W x (y must not alias x).
  void multiply(const Real* x, Real* y) const;
  // y += s W e_j.
  void add_column(int j, Real s, Real* y) const;
  void to_dense(MatX& D) const;
  long stored_entries() const;
  // The stored matrix: the sparse one (null when dense) or the dense one (null when sparse).
  const SparseMat* sparse_matrix() const { return is_sparse_ ? &sparse_ : nullptr; }
  const MatX* dense_matrix() const { return is_sparse_ ? nullptr : &dense_; }

 private:
  void finish();
  int size_ = 0;
  bool is_sparse_ = false;
  bool symmetric_ = true;
  MatX dense_;
  SparseMat sparse_;
  VecX diagonal_;
};

}  // namespace contactlab
