// Velocity-level scheme with Baumgarte stabilisation (Kamino; MATH.md A.2).
//
//   u+ = u_free + M^-1 J^T lambda,  u_free = u- + h M^-1 f(q-, u-)
//   v+ = J u+ + R lambda + v_b + v_i  (bias v_b, restitution v_i)
// with J, gaps and joint residuals evaluated at q-, then the semi-implicit
// Euler update x+ = x- + h v+, q+ = exp(h w+/2) q-.
//
// Biases: joint rows v_b = (alpha/h) c(q-); limit and contact rows use the
// one-sided form v_b = gamma min(0, xi) + max(0, xi), xi = d/h (positive gaps
// may close within the step, a fraction gamma of a penetration is removed).
// Newton restitution: v_i = e (J_n u-) for a contact that closes within the
// step while approaching (its positive-gap allowance is then dropped, so the
// bounce starts from the measured impact velocity).
// Servos, damping and armature are implicit compliant rows (Kamino A.1.3):
//   J_q u+ + lambda/m_j = qd_b,  m_j = a + h b + h k_d + h^2 k_p,
//   qd_b = (a qd- + h (k_p (q_ref - q-) + k_d qd_ref)) / m_j
// which is stable for any gain and step.
#pragma once

#include "core/scheme.hpp"
#include "schemes/assembly.hpp"

namespace contactlab {

struct VelocitySchemeOptions {
  Real baumgarte = 0.1;          // joint/loop position error removed per step (fraction, [0,1])
  Real limit_baumgarte = 0.1;    // joint-limit violation removed per step
  Real contact_baumgarte = 0.1;  // penetration removed per step
  Real contact_slop = 1e-6;      // m, penetration left uncorrected (delta)
  Real contact_margin = 0.02;    // m, contacts are created below this gap (speculative contacts)
  Real restitution = -1;         // overrides every pair's restitution when >= 0
  bool warm_start = true;        // pass the previous step's impulses to the solver
  Real warm_start_radius = 0.02; // m, a previous contact of the same geom pair within this distance is matched
  bool gyroscopic = true;        // explicit gyroscopic torque -w x (I w)
  // Not an option: the fraction of the step over which finish() moves the
  // positions with u+ and over which the rows' position terms are predicted
  // (RowBiasOptions::position_step). 1 here; Moreau's midpoint scheme
  // (schemes/moreau_scheme.hpp) runs these phases from q_m with 1/2.
  Real position_step = 1;
  // Not an option either: RowBiasOptions::armature_basis_drift (false when
  // backward Euler uses these phases as its linearisation).
  bool armature_basis_drift = true;
  void validate() const;
  // The assembly's bias options, with the law's penetration recovery (the
  // law may replace contact_baumgarte, ContactModel::penetration_recovery).
  RowBiasOptions row_bias(Real contact_recovery) const;
};

class VelocityScheme final : public Scheme {
 public:
  std::string name() const override { return "velocity"; }
  bool accepts(const ContactModel& law, const Solver& solver, std::string* why) const override;
  // Collision, free velocity, assembly of data.problem and the warm start in
  // data.warm (invalid when scheme.warm_start is off). Also writes
  // data.metrics.joint_violation (the residual at q-).
  void prepare(const Model& model, Data& data, const ContactModel& law, Real h) const override;
  // Given data.lambda, data.v_plus and data.solve_stats for data.problem:
  // u+ = u_free + M^-1 J^T lambda, positions, time and step, the other
  // metrics and the contact cache for the next warm start.
  void finish(const Model& model, Data& data, const ContactModel& law, Real h) const override;
  void bind_options(OptionSet& set, const std::string& prefix) override;
  VelocitySchemeOptions options;
};

// The velocity scheme's option keys (scheme.baumgarte, ...) bound to `options`
// with its validator: VelocityScheme's and Moreau's scheme.* options.
void bind_velocity_options(OptionSet& set, const std::string& prefix, VelocitySchemeOptions& options);

}  // namespace contactlab
