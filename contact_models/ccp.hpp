// Compliant convex cone complementarity (Anitescu's CCP with the compliance
// and gap recovery of CQDC-Warp; MATH.md A.3, B.3; Anitescu 2006, S2 §IV-A).
//
// Velocity form. With sigma = J u+ + bias the contact velocity after the step
// (bias = the scheme's normal gap term, eta g/h for a penetration g < 0), and
// R = rho_c I the compliance of each contact's three rows:
//   K_mu ∋ lambda _|_ sigma + rho_c lambda ∈ K_mu*
//   <=> lambda = Pi_{K_mu}(-sigma)/rho_c = -(sigma - Pi_{K*}(sigma))/rho_c,
// minus the gradient of the convex penalty |sigma - Pi_{K*}(sigma)|^2/(2 rho_c)
// (zones in ccp_zones.hpp, MATH.md B.3).
// In a solver's variables v+ = D lambda + v_f with D = J M^-1 J^T + diag(R),
// v+ = sigma + rho_c lambda and the law is the plain CCP K ∋ lambda _|_ v+ ∈ K*
// (no de Saxce shift: velocity_shift() is zero), i.e. the dual problem
//   min_{lambda in K} 1/2 lambda^T (D + rho_c I) lambda + lambda^T v_f,
// strictly convex for rho_c > 0, which any dual solver (padmm) or the primal
// convex_newton solves.
//
// Gliding (physical for this model, not a solver error): while sliding the
// law puts v+ on the boundary of K*, v+_n = mu |v+_t|, instead of de Saxce's
// v+_n = 0: a sliding body separates at mu |v_t|. Measured (tests/contact_models/test_ccp.cpp,
// docs/solver_convex_newton.md): a unit particle with v_free = (-0.1, 2, 0),
// mu = 0.5 leaves at sigma = (0.78, 1.56, 0) (de Saxce: (0, 1.95, 0)); a 1 kg
// cube sliding at 2 m/s on a plane (h = 1 ms) is launched at 0.80 m/s, flies
// (33 mm high) and, once it lands, hovers at gap h mu |v_t| (0.39 mm at 0.78
// m/s) under the scheme's full closure of positive gaps. Sticking and
// separating contacts are unaffected.
//
// Defaults (units: rho_c in (m/s)/(N s) = 1/kg, like an inverse mass):
//  - compliance rho_c = 1e-6 /kg. Against a body of mass m it adds a mobility
//    rho_c m = 1e-6 times the body's own behind the contact: at rest the penetration is rho_c m g h^2/eta (1 kg, h = 1 ms,
//    eta = 0.1: ~1e-10 m), a sticking contact under a tangential force F_t
//    creeps at rho_c F_t h (~5e-9 m/s at 5 N), an impact keeps a fraction
//    ~rho_c m of the approach speed; gliding does not depend on rho_c.
//    Smaller values change nothing visible and only raise the conditioning of
//    convex_newton's Hessian (~1/(rho_c m)); its rho continuation keeps cold
//    solves at ~9 iterations down to 1e-8 (docs/solver_convex_newton.md).
//  - gap_recovery eta = 0.1: fraction of a penetration removed per step,
//    the scheme's contact Baumgarte default (docs/design.md); it replaces the
//    scheme's value through penetration_recovery(). CQDC applies eta to every
//    gap; here positive gaps keep the scheme's full closure so that a body is
//    not stopped short of the surface.
#pragma once

#include "core/contact_model.hpp"

namespace contactlab {

struct CcpOptions {
  Real compliance = 1e-6;   // rho_c, (m/s)/(N s) = 1/kg, > 0, on each contact's 3 rows
  Real gap_recovery = 0.1;  // eta, fraction of a penetration removed per step, [0, 1]

  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
};

class CcpModel final : public ContactModel {
 public:
  CcpModel() = default;
  explicit CcpModel(const CcpOptions& options) : options(options) {}

  std::string name() const override { return "ccp"; }
  bool is_convex() const override { return true; }
  bool is_hard() const override { return false; }
  void project_primal(const Real* mu, int nc, Real* x) const override;
  void project_dual(const Real* mu, int nc, Real* x) const override;
  ContactKernel contact_kernel() const override { return {ContactKernel::Kind::ConvexCone, 0, this}; }
  // Zero: CCP has no de Saxce shift.
  void velocity_shift(const Real* mu, int nc, const Real* v, Real* s) const override;
  // rho_c on every contact row (validates the options first).
  void contact_compliance(const Real* mu, int nc, Real* R) const override;
  // eta, whatever the scheme's default (validates the options first).
  Real penetration_recovery(Real scheme_default) const override;
  void bind_options(OptionSet& set, const std::string& prefix) override;

  // The linearisation of the plain cone complementarity K ∋ lambda ⊥ v+ ∈ K*
  // (contact_models/cone_relations.hpp without the shift: sliding contacts
  // glide, their normal relation is sigma_n = mu |sigma_t|).
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

  // The convex penalty |r - Pi_{K*}(r)|^2/(2 rho) of each contact and its
  // zones (contact_models/ccp_zones.hpp, MATH.md B.3, C.3): what
  // convex_newton minimises and its Hessian adjoint differentiates. Zones as
  // modes: top separating, bottom sticking, middle sliding; the middle zone's
  // curvature from the impulse uses its gap mu t - r_n = rho (1 + mu^2)
  // lambda_n; d lambda/d mu: ccp::impulse_mu_derivative.
  bool has_convex_penalty() const override { return true; }
  void convex_penalty(const Real* mu, int nc, const Real* rho, const Real* r, Real* cost, Real* lambda,
                      Real* H) const override;
  void convex_penalty_along(const Real* mu, int nc, const Real* rho, const Real* r, const Real* s, Real a, Real* pen,
                            Real* dpen, Real* d2pen) const override;
  void convex_penalty_hessian_from_impulse(const Real* mu, int nc, const Real* rho, const Real* r, const Real* lambda,
                                           Real* H) const override;
  void convex_penalty_zones(const Real* mu, int nc, const Real* r, ContactMode* zones) const override;
  void convex_impulse_mu_derivative(const Real* mu, int nc, const Real* rho, const Real* r, const Real* lambda,
                                    Real* out) const override;

  CcpOptions options;
};

}  // namespace contactlab
