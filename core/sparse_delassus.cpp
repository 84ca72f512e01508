#include "core/sparse_delassus.hpp"

#include <algorithm>

#include "core/islands.hpp"

namespace contactlab {

namespace {

bool moving_body(const ConstraintProblem& pr, int b) { return b >= 0 && moves_in_problem(pr, b); }

}  // namespace

void SparseDelassus::scale(const Real* p) {
  const int m = static_cast<int>(lower_.cols());
  for (int j = 0; j < m; ++j)
    for (int k = lower_.outerIndexPtr()[j]; k < lower_.outerIndexPtr()[j + 1]; ++k)
      lower_.valuePtr()[k] *= p[lower_.innerIndexPtr()[k]] * p[j];
}

bool SparseDelassus::assemble(const ConstraintProblem& pr, const Real* extra) {
  if (pr.explicit_delassus()) assemble_from_explicit(pr, extra);
  else assemble_from_rows(pr, extra);
  const int m = pr.num_rows();
  // The pattern against the previous one (a symbolic factorisation holds while it does).
  const int nnz = static_cast<int>(lower_.nonZeros());
  const int* outer = lower_.outerIndexPtr();
  const int* inner = lower_.innerIndexPtr();
  const bool same = static_cast<int>(previous_outer_.size()) == m + 1 &&
                    static_cast<int>(previous_inner_.size()) == nnz &&
                    std::equal(outer, outer + m + 1, previous_outer_.begin()) &&
                    std::equal(inner, inner + nnz, previous_inner_.begin());
  if (!same) {
    previous_outer_.assign(outer, outer + m + 1);
    previous_inner_.assign(inner, inner + nnz);
  }
  return !same;
}

void SparseDelassus::assemble_from_rows(const ConstraintProblem& pr, const Real* extra) {
  const int m = pr.num_rows(), nb = pr.num_bodies, off = pr.contact_offset();

  // Rows touching each moving body, ascending (a row with both ends on one body once).
  body_row_begin_.assign(nb + 1, 0);
  for (int r = 0; r < m; ++r) {
    const ConstraintRow& row = pr.rows[r];
    if (moving_body(pr, row.body_a)) ++body_row_begin_[row.body_a + 1];
    if (moving_body(pr, row.body_b) && row.body_b != row.body_a) ++body_row_begin_[row.body_b + 1];
  }
  for (int b = 0; b < nb; ++b) body_row_begin_[b + 1] += body_row_begin_[b];
  body_rows_.resize(body_row_begin_[nb]);
  fill_.assign(body_row_begin_.begin(), body_row_begin_.end() - 1);
  minv_a_.resize(m);
  minv_b_.resize(m);
  for (int r = 0; r < m; ++r) {
    const ConstraintRow& row = pr.rows[r];
    const bool a = moving_body(pr, row.body_a), b = moving_body(pr, row.body_b);
    if (a) body_rows_[fill_[row.body_a]++] = r;
    if (b && row.body_b != row.body_a) body_rows_[fill_[row.body_b]++] = r;
    minv_a_[r] = a ? body_minv(pr, row.body_a, row.J_a) : Vec6::Zero();
    minv_b_[r] = b ? body_minv(pr, row.body_b, row.J_b) : Vec6::Zero();
  }

  // (J M^-1 J^T)_ij = sum over the ends of i and j on one body of J_i . M^-1 J_j.
  auto entry = [&](int i, int j) {
    const ConstraintRow& ri = pr.rows[i];
    const ConstraintRow& rj = pr.rows[j];
    Real v = 0;
    if (ri.body_a >= 0) {
      if (ri.body_a == rj.body_a) v += ri.J_a.dot(minv_a_[j]);
      if (ri.body_a == rj.body_b) v += ri.J_a.dot(minv_b_[j]);
    }
    if (ri.body_b >= 0) {
      if (ri.body_b == rj.body_a) v += ri.J_b.dot(minv_a_[j]);
      if (ri.body_b == rj.body_b) v += ri.J_b.dot(minv_b_[j]);
    }
    return v;
  };

  // Column j holds the rows i >= j that share a moving body with j: the
  // merge of the (sorted) row lists of j's bodies from j on.
  begin_columns(m);
  std::vector<int>& col = column_rows_;
  for (int j = 0; j < m; ++j) {
    col.clear();
    col.push_back(j);
    const ConstraintRow& row = pr.rows[j];
    for (const int b : {row.body_a, row.body_b}) {
      if (!moving_body(pr, b)) continue;
      const int* first = body_rows_.data() + body_row_begin_[b];
      const int* last = body_rows_.data() + body_row_begin_[b + 1];
      for (const int* it = std::upper_bound(first, last, j); it != last; ++it) col.push_back(*it);
    }
    std::sort(col.begin() + 1, col.end());
    col.erase(std::unique(col.begin(), col.end()), col.end());
    start_column(j);
    for (const int i : col) {
      Real v = entry(i, j);
      if (i == j) v += pr.compliance[j] + (extra && j >= off ? extra[j - off] : Real(0));
      add_entry(i, j, v);
    }
  }
  finish_columns(m);
}

void SparseDelassus::begin_columns(int m) {
  outer_.resize(m + 1);
  inner_.clear();
  values_.clear();
  diagonal_.resize(m);
}

void SparseDelassus::start_column(int j) { outer_[j] = static_cast<int>(inner_.size()); }

void SparseDelassus::add_entry(int i, int j, Real v) {
  if (i == j) diagonal_[j] = v;
  inner_.push_back(i);
  values_.push_back(v);
}

void SparseDelassus::finish_columns(int m) {
  const int nnz = static_cast<int>(inner_.size());
  outer_[m] = nnz;
  lower_.resize(m, m);
  lower_.resizeNonZeros(nnz);
  std::copy(outer_.begin(), outer_.end(), lower_.outerIndexPtr());
  std::copy(inner_.begin(), inner_.end(), lower_.innerIndexPtr());
  std::copy(values_.begin(), values_.end(), lower_.valuePtr());
}

void SparseDelassus::assemble_from_explicit(const ConstraintProblem& pr, const Real* extra) {
  const int m = pr.num_rows(), off = pr.contact_offset();
  const ExplicitDelassus& W = *pr.explicit_W;
  // The stored entries on and below the diagonal, the diagonal always
  // (the compliance adds to it).
  begin_columns(m);
  for (int j = 0; j < m; ++j) {
    start_column(j);
    add_entry(j, j, W.diagonal(j) + pr.compliance[j] + (extra && j >= off ? extra[j - off] : Real(0)));
    if (const SparseMat* S = W.sparse_matrix()) {
      for (SparseMat::InnerIterator it(*S, j); it; ++it)
        if (it.row() > j && it.value() != 0) add_entry(static_cast<int>(it.row()), j, it.value());
    } else {
      const MatX& D = *W.dense_matrix();
      for (int i = j + 1; i < m; ++i)
        if (D(i, j) != 0) add_entry(i, j, D(i, j));
    }
  }
  finish_columns(m);
}

}  // namespace contactlab
