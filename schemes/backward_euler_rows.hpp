// The rows of a backward-Euler step at a solver iterate (schemes/backward_euler_scheme.hpp):
// the state at q+ = q- + h G(q-) u+, position rows c(q+)/h, velocity rows
// J(q+) u+ + bias, and the Jacobian the impulses act along. Used by the
// scheme (as the problem's RowEvaluator) and by the backward-Euler adjoint.
#pragma once

#include <algorithm>
#include <vector>

#include "core/constraint_problem.hpp"
#include "core/data.hpp"
#include "core/model.hpp"
#include "geometry/contact_motion.hpp"
#include "schemes/assembly.hpp"

namespace contactlab {

// Scratch of one world: the state at the solver's iterate and the rows
// evaluated there. Lives in Data::scheme_workspace (no allocation once sized).
class BackwardEulerRows final : public SchemeWorkspace, public RowEvaluator {
 public:
  const Model* model = nullptr;
  const Data* base = nullptr;   // the world at q- (contacts, u_free, linearised problem)
  Real h = 0;
  bool jacobian_at_q_plus = false;
  Data at;                      // state at the iterate; its problem holds J(q_k) and c(q_k)/h
  std::vector<Real> base_bias;  // (m) bias of each row at q-: v_f - J(q-) u_free
  std::vector<Real> u;          // (6 nb) u_k = u_free + delta
  std::vector<Real> Ju;         // (m) J(q_k) u_k
  std::vector<ConstraintRow> rows_at_plus;  // (m) J at the accepted q+
  std::vector<Real> accepted_delta;         // (6 nb) the solver's returned iterate
  std::vector<Real> w_scratch;              // (m)
  ContactMotion contacts;   // the q- contacts carried to the iterate
  std::vector<Mat3> turn;  // (nb) J_l(h w_b)^T at the iterate

  // Rows whose value is position-level: joint and loop rows (no compliance),
  // limits, contact normals. The others (friction, servos) are velocity rows.
  static bool position_row(const ConstraintProblem& p, int r) {
    if (r < p.num_bilateral) return p.compliance[r] == 0;
    if (r < p.contact_offset()) return true;
    return (r - p.contact_offset()) % 3 == 0;
  }

  void setup() {
    const ConstraintProblem& p = base->problem;
    base_bias.resize(p.num_rows());
    p.apply_J(base->u_free.data(), base_bias.data());
    for (int r = 0; r < p.num_rows(); ++r) base_bias[r] = p.v_free[r] - base_bias[r];
    u.resize(base->u_free.size());
    Ju.resize(p.num_rows());
    turn.resize(model->num_bodies());
    contacts.capture(*model, *base);
  }

  // BackwardEulerStepAdjoint::evaluate_tangent (adjoints/) mirrors this over
  // dual numbers for the exact pull-back: a change here needs the same there
  // (tests/sim/test_gradients.cpp compares the two pull-backs).
  void evaluate(const Real* delta, Real* w, std::vector<ConstraintRow>& rows) override {
    const Model& m = *model;
    const Data& d0 = *base;
    Data& dk = at;
    for (size_t i = 0; i < u.size(); ++i) u[i] = d0.u_free[i] + delta[i];
    // q_k = q- + h G(q-) u_k.
    for (int b = 0; b < m.num_bodies(); ++b) {
      dk.x_W[b] = d0.x_W[b];
      dk.q_WB[b] = d0.q_WB[b];
      if (m.bodies[b].fixed) continue;
      const Vec3 v(u[6 * b], u[6 * b + 1], u[6 * b + 2]);
      const Vec3 om(u[6 * b + 3], u[6 * b + 4], u[6 * b + 5]);
      dk.x_W[b] = d0.x_W[b] + h * v;
      dk.q_WB[b] = integrate_quaternion(d0.q_WB[b], om, h);
      dk.v_W[b] = v;
      dk.w_W[b] = om;
    }
    // Contacts follow their features (geometry/contact_motion.hpp).
    contacts.evaluate(m, dk, dk.contacts);
    // Rows at q_k: the assembly's biases with full correction are c(q_k)/h.
    const RowBiasOptions full = full_correction_bias(1);
    std::fill(dk.u_free.begin(), dk.u_free.end(), 0.0);
    assemble_problem(m, dk, h, full);
    const ConstraintProblem& pk = dk.problem;
    const ConstraintProblem& p0 = d0.problem;
    pk.apply_J(u.data(), Ju.data());
    for (int r = 0; r < p0.num_rows(); ++r)
      w[r] = position_row(p0, r) ? pk.v_free[r] : Ju[r] + base_bias[r];
    // The impulses act along J at q- (Ostrich) or along the derivative of the
    // rows with respect to u+ (fully implicit).
    if (!jacobian_at_q_plus) {
      rows = p0.rows;
      return;
    }
    // Position rows: d c(q+)/du+ is J(q+) with each body's angular block turned
    // by the left Jacobian of the exponential map the integrator uses
    // (q+ = Exp(h w) q-). Without it Newton's linearisation is off by a
    // rotation of h|w|/2 (11° for a wheel at 4 rad/s and h = 0.1 s) and stalls.
    // Velocity rows J(q+) u+ have J(q+) as their derivative (their points
    // follow the features, not the rotation).
    rows = pk.rows;
    for (int b = 0; b < m.num_bodies(); ++b) turn[b] = so3_left_jacobian(h * dk.w_W[b]).transpose();
    for (int r = 0; r < p0.num_rows(); ++r) {
      if (!position_row(p0, r)) continue;
      ConstraintRow& row = rows[r];
      if (row.body_a >= 0) row.J_a.tail<3>() = turn[row.body_a] * row.J_a.tail<3>();
      if (row.body_b >= 0) row.J_b.tail<3>() = turn[row.body_b] * row.J_b.tail<3>();
    }
  }

  // Position rows are periodic in rotation: a body turned by 2π about any axis
  // satisfies its joint rows again. A Newton step that turns a body by a
  // large angle can land on such a far root (measured: a wheel of
  // wheeled_pallet at h = 0.1 s picked up 62.8 rad/s = 2π/h about the axis
  // its hinge forbids). Each step therefore turns a body by at most
  // kMaxTurnPerIterate; the iterates stay on the branch of the start.
  static constexpr Real kMaxTurnPerIterate = 0.5;  // rad
  Real step_limit(const Real* d_delta) const override {
    Real largest = 0;
    for (int b = 0; b < model->num_bodies(); ++b) {
      const Vec3 dw(d_delta[6 * b + 3], d_delta[6 * b + 4], d_delta[6 * b + 5]);
      largest = std::max(largest, h * dw.norm());
    }
    return largest > kMaxTurnPerIterate ? kMaxTurnPerIterate / largest : Real(1);
  }

  void accept(const Real* delta) override {
    accepted_delta.assign(delta, delta + u.size());
    w_scratch.resize(base->problem.num_rows());
    evaluate(delta, w_scratch.data(), rows_at_plus);
  }
};

}  // namespace contactlab
