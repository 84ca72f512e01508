#include "core/metrics.hpp"

#include <algorithm>
#include <cmath>

#include "core/kinematics.hpp"

namespace contactlab {

void constraint_residuals(const ConstraintProblem& p, const ContactModel& law, const std::vector<Real>& lambda,
                          const std::vector<Real>& v_plus, ResidualScratch& scratch, StepMetrics& m) {
  const ConstraintResiduals r = constraint_residuals(p, law, lambda, v_plus, scratch);
  m.r_primal = r.r_primal;
  m.r_dual = r.r_dual;
  m.r_compl = r.r_compl;
  m.r_vi = r.r_vi;
}

void velocity_residuals(const ConstraintProblem& p, const ContactModel& law, const Real* u_plus,
                        ResidualScratch& scratch, StepMetrics& m) {
  const int rows = p.num_rows();
  std::vector<Real>& w = scratch.row_velocity;
  w.resize(rows);
  if (rows > 0) p.apply_J(u_plus, w.data());
  m.r_kin = 0;
  for (int r = 0; r < p.num_bilateral; ++r)
    if (p.compliance[r] == 0) m.r_kin = std::max(m.r_kin, std::abs(w[r]));
  m.r_v = 0;
  const int off = p.contact_offset(), n = 3 * p.num_contacts;
  if (n == 0) return;
  std::vector<Real>& proj = scratch.projected;
  proj.assign(w.begin() + off, w.begin() + off + n);
  law.project_dual(p.mu.data(), p.num_contacts, proj.data());
  for (int i = 0; i < n; ++i) m.r_v = std::max(m.r_v, std::abs(w[off + i] - proj[i]));
}

Real mechanical_energy(const Model& model, const Data& data) {
  Real e = 0;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Body& body = model.bodies[b];
    if (body.fixed) continue;
    const Mat3 R = data.q_WB[b].toRotationMatrix();
    const Vec3 Iw = R * body.inertia_B * R.transpose() * data.w_W[b];
    e += 0.5 * body.mass * data.v_W[b].squaredNorm() + 0.5 * data.w_W[b].dot(Iw) -
         body.mass * model.options.gravity.dot(data.x_W[b]);
  }
  // Joint springs (MJCF stiffness) store (k/2) (q - springref)^2.
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    if (jt.stiffness == 0 || model.bodies[jt.body].fixed) continue;
    const Real stretch = joint_position(model, data, static_cast<int>(j)) - jt.springref;
    e += 0.5 * jt.stiffness * stretch * stretch;
  }
  // Fixed-tendon springs: (k/2) (L - springlength)^2 with L = sum coef q.
  for (const Tendon& t : model.tendons) {
    if (t.stiffness == 0) continue;
    Real length = 0;
    for (const TendonTerm& term : t.terms) length += term.coef * joint_position(model, data, term.joint);
    e += 0.5 * t.stiffness * (length - t.springlength) * (length - t.springlength);
  }
  return e;
}

}  // namespace contactlab
