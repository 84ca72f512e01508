#include "core/metrics.hpp"

#include <algorithm>
#include <cmath>

namespace contactlab {

void constraint_residuals(const ConstraintProblem& p, const ContactModel& law, const std::vector<Real>& lambda,
                          const std::vector<Real>& v_plus, ResidualScratch& scratch, StepMetrics& m) {
  const ConstraintResiduals r = constraint_residuals(p, law, lambda, v_plus, scratch);
  m.r_primal = r.r_primal;
  m.r_dual = r.r_dual;
  m.r_compl = r.r_compl;
  m.r_vi = r.r_vi;
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
