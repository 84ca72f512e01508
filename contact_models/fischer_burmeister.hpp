// Hard Coulomb friction written as a non-smooth residual (Ostrich; MATH.md B.1):
// a Fischer–Burmeister NCP for the normal and maximal-dissipation friction
// with the compliance weight W frozen within a Newton iteration. Its solution
// set is the de Saxce law's (Signorini + Coulomb + maximal dissipation), so the
// cone operations used by projection solvers (PADMM, PGS) are the de Saxce ones;
// Newton-type solvers use ncp_residual() and safeguard().
#pragma once

#include "contact_models/desaxce.hpp"
#include "contact_models/fb_math.hpp"

namespace contactlab {

struct FischerBurmeisterOptions {
  Real smoothing = 1e-8;        // eps of phi_eps (m/s): complementarity holds as v_n beta lambda_n = eps^2/2
  Real friction_epsilon = 1e-8; // guard of |v_t| in W (m/s)
  Real max_weight = 1e5;        // upper clamp of W, relative to the tangential Delassus scale
};

class FischerBurmeisterModel final : public DeSaxceCones {
 public:
  bool uses_hard_coulomb_cones() const override { return true; }
  ContactKernel contact_kernel() const override { return {ContactKernel::Kind::HardCone, 0, this}; }
  std::string name() const override { return "fischer_burmeister"; }
  bool has_ncp_residual() const override { return true; }
  void ncp_residual(const Real* mu, int nc, const Real* lambda, const Real* v, const Real* scale, Real* r, Real* a,
                    Real* c, Real* weight) const override;
  void safeguard(const Real* mu, int nc, Real* lambda) const override;
  void bind_options(OptionSet& set, const std::string& prefix) override;
  FischerBurmeisterOptions options;
};

}  // namespace contactlab
