// Moreau–Jean midpoint scheme (Moreau's time-stepping with theta = 1/2 on the
// positions; Kamino's `moreau` integrator). One step from (q_k, u_k):
//
//   q_m  = q_k + (h/2) u_k              (orientation: q_m = Exp((h/2) w_k) q_k)
//   collision, contact frames, gaps, J and joint residuals at q_m,
//   u_free = u_k + h M^-1(q_m) f(q_m, u_k)
//   M (u+ - u_k) = h f(q_m, u_k) + J(q_m)^T lambda,  the law on v+ = J u+ + R lambda + v_b
//   q_{k+1} = q_m + (h/2) u+            (orientation: Exp((h/2) w+) q_m)
//
// The biases are the velocity scheme's with the midpoint's position terms
// predicted to the end of the step over h/2 (RowBiasOptions::position_step):
// the end-of-step gap is g_m + (h/2) v_n+, so a contact with gap g_m > 0 may
// close within the remaining half step, v_n+ >= -g_m/(h/2), and a fraction
// gamma of a midpoint penetration is removed, v_n+ >= -gamma g_m/(h/2) (the
// end gap is then (1 - gamma) g_m); joints v_b = alpha c(q_m)/(h/2). Newton
// restitution as the velocity scheme's (docs/design.md), with the same
// half-step prediction; with e = 0 it is Moreau's inelastic impact law
// v_n+ >= 0 for an active contact. Servos: the implicit stiffness acts at
// q_{k+1} = q_m + (h/2) qd+, m_j = a + h b + h (h/2) k_p.
//
// The phases are the velocity scheme's own (collision, assembly, warm start,
// solve, metrics, contact cache) run from the midpoint with position_step =
// 1/2; so every law and solver the velocity scheme takes runs here, and the
// solve is the linear problem alone (batches accept it). Metrics that the
// velocity scheme measures at q- (joint_violation, max_penetration) are
// measured at q_m. Equations and measured orders: docs/moreau.md.
#pragma once

#include "core/math.hpp"
#include "core/scheme.hpp"
#include "schemes/velocity_scheme.hpp"

namespace contactlab {

// One half-step drift of a body's pose: x += t v, q = Exp(t w) q (t = h/2 for
// the scheme's two drifts). The forward scheme and its adjoint both use it.
inline void moreau_drift(Vec3& x, Quat& q, const Vec3& v, const Vec3& w, Real t) {
  x += t * v;
  q = integrate_quaternion(q, w, t);
}

class MoreauScheme final : public Scheme {
 public:
  MoreauScheme() { options.position_step = 0.5; }
  std::string name() const override { return "moreau"; }
  bool accepts(const ContactModel& law, const Solver& solver, std::string* why) const override;
  // Drifts the bodies to q_m, then the velocity scheme's prepare there
  // (collision, free velocity, rows, warm start). Between prepare and finish
  // the world's positions are the midpoint's.
  void prepare(const Model& model, Data& data, const ContactModel& law, Real h) const override;
  // u+ from the impulses, the second drift q_{k+1} = q_m + (h/2) u+, metrics,
  // contact cache (the velocity scheme's finish with position_step 1/2).
  void finish(const Model& model, Data& data, const ContactModel& law, Real h) const override;
  void bind_options(OptionSet& set, const std::string& prefix) override;

  // The velocity scheme's options, under the same keys; position_step is 1/2.
  VelocitySchemeOptions options;

 private:
  VelocityScheme phases() const;
};

}  // namespace contactlab
