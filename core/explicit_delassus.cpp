#include "core/explicit_delassus.hpp"

#include <algorithm>
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
  // Every solver multiplies by W: a NaN or inf entry would reach every
  // iterate, so it is refused here, whoever built W.
  const Real* values = is_sparse_ ? sparse_.valuePtr() : dense_.data();
  const long stored = is_sparse_ ? static_cast<long>(sparse_.nonZeros()) : static_cast<long>(dense_.size());
  Real scale = 0;  // the largest |entry| (0 for a zero or empty W)
  for (long k = 0; k < stored; ++k) {
    if (!std::isfinite(values[k])) throw std::invalid_argument("explicit Delassus matrix: W has a non-finite entry");
    scale = std::max(scale, std::abs(values[k]));
  }
  size_ = static_cast<int>(rows);
  diagonal_ = is_sparse_ ? VecX(sparse_.diagonal()) : VecX(dense_.diagonal());
  // Symmetry: compare with the transpose, relative to the largest entry (a
  // zero W, or one with no stored entry, is symmetric).
  Real asym = 0;
  if (is_sparse_) {
    const SparseMat D = sparse_ - SparseMat(sparse_.transpose());
    for (int j = 0; j < D.outerSize(); ++j)
      for (SparseMat::InnerIterator it(D, j); it; ++it) asym = std::max(asym, std::abs(it.value()));
  } else if (size_ > 0) {
    asym = (dense_ - dense_.transpose()).cwiseAbs().maxCoeff();
  }
  symmetric_ = asym <= 1e-14 * scale;
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
