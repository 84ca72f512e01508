#include "schemes/velocity_scheme.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/metrics.hpp"
#include "schemes/assembly.hpp"

namespace contactlab {

namespace {

// Initial guess from the previous step: contacts are matched by geom pair and
// position (the frame may have turned: impulses are carried as world vectors);
// joint, servo and limit rows keep their order from step to step.
void fill_warm_start(const Data& data, Real radius, WarmStart& warm) {
  const ConstraintProblem& p = data.problem;
  const int m = p.num_rows();
  warm.lambda.assign(m, 0.0);
  warm.v.assign(m, 0.0);
  warm.valid = !data.lambda.empty();
  if (!warm.valid) return;
  const int prev_off = data.problem_prev_offset;
  const int off = p.contact_offset();
  if (prev_off == off) {
    for (int r = 0; r < off; ++r) {
      warm.lambda[r] = data.lambda[r];
      warm.v[r] = data.v_plus[r];
    }
  }
  for (int k = 0; k < p.num_contacts; ++k) {
    const Contact& c = data.contacts[k];
    const CachedContact* best = nullptr;
    Real best_d = radius;
    for (const CachedContact& cc : data.contact_cache) {
      if (cc.geom1 != c.geom1 || cc.geom2 != c.geom2) continue;
      const Real d = (cc.point_W - c.point_W).norm();
      if (d <= best_d) {
        best_d = d;
        best = &cc;
      }
    }
    if (!best) continue;
    const Vec3 frame[3] = {c.normal_W, c.tangent1_W, c.tangent2_W};
    for (int i = 0; i < 3; ++i) {
      warm.lambda[off + 3 * k + i] = best->lambda_W.dot(frame[i]);
      warm.v[off + 3 * k + i] = best->v_W.dot(frame[i]);
    }
  }
}

void cache_contacts(Data& data) {
  const ConstraintProblem& p = data.problem;
  const int off = p.contact_offset();
  data.contact_cache.resize(p.num_contacts);
  for (int k = 0; k < p.num_contacts; ++k) {
    const Contact& c = data.contacts[k];
    CachedContact& cc = data.contact_cache[k];
    cc.geom1 = c.geom1;
    cc.geom2 = c.geom2;
    cc.point_W = c.point_W;
    const Real* l = &data.lambda[off + 3 * k];
    const Real* v = &data.v_plus[off + 3 * k];
    cc.lambda_W = l[0] * c.normal_W + l[1] * c.tangent1_W + l[2] * c.tangent2_W;
    cc.v_W = v[0] * c.normal_W + v[1] * c.tangent1_W + v[2] * c.tangent2_W;
  }
  data.problem_prev_offset = off;
}

}  // namespace

void VelocitySchemeOptions::validate() const {
  auto fraction = [](Real v, const char* name) {
    if (!(v >= 0 && v <= 1)) throw std::invalid_argument(std::string("scheme.") + name + " must lie in [0, 1]");
  };
  fraction(baumgarte, "baumgarte");
  fraction(limit_baumgarte, "limit_baumgarte");
  fraction(contact_baumgarte, "contact_baumgarte");
  if (!(contact_slop >= 0)) throw std::invalid_argument("scheme.contact_slop must be >= 0");
  if (!(contact_margin >= 0)) throw std::invalid_argument("scheme.contact_margin must be >= 0");
  if (!(warm_start_radius >= 0)) throw std::invalid_argument("scheme.warm_start_radius must be >= 0");
}

bool VelocityScheme::accepts(const ContactModel&, const Solver&, std::string*) const { return true; }

void VelocityScheme::bind_options(OptionSet& set, const std::string& prefix) {
  bind_velocity_options(set, prefix, options);
}

void bind_velocity_options(OptionSet& set, const std::string& prefix, VelocitySchemeOptions& options) {
  set.add_validator([&options] { options.validate(); });
  set.add(prefix + "baumgarte", &options.baumgarte, "joint/loop position error removed per step", 0, 1);
  set.add(prefix + "limit_baumgarte", &options.limit_baumgarte, "joint-limit violation removed per step", 0, 1);
  set.add(prefix + "contact_baumgarte", &options.contact_baumgarte, "penetration removed per step", 0, 1);
  set.add(prefix + "contact_slop", &options.contact_slop, "m, penetration left uncorrected", 0);
  set.add(prefix + "contact_margin", &options.contact_margin, "m, contacts are created below this gap", 0);
  set.add(prefix + "restitution", &options.restitution, "override of every pair's restitution (-1: use the scene's)",
          -1, 1);
  set.add(prefix + "warm_start", &options.warm_start, "pass the previous step's impulses to the solver");
  set.add(prefix + "warm_start_radius", &options.warm_start_radius, "m, contact matching distance", 0);
  set.add(prefix + "gyroscopic", &options.gyroscopic, "explicit gyroscopic torque");
}

RowBiasOptions VelocitySchemeOptions::row_bias(Real contact_recovery) const {
  RowBiasOptions bias;
  bias.baumgarte = baumgarte;
  bias.limit_baumgarte = limit_baumgarte;
  bias.contact_baumgarte = contact_recovery;
  bias.contact_slop = contact_slop;
  bias.restitution_override = restitution;
  bias.position_step = position_step;
  bias.armature_basis_drift = armature_basis_drift;
  return bias;
}

void VelocityScheme::prepare(const Model& model, Data& data, const ContactModel& law, Real h) const {
  detect_contacts(model, data, options.contact_margin);
  compute_free_velocity(model, data, h, options.gyroscopic);
  const RowBiasOptions bias = options.row_bias(law.penetration_recovery(options.contact_baumgarte));
  data.metrics.joint_violation = assemble_problem(model, data, h, bias);

  if (options.warm_start) {
    fill_warm_start(data, options.warm_start_radius, data.warm);
  } else {
    data.warm.valid = false;
  }
}

void VelocityScheme::finish(const Model& model, Data& data, const ContactModel& law, Real h) const {
  // u+ = u_free + M^-1 J^T lambda, then the semi-implicit Euler position update
  // over h_pos = position_step h (h itself for this scheme).
  const ConstraintProblem& p = data.problem;
  const Real hp = h * options.position_step;
  std::vector<Real>& du = data.scratch6;
  du.resize(6 * p.num_bodies);
  p.apply_JT(data.lambda.data(), du.data());
  p.apply_Minv(du.data(), du.data());
  for (int b = 0; b < model.num_bodies(); ++b) {
    if (model.bodies[b].fixed) continue;
    data.v_W[b] = Eigen::Map<const Vec3>(&data.u_free[6 * b]) + Eigen::Map<const Vec3>(&du[6 * b]);
    data.w_W[b] = Eigen::Map<const Vec3>(&data.u_free[6 * b + 3]) + Eigen::Map<const Vec3>(&du[6 * b + 3]);
    data.x_W[b] += hp * data.v_W[b];
    data.q_WB[b] = integrate_quaternion(data.q_WB[b], data.w_W[b], hp);
  }
  data.time += h;
  data.step += 1;

  StepMetrics& m = data.metrics;
  constraint_residuals(p, law, data.lambda, data.v_plus, data.residual_scratch, m);
  for (int i = 0; i < 6 * p.num_bodies; ++i) du[i] += data.u_free[i];  // du is now u+ (raw, for r_kin and r_v)
  velocity_residuals(p, law, du.data(), data.residual_scratch, m);
  m.max_penetration = 0;
  for (const Contact& c : data.contacts) m.max_penetration = std::max(m.max_penetration, -c.gap);
  // m.joint_violation was set by prepare (it is measured at q-).
  m.iterations = data.solve_stats.iterations;
  m.converged = data.solve_stats.status == SolveStatus::Converged;
  m.num_contacts = p.num_contacts;
  cache_contacts(data);
}

}  // namespace contactlab
