#include "core/metrics.hpp"

#include <algorithm>
#include <cmath>

namespace contactlab {

void constraint_residuals(const ConstraintProblem& p, const ContactModel& law, const std::vector<Real>& lambda,
                          const std::vector<Real>& v_plus, StepMetrics& m) {
  Real rp = 0, rd = 0, rc = 0, rvi = 0;
  for (int r = 0; r < p.num_bilateral; ++r) {
    rd = std::max(rd, std::abs(v_plus[r]));
    rvi = std::max(rvi, std::abs(v_plus[r]));
  }
  for (int r = p.num_bilateral; r < p.contact_offset(); ++r) {
    const Real l = lambda[r], v = v_plus[r];
    rp = std::max(rp, std::max(Real(0), -l));
    rd = std::max(rd, std::max(Real(0), -v));
    rc = std::max(rc, std::abs(l * v));
    rvi = std::max(rvi, std::abs(l - std::max(Real(0), l - v)));
  }
  const int off = p.contact_offset();
  for (int k = 0; k < p.num_contacts; ++k) {
    const Real* l = &lambda[off + 3 * k];
    const Real* v = &v_plus[off + 3 * k];
    const Real mu = p.mu[k];
    Real s[3], proj[3], nat[3];
    law.velocity_shift(&mu, 1, v, s);
    for (int i = 0; i < 3; ++i) s[i] += v[i];
    for (int i = 0; i < 3; ++i) proj[i] = l[i];
    law.project_primal(&mu, 1, proj);
    for (int i = 0; i < 3; ++i) rp = std::max(rp, std::abs(l[i] - proj[i]));
    for (int i = 0; i < 3; ++i) proj[i] = s[i];
    law.project_dual(&mu, 1, proj);
    for (int i = 0; i < 3; ++i) rd = std::max(rd, std::abs(s[i] - proj[i]));
    rc = std::max(rc, std::abs(l[0] * s[0] + l[1] * s[1] + l[2] * s[2] - law.complementarity_target()));
    for (int i = 0; i < 3; ++i) nat[i] = l[i] - s[i];
    law.project_primal(&mu, 1, nat);
    for (int i = 0; i < 3; ++i) rvi = std::max(rvi, std::abs(l[i] - nat[i]));
  }
  m.r_primal = rp;
  m.r_dual = rd;
  m.r_compl = rc;
  m.r_vi = rvi;
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
  return e;
}

}  // namespace contactlab
