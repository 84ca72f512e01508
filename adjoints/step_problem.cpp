#include "adjoints/step_problem.hpp"

#include "schemes/assembly.hpp"

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

void load_seeded_inputs(const Model& model, const StepInputs& inputs, const Real* seed, const Real* ctrl_seed,
                        DualInputs& out) {
  const int nb = model.num_bodies(), na = static_cast<int>(inputs.ctrl.size());
  for (auto* v : {&out.x, &out.v, &out.w}) v->resize(nb);
  out.q.resize(nb);
  for (int b = 0; b < nb; ++b) {
    const RigidState& st = inputs.bodies[b];
    out.x[b] = st.x.cast<Dual>();
    out.q[b] = st.q.cast<Dual>();
    out.v[b] = st.v.cast<Dual>();
    out.w[b] = st.w.cast<Dual>();
    if (!seed || model.bodies[b].fixed) continue;
    const Real* z = seed + 12 * b;
    for (int c = 0; c < 3; ++c) {
      out.x[b][c].d = z[c];
      out.v[b][c].d = z[6 + c];
      out.w[b][c].d = z[9 + c];
    }
    // A rotation on the left, through the same map (its value: q renormalised).
    out.q[b] = integrate_quaternion_t<Dual>(out.q[b], Vec3T<Dual>(Dual(0, z[3]), Dual(0, z[4]), Dual(0, z[5])),
                                            Dual(1.0));
  }
  out.ctrl.resize(na);
  for (int a = 0; a < na; ++a) out.ctrl[a] = Dual(inputs.ctrl[a], ctrl_seed ? ctrl_seed[a] : 0.0);
}

void contacts_along(const Model& model, const StepInputs& inputs, const Real* seed, const Real* ctrl_seed, Real step,
                    ContactRedetection& contacts, Data& d, std::vector<Contact>& out) {
  const int nb = model.num_bodies(), na = static_cast<int>(inputs.ctrl.size());
  std::vector<Real> shifted(12 * nb, 0.0), shifted_ctrl = inputs.ctrl;
  if (seed)
    for (int i = 0; i < 12 * nb; ++i) shifted[i] = step * seed[i];
  if (ctrl_seed)
    for (int a = 0; a < na; ++a) shifted_ctrl[a] += step * ctrl_seed[a];
  load_perturbed_inputs(model, inputs, shifted.data(), shifted_ctrl.data(), d);
  contacts.evaluate(model, d);
  out = d.contacts;
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
  const RowBiasOptions bias = scheme_.row_bias(recovery_);
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

bool StepProblem::evaluate_tangent(const Model& model, const Real* seed, const Real* ctrl_seed, Real eps,
                                   StepProblemData& y, StepProblemData& dy) {
  const int nb = model.num_bodies();
  load_seeded_inputs(model, inputs_, seed, ctrl_seed, dual_inputs_);
  const std::vector<Dual>& ctrl_d_ = dual_inputs_.ctrl;
  const BodyStatesT<Dual> s = dual_inputs_.states();

  // Contacts: the narrow phase in dual numbers; differences where it searches.
  auto difference = [&](int sign, std::vector<Contact>& out) {
    contacts_along(model, inputs_, seed, ctrl_seed, sign * eps, contacts_, scratch_, out);
  };
  const bool exact = contacts_.evaluate_dual(model, s, eps, difference, contacts_d_);

  // As VelocityScheme::prepare, over dual numbers.
  FreeVelocityT<Dual> fv{u_free_d_, inv_mass_d_, inv_inertia_d_, wrench_d_};
  free_velocity_t<Dual>(model, s, ctrl_d_, h_, scheme_.gyroscopic, fv);
  const RowBiasOptions bias = scheme_.row_bias(recovery_);
  int num_contacts = 0;
  RowsT<Dual> rows{rows_d_, compliance_d_, mu_d_, bias_d_, [&](int, int bilateral, int limits, int nc) {
                     rows_d_.assign(bilateral + limits + 3 * nc, ConstraintRowT<Dual>{});
                     compliance_d_.assign(rows_d_.size(), Dual(0.0));
                     mu_d_.assign(nc, Dual(0.0));
                     num_contacts = nc;
                   }};
  assemble_rows_t<Dual>(model, s, ctrl_d_, contacts_d_, u_free_d_, h_, bias, rows);

  // Flattened as evaluate() does.
  const int m = static_cast<int>(rows_d_.size());
  for (StepProblemData* out : {&y, &dy}) {
    out->num_bodies = nb;
    out->num_rows = m;
    out->num_contacts = num_contacts;
    out->y.resize(out->size());
  }
  auto put = [&](int i, const Dual& v) {
    y.y[i] = v.v;
    dy.y[i] = v.d;
  };
  for (int i = 0; i < 6 * nb; ++i) put(y.u_free_at() + i, u_free_d_[i]);
  for (int b = 0; b < nb; ++b) {
    put(y.inv_mass_at() + b, inv_mass_d_[b]);
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) put(y.inv_inertia_at() + 9 * b + 3 * c + r, inv_inertia_d_[b](r, c));  // column-major
  }
  for (int r = 0; r < m; ++r)
    for (int i = 0; i < 6; ++i) {
      put(y.rows_at() + 12 * r + i, rows_d_[r].J_a[i]);
      put(y.rows_at() + 12 * r + 6 + i, rows_d_[r].J_b[i]);
    }
  for (int r = 0; r < m; ++r) {
    put(y.bias_at() + r, bias_d_[r]);
    put(y.compliance_at() + r, compliance_d_[r]);
  }
  for (int k = 0; k < num_contacts; ++k) put(y.mu_at() + k, mu_d_[k]);
  return exact;
}

}  // namespace contactlab
