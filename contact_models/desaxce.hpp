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

  // The linearisation of de Saxce's law (contact_models/cone_relations.hpp
  // with the shift sigma^ = sigma + Gamma(sigma)), shared by the laws with its
  // solution set or its relaxation.
  bool has_linearisation() const override { return true; }
  void contact_modes(const Real* mu, int nc, const Real* lambda, const Real* sigma, const Real* step, Real slip_speed,
                     ContactMode* modes) const override;
  void contact_relations(SensitivityKind kind, const Real* mu, int nc, const ContactMode* modes, Real rho,
                         const RelationScales& scales, const Real* lambda, const Real* sigma,
                         ContactRelationBlock* out) const override;
  bool contact_interior(SensitivityKind kind, const Real* mu, int nc, const Real* lambda,
                        const Real* sigma) const override;
  void relaxed_start(SensitivityKind kind, const Real* mu, int nc, const ContactMode* modes, const Real* step,
                     Real rho, Real* lambda, Real* sigma) const override;
};

class DeSaxceModel final : public DeSaxceCones {
 public:
  bool uses_hard_coulomb_cones() const override { return true; }
  ContactKernel contact_kernel() const override { return {ContactKernel::Kind::HardCone, 0, this}; }
  std::string name() const override { return "desaxce"; }
  void bind_options(OptionSet&, const std::string&) override {}
};

}  // namespace contactlab
