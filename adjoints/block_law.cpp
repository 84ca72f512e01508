#include "adjoints/block_law.hpp"

#include <stdexcept>

namespace contactlab {

void BlockLaw::assign(const local_relations::Linearisation& L, int num_scalar_rows, int num_contacts) {
  num_scalar_ = num_scalar_rows;
  num_contacts_ = num_contacts;
  const int m = num_rows();
  if (L.C_lambda.rows() != m || L.C_sigma.rows() != m || L.C_mu.cols() != num_contacts)
    throw std::logic_error("BlockLaw: linearisation has the wrong size");
  // The corner's diagonal, not head() of the diagonal: that calls Eigen's
  // Diagonal::data(), which binds a reference to coeff (0, 0), undefined for
  // the empty matrices of a step without rows (UBSan).
  cl_ = L.C_lambda.topLeftCorner(num_scalar_, num_scalar_).diagonal();
  cs_ = L.C_sigma.topLeftCorner(num_scalar_, num_scalar_).diagonal();
  Cl_.resize(num_contacts_);
  Cs_.resize(num_contacts_);
  Cm_.resize(num_contacts_);
  Real inside = 0;
  for (int k = 0; k < num_contacts_; ++k) {
    const int o = num_scalar_ + 3 * k;
    Cl_[k] = L.C_lambda.block<3, 3>(o, o);
    Cs_[k] = L.C_sigma.block<3, 3>(o, o);
    Cm_[k] = L.C_mu.block<3, 1>(o, k);
    inside += Cl_[k].cwiseAbs().sum() + Cs_[k].cwiseAbs().sum() + Cm_[k].cwiseAbs().sum();
  }
  inside += cl_.cwiseAbs().sum() + cs_.cwiseAbs().sum();
  // Block diagonal by construction (local_relations.hpp); checked because a
  // missed coupling would silently change the derivative.
  const Real total = L.C_lambda.cwiseAbs().sum() + L.C_sigma.cwiseAbs().sum() + L.C_mu.cwiseAbs().sum();
  if (!(total - inside <= 1e-12 * (1 + total)))
    throw std::logic_error("BlockLaw: the linearised law couples rows across blocks");
}

void BlockLaw::lambda_T(const VecX& x, VecX& out) const {
  out.resize(num_rows());
  out.head(num_scalar_) = cl_.cwiseProduct(x.head(num_scalar_));
  for (int k = 0; k < num_contacts_; ++k) {
    const int o = num_scalar_ + 3 * k;
    out.segment<3>(o) = Cl_[k].transpose() * x.segment<3>(o);
  }
}

void BlockLaw::sigma_T(const VecX& x, VecX& out) const {
  out.resize(num_rows());
  out.head(num_scalar_) = cs_.cwiseProduct(x.head(num_scalar_));
  for (int k = 0; k < num_contacts_; ++k) {
    const int o = num_scalar_ + 3 * k;
    out.segment<3>(o) = Cs_[k].transpose() * x.segment<3>(o);
  }
}

void BlockLaw::mu_T(const VecX& x, VecX& out) const {
  out.resize(num_contacts_);
  for (int k = 0; k < num_contacts_; ++k) out[k] = Cm_[k].dot(x.segment<3>(num_scalar_ + 3 * k));
}

bool BlockLaw::rowwise(VecX& a, VecX& c) const {
  const int m = num_rows();
  a.resize(m);
  c.resize(m);
  a.head(num_scalar_) = cs_;
  c.head(num_scalar_) = cl_;
  for (int k = 0; k < num_contacts_; ++k) {
    const Mat3 L = Cl_[k], S = Cs_[k];
    const Mat3 off_l = L - Mat3(L.diagonal().asDiagonal()), off_s = S - Mat3(S.diagonal().asDiagonal());
    if (!off_l.isZero(0) || !off_s.isZero(0)) return false;
    a.segment<3>(num_scalar_ + 3 * k) = S.diagonal();
    c.segment<3>(num_scalar_ + 3 * k) = L.diagonal();
  }
  for (int i = 0; i < m; ++i) {
    if (a[i] != 0 ? !(c[i] / a[i] >= 0) : c[i] == 0) return false;
  }
  return true;
}

Mat3 BlockLaw::lambda_block(int g) const {
  if (g >= num_scalar_) return Cl_[g - num_scalar_];
  Mat3 b = Mat3::Zero();
  b(0, 0) = cl_[g];
  return b;
}

Mat3 BlockLaw::sigma_block(int g) const {
  if (g >= num_scalar_) return Cs_[g - num_scalar_];
  Mat3 b = Mat3::Zero();
  b(0, 0) = cs_[g];
  return b;
}

}  // namespace contactlab
