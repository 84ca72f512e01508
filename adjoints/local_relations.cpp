#include "adjoints/local_relations.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace contactlab {
namespace local_relations {

namespace {

Real largest_diagonal(const LocalProblem& pr) {
  Real a = 0;
  for (int i = 0; i < pr.num_rows(); ++i) a = std::max(a, pr.A_ii(i));
  return a > 0 ? a : Real(1);
}

void require_custom(SensitivityKind kind, const CustomSensitivity* custom, const char* what) {
  if (kind != SensitivityKind::Custom || custom) return;
  throw std::invalid_argument(std::string("local_relations::") + what + ": the custom kind needs its CustomSensitivity");
}

}  // namespace

bool relaxed(SensitivityKind kind, const CustomSensitivity* custom) {
  return kind == SensitivityKind::Custom ? custom && custom->relaxed() : is_relaxed(kind);
}

Real natural_step(const LocalProblem& pr, int row) {
  const Real a = pr.A_ii(row);
  return 1 / (a > 0 ? a : largest_diagonal(pr));
}

std::vector<Real> contact_steps(const LocalProblem& pr) {
  std::vector<Real> c(pr.num_contacts);
  for (int k = 0; k < pr.num_contacts; ++k) c[k] = natural_step(pr, pr.contact_offset() + 3 * k);
  return c;
}

Scales scales_of(const LocalProblem& pr, const VecX& lambda, Real rho) {
  const Real a = largest_diagonal(pr);
  Real v = std::sqrt(std::max(rho, Real(0)) * a);
  if (pr.num_rows() > 0) v = std::max({v, pr.b.lpNorm<Eigen::Infinity>(), a * lambda.lpNorm<Eigen::Infinity>()});
  Scales s;
  s.velocity = v > 0 ? v : Real(1);
  s.impulse = s.velocity / a;
  return s;
}

Modes detect_modes(const LocalProblem& pr, const VecX& lambda, const VecX& sigma, Real slip_speed) {
  Modes m;
  m.limit_active.resize(pr.num_limit);
  for (int i = 0; i < pr.num_limit; ++i) {
    const int r = pr.num_bilateral + i;
    m.limit_active[i] = lambda[r] - natural_step(pr, r) * sigma[r] > 0;
  }
  m.contact.resize(pr.num_contacts);
  if (pr.num_contacts == 0) return m;
  const int off = pr.contact_offset();
  const std::vector<Real> steps = contact_steps(pr);
  pr.contact_law().contact_modes(pr.mu.data(), pr.num_contacts, lambda.data() + off, sigma.data() + off, steps.data(),
                                 slip_speed, m.contact.data());
  return m;
}

void evaluate(SensitivityKind kind, const CustomSensitivity* custom, const LocalProblem& pr, const Modes& modes,
              Real rho, const Scales& s, const VecX& lambda, const VecX& sigma, Linearisation& out) {
  require_custom(kind, custom, "evaluate");
  const int m = pr.num_rows(), nc = pr.num_contacts;
  out.residual.setZero(m);
  out.scale.setOnes(m);
  out.C_lambda.setZero(m, m);
  out.C_sigma.setZero(m, m);
  out.C_mu.setZero(m, nc);
  const bool relax = relaxed(kind, custom);

  for (int r = 0; r < pr.num_bilateral; ++r) {  // sigma = 0
    out.residual[r] = sigma[r];
    out.C_sigma(r, r) = 1;
    out.scale[r] = s.velocity;
  }
  for (int i = 0; i < pr.num_limit; ++i) {
    const int r = pr.num_bilateral + i;
    if (relax) {  // lambda sigma = rho
      out.residual[r] = lambda[r] * sigma[r] - rho;
      out.C_lambda(r, r) = sigma[r];
      out.C_sigma(r, r) = lambda[r];
      out.scale[r] = rho + std::abs(lambda[r] * sigma[r]);
    } else if (modes.limit_active[i]) {
      out.residual[r] = sigma[r];
      out.C_sigma(r, r) = 1;
      out.scale[r] = s.velocity;
    } else {
      out.residual[r] = lambda[r];
      out.C_lambda(r, r) = 1;
      out.scale[r] = s.impulse;
    }
  }

  out.contacts.resize(nc);
  if (nc == 0) return;
  // The contacts' blocks, from the law (or the custom kind) in one call.
  const int off = pr.contact_offset();
  std::vector<ContactRelationBlock>& blocks = out.contacts;
  const ContactModel& law = pr.contact_law();
  if (kind == SensitivityKind::Custom && custom) {  // (custom is set: require_custom)
    for (ContactRelationBlock& b : blocks) b.clear();
    custom->contact_relations(law, pr.mu.data(), nc, modes.contact.data(), rho, s, lambda.data() + off,
                              sigma.data() + off, blocks.data());
  } else {
    law.contact_relations(kind, pr.mu.data(), nc, modes.contact.data(), rho, s, lambda.data() + off,
                          sigma.data() + off, blocks.data());
  }
  for (int k = 0; k < nc; ++k) {
    const int o = off + 3 * k;
    const ContactRelationBlock& b = blocks[k];
    out.residual.segment<3>(o) = b.residual;
    out.scale.segment<3>(o) = b.scale;
    out.C_lambda.block<3, 3>(o, o) = b.C_lambda;
    out.C_sigma.block<3, 3>(o, o) = b.C_sigma;
    out.C_mu.block<3, 1>(o, k) = b.C_mu;
  }
}

void evaluate(SensitivityKind kind, const LocalProblem& pr, const Modes& modes, Real rho, const Scales& s,
              const VecX& lambda, const VecX& sigma, Linearisation& out) {
  evaluate(kind, nullptr, pr, modes, rho, s, lambda, sigma, out);
}

bool interior(SensitivityKind kind, const CustomSensitivity* custom, const LocalProblem& pr, const VecX& lambda,
              const VecX& sigma) {
  require_custom(kind, custom, "interior");
  if (!relaxed(kind, custom)) return true;
  for (int i = 0; i < pr.num_limit; ++i) {
    const int r = pr.num_bilateral + i;
    if (!(lambda[r] > 0 && sigma[r] > 0)) return false;
  }
  if (pr.num_contacts == 0) return true;
  const int off = pr.contact_offset();
  const ContactModel& law = pr.contact_law();
  if (kind == SensitivityKind::Custom && custom)
    return custom->contact_interior(law, pr.mu.data(), pr.num_contacts, lambda.data() + off, sigma.data() + off);
  return law.contact_interior(kind, pr.mu.data(), pr.num_contacts, lambda.data() + off, sigma.data() + off);
}

bool interior(SensitivityKind kind, const LocalProblem& pr, const VecX& lambda, const VecX& sigma) {
  return interior(kind, nullptr, pr, lambda, sigma);
}

}  // namespace local_relations
}  // namespace contactlab
