// Quasi-dynamic scheme (CQDC; MATH.md A.3, S2 §III-A, IV-B): a displacement-
// level step without inertial transients, in maximal coordinates.
//
// CQDC's revised model solves, for the displacement dq of one step,
//   Q dq + b = sum_i J_i^T lambda_i (+ contact law),
//   Q = M/h^2 + K_p,   b = -K_p (q_cmd - q) - tau.
// In this code base's velocity variables (dq = h u+) that is the velocity
// scheme's problem (schemes/velocity_scheme.hpp) with the momentum of the previous
// step dropped:
//   u_free = h M^-1 f(q-)        (instead of u- + h M^-1 f(q-, u-)),
//   u+ = u_free + M^-1 J^T lambda,   x+ = x- + h v+,  q+ = exp(h w+/2) q-.
// Multiplying the velocity problem's cost 1/2 u^T M u - u^T M u_free by 1/h^2
// gives 1/2 dq^T (M/h^2) dq - f^T dq: Q = M/h^2 with the full (block-diagonal
// in maximal coordinates) mass matrix, b = -f. Position servos are the
// velocity scheme's implicit compliant rows (R = 1/m_j, m_j = a + h k_d +
// h^2 k_p, bias -(q_ref - q)/h when the joint starts at rest); eliminating the
// row adds 1/2 k_p (J dq - (q_ref - q))^2, i.e. Q += J^T K_p J and
// b -= J^T K_p (q_ref - q): exactly the revised Q and b. Alone on its joint a
// servo moves the joint by k_p h^2 / (m + k_p h^2) of its error per step. The
// coupling between actuated and unactuated coordinates that the revised model
// keeps through the full M(q) is here carried by the joint rows between the
// bodies' own (exact) masses. Mapping details and measurements:
// docs/quasi_dynamic.md.
//
// Consequences: velocities never accumulate (a free body under gravity moves
// h^2 g per step, every step), a body moves only while a force pushes it, and
// impacts, restitution and gyroscopic torques vanish (u- = 0 before the step).
// After the solve the stored velocity is u+ = dq/h, for output only: the next
// step drops it again. Time is not physical time: a displacement takes
// m/(F h^2) steps, so CQDC uses large h.
//
// Implementation: the velocity scheme's phases (prepare, solver.solve,
// finish) on a world whose twists are set to zero first, so collision,
// assembly, warm start, metrics and the contact cache are the velocity
// scheme's own code. accepts() takes every law and solver the velocity scheme
// takes; CQDC itself pairs this scheme with `ccp` + `convex_newton`.
#pragma once

#include "core/scheme.hpp"
#include "schemes/velocity_scheme.hpp"

namespace contactlab {

struct QuasiDynamicOptions {
  enum : int { kDropAll = 0, kDropNone = 1 };
  // Which velocities are dropped before each step: all bodies (CQDC), or none
  // (the velocity scheme, for ablations and as a consistency check).
  int drop = kDropAll;
  // Stabilisation, collision and warm start, as the velocity scheme's options
  // of the same names (bound under the same keys). Restitution and gyroscopic
  // torque act on u-, which is zero here; they keep the velocity defaults and
  // only matter with drop = none.
  VelocitySchemeOptions stepping;

  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
};

class QuasiDynamicScheme final : public Scheme {
 public:
  QuasiDynamicScheme() = default;
  explicit QuasiDynamicScheme(const QuasiDynamicOptions& options) : options(options) {}

  std::string name() const override { return "quasi_dynamic"; }
  bool accepts(const ContactModel& law, const Solver& solver, std::string* why) const override;
  // The phases, as VelocityScheme's: prepare drops the velocities (per
  // options.drop) and assembles; finish integrates and stores u+.
  void prepare(const Model& model, Data& data, const ContactModel& law, Real h) const override;
  void finish(const Model& model, Data& data, const ContactModel& law, Real h) const override;
  void bind_options(OptionSet& set, const std::string& prefix) override;

  QuasiDynamicOptions options;

 private:
  VelocityScheme phases() const;
};

}  // namespace contactlab
