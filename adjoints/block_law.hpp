// A linearised contact law (local_relations::Linearisation) in the block-
// diagonal form it has: one relation per scalar row (bilateral, limits) and
// a 3 x 3 block per contact, so that products with C_lambda^T, C_sigma^T and
// C_mu^T cost O(m) inside a Krylov iteration instead of O(m^2).
#pragma once

#include <vector>

#include "adjoints/local_relations.hpp"

namespace contactlab {

class BlockLaw {
 public:
  // Throws std::logic_error if L has entries outside the blocks.
  void assign(const local_relations::Linearisation& L, int num_scalar_rows, int num_contacts);

  int num_rows() const { return num_scalar_ + 3 * num_contacts_; }
  int num_scalar_rows() const { return num_scalar_; }
  int num_contacts() const { return num_contacts_; }

  // out = C_lambda^T x, out = C_sigma^T x (m), out = C_mu^T x (num_contacts).
  void lambda_T(const VecX& x, VecX& out) const;
  void sigma_T(const VecX& x, VecX& out) const;
  void mu_T(const VecX& x, VecX& out) const;

  // True when every relation is scalar, c_i dlambda_i + a_i dsigma_i (a =
  // C_sigma's, c = C_lambda's diagonal), with c_i / a_i >= 0 where a_i != 0
  // and c_i != 0 where a_i = 0: the exact and signorini kinds without a
  // sliding contact. Then K^T y = g reduces to a symmetric PSD system
  // (adjoints/rowwise_reduction.hpp).
  bool rowwise(VecX& a, VecX& c) const;

  // The 3 x 3 (contacts) or 1 x 1 (scalar rows, in (0,0)) blocks.
  Mat3 lambda_block(int group) const;
  Mat3 sigma_block(int group) const;
  int num_groups() const { return num_scalar_ + num_contacts_; }
  int group_row(int group) const { return group < num_scalar_ ? group : num_scalar_ + 3 * (group - num_scalar_); }
  int group_size(int group) const { return group < num_scalar_ ? 1 : 3; }

 private:
  int num_scalar_ = 0, num_contacts_ = 0;
  VecX cl_, cs_;                // (num_scalar)
  std::vector<Mat3> Cl_, Cs_;   // (num_contacts)
  std::vector<Vec3> Cm_;        // (num_contacts) column k of C_mu on contact k's rows
};

}  // namespace contactlab
