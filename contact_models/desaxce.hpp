// Hard Coulomb friction as a second-order-cone complementarity with the
// de Saxce shift (de Saxce & Feng 1998; Kamino; MATH.md B.2):
//   K_mu ∋ lambda _|_ v + Gamma_mu(v) ∈ K_mu*,   Gamma_mu(v) = (mu |v_t|, 0, 0).
// Equivalent to Signorini + Coulomb + maximal dissipation at velocity level:
// separating (lambda = 0), sticking (v = 0), sliding (v_n = 0,
// lambda_t = -mu lambda_n v_t/|v_t|). No compliance.
#pragma once

#include "core/contact_model.hpp"

namespace contactlab {

// The cone operations of the de Saxce law, shared by the laws that have its
// solution set (fischer_burmeister) or relax it (central_path overrides the
// projections, keeping the shift).
class DeSaxceCones : public ContactModel {
 public:
  bool is_convex() const override { return false; }
  bool is_hard() const override { return true; }
  void project_primal(const Real* mu, int nc, Real* x) const override;
  void project_dual(const Real* mu, int nc, Real* x) const override;
  void velocity_shift(const Real* mu, int nc, const Real* v, Real* s) const override;
  void contact_compliance(const Real* mu, int nc, Real* R) const override;
};

class DeSaxceModel final : public DeSaxceCones {
 public:
  bool uses_hard_coulomb_cones() const override { return true; }
  std::string name() const override { return "desaxce"; }
  void bind_options(OptionSet&, const std::string&) override {}
};

}  // namespace contactlab
