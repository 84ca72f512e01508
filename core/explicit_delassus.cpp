#include "core/explicit_delassus.hpp"

#include <cmath>
#include <stdexcept>

namespace contactlab {

ExplicitDelassus::ExplicitDelassus(MatX W) : is_sparse_(false), dense_(std::move(W)) { finish(); }

ExplicitDelassus::ExplicitDelassus(SparseMat W) : is_sparse_(true), sparse_(std::move(W)) {
  sparse_.makeCompressed();
  finish();
}

void ExplicitDelassus::finish() {
  const long rows = is_sparse_ ? sparse_.rows() : dense_.rows();
  const long cols = is_sparse_ ? sparse_.cols() : dense_.cols();
  if (rows != cols) throw std::invalid_argument("explicit Delassus matrix: W must be square");
  size_ = static_cast<int>(rows);
  diagonal_ = is_sparse_ ? VecX(sparse_.diagonal()) : VecX(dense_.diagonal());
  // Symmetry: compare with the transpose, relative to the largest entry.
  if (is_sparse_) {
    const SparseMat T = sparse_.transpose();
    const Real scale = size_ ? Eigen::Map<const VecX>(sparse_.valuePtr(), sparse_.nonZeros()).cwiseAbs().maxCoeff() : 0;
    symmetric_ = size_ == 0 || (SparseMat(sparse_ - T)).coeffs().cwiseAbs().maxCoeff() <= 1e-14 * scale;
  } else {
    const Real scale = size_ ? dense_.cwiseAbs().maxCoeff() : 0;
    symmetric_ = size_ == 0 || (dense_ - dense_.transpose()).cwiseAbs().maxCoeff() <= 1e-14 * scale;
  }
}

Real ExplicitDelassus::entry(int i, int j) const { return is_sparse_ ? sparse_.coeff(i, j) : dense_(i, j); }

void ExplicitDelassus::multiply(const Real* x, Real* y) const {
  Eigen::Map<const VecX> xv(x, size_);
  Eigen::Map<VecX> yv(y, size_);
  if (is_sparse_) yv.noalias() = sparse_ * xv;
  else yv.noalias() = dense_ * xv;
}

void ExplicitDelassus::add_column(int j, Real s, Real* y) const {
  if (is_sparse_) {
    for (SparseMat::InnerIterator it(sparse_, j); it; ++it) y[it.row()] += s * it.value();
  } else {
    Eigen::Map<VecX>(y, size_) += s * dense_.col(j);
  }
}

void ExplicitDelassus::to_dense(MatX& D) const {
  if (is_sparse_) D = MatX(sparse_);
  else D = dense_;
}

long ExplicitDelassus::stored_entries() const {
  return is_sparse_ ? static_cast<long>(sparse_.nonZeros()) : static_cast<long>(dense_.size());
}

}  // namespace contactlab
