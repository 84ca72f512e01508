#include "adjoints/step_problem.hpp"

#include "core/assembly.hpp"

namespace contactlab {

void StepProblem::capture(const Model& model, const StepInputs& inputs, const VelocitySchemeOptions& scheme,
                          Real law_recovery, Real h) {
  inputs_ = inputs;
  scheme_ = scheme;
  recovery_ = law_recovery;
  h_ = h;
  if (!scratch_ready_) {
    scratch_.init(model);
    scratch_ready_ = true;
  }
  for (int b = 0; b < model.num_bodies(); ++b) {
    scratch_.x_W[b] = inputs.bodies[b].x;
    scratch_.q_WB[b] = inputs.bodies[b].q;
    scratch_.v_W[b] = inputs.bodies[b].v;
    scratch_.w_W[b] = inputs.bodies[b].w;
  }
  scratch_.contacts = inputs.contacts;
  contacts_.capture(model, scratch_, scheme.contact_margin);
}

void load_perturbed_inputs(const Model& model, const StepInputs& inputs, const Real* delta, const Real* ctrl, Data& d) {
  for (int b = 0; b < model.num_bodies(); ++b) {
    const RigidState& s = inputs.bodies[b];
    d.x_W[b] = s.x;
    d.q_WB[b] = s.q;
    d.v_W[b] = s.v;
    d.w_W[b] = s.w;
    if (!delta || model.bodies[b].fixed) continue;
    const Real* z = delta + 12 * b;
    d.x_W[b] += Vec3(z[0], z[1], z[2]);
    d.q_WB[b] = integrate_quaternion(s.q, Vec3(z[3], z[4], z[5]), 1.0);
    d.v_W[b] += Vec3(z[6], z[7], z[8]);
    d.w_W[b] += Vec3(z[9], z[10], z[11]);
  }
  for (size_t a = 0; a < d.ctrl.size(); ++a) d.ctrl[a] = ctrl ? ctrl[a] : inputs.ctrl[a];
}

void StepProblem::evaluate(const Model& model, const Real* delta, const Real* ctrl, StepProblemData& out) {
  const int nb = model.num_bodies();
  Data& d = scratch_;
  load_perturbed_inputs(model, inputs_, delta, ctrl, d);
  contacts_.evaluate(model, d);

  // As VelocityScheme::prepare, without the narrow phase and the warm start.
  compute_free_velocity(model, d, h_, scheme_.gyroscopic);
  RowBiasOptions bias;
  bias.baumgarte = scheme_.baumgarte;
  bias.limit_baumgarte = scheme_.limit_baumgarte;
  bias.contact_baumgarte = recovery_;
  bias.contact_slop = scheme_.contact_slop;
  bias.restitution_override = scheme_.restitution;
  assemble_problem(model, d, h_, bias);

  const ConstraintProblem& p = d.problem;
  out.num_bodies = nb;
  out.num_rows = p.num_rows();
  out.num_contacts = p.num_contacts;
  out.y.resize(out.size());
  for (int i = 0; i < 6 * nb; ++i) out.y[out.u_free_at() + i] = d.u_free[i];
  for (int b = 0; b < nb; ++b) {
    out.y[out.inv_mass_at() + b] = p.inv_mass[b];
    Eigen::Map<Mat3>(&out.y[out.inv_inertia_at() + 9 * b]) = p.inv_inertia_W[b];
  }
  for (int r = 0; r < p.num_rows(); ++r) {
    out.y.segment<6>(out.rows_at() + 12 * r) = p.rows[r].J_a;
    out.y.segment<6>(out.rows_at() + 12 * r + 6) = p.rows[r].J_b;
  }
  // bias = v_free - J u_free
  VecX Ju(p.num_rows());
  p.apply_J(d.u_free.data(), Ju.data());
  for (int r = 0; r < p.num_rows(); ++r) {
    out.y[out.bias_at() + r] = p.v_free[r] - Ju[r];
    out.y[out.compliance_at() + r] = p.compliance[r];
  }
  for (int k = 0; k < p.num_contacts; ++k) out.y[out.mu_at() + k] = p.mu[k];
}

}  // namespace contactlab
