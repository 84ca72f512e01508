#include "adjoints/local_relations.hpp"

#include <algorithm>
#include <cmath>

#include "contact_models/soc_smoothing.hpp"

namespace contactlab {
namespace local_relations {

namespace {

Real largest_diagonal(const LocalProblem& pr) {
  Real a = 0;
  for (int i = 0; i < pr.num_rows(); ++i) a = std::max(a, pr.A_ii(i));
  return a > 0 ? a : Real(1);
}

// The rows of one contact block and its quantities at (lambda, sigma).
struct Block {
  int k, o;  // contact, its first row (normal)
  Real mu;
  Vec3 l, v;          // lambda_k, sigma_k
  Real slip;          // |sigma_t|
  Eigen::Vector2d d;  // sigma_t/|sigma_t| (0 where sigma_t = 0)
  bool desaxce;       // sigma^ = sigma + Gamma(sigma); else sigma^ = sigma (convex law)
  // The shifted velocity in K_mu*, and the normal "gap" g = sigma^_n - mu |sigma_t|
  // that vanishes on sticking and sliding contacts (de Saxce: g = sigma_n).
  Real shift() const { return desaxce ? mu * slip : Real(0); }
  Real gap() const { return desaxce ? v[0] : v[0] - mu * slip; }  // no cancellation for de Saxce
};

Block block_at(const LocalProblem& pr, int k, const VecX& lambda, const VecX& sigma) {
  Block b;
  b.k = k;
  b.o = pr.contact_offset() + 3 * k;
  b.mu = pr.mu[k];
  b.l = lambda.segment<3>(b.o);
  b.v = sigma.segment<3>(b.o);
  b.slip = b.v.tail<2>().norm();
  b.d = b.slip > 0 ? Eigen::Vector2d(b.v.tail<2>() / b.slip) : Eigen::Vector2d::Zero();
  b.desaxce = pr.desaxce;
  return b;
}

// d g = d sigma_n - (convex: mu d^T d sigma_t + |sigma_t| d mu), scaled by `factor`, into row r.
void add_gap_partials(const Block& b, int r, Real factor, Linearisation& out) {
  out.C_sigma(r, b.o) += factor;
  if (b.desaxce) return;
  out.C_sigma.block<1, 2>(r, b.o + 1) -= factor * b.mu * b.d.transpose();
  out.C_mu(r, b.k) -= factor * b.slip;
}

// Rows t of the exact law in `mode` (the normal row is the caller's).
void tangential_exact(ContactMode mode, const Block& b, const Scales& s, Linearisation& out) {
  const int t = b.o + 1;
  switch (mode) {
    case ContactMode::Separating:  // lambda_t = 0
      out.residual.segment<2>(t) = b.l.tail<2>();
      out.C_lambda.block<2, 2>(t, t).setIdentity();
      out.scale.segment<2>(t).setConstant(s.impulse);
      break;
    case ContactMode::Sticking:  // sigma_t = 0
      out.residual.segment<2>(t) = b.v.tail<2>();
      out.C_sigma.block<2, 2>(t, t).setIdentity();
      out.scale.segment<2>(t).setConstant(s.velocity);
      break;
    case ContactMode::Sliding: {  // lambda_t + mu lambda_n d = 0
      out.residual.segment<2>(t) = b.l.tail<2>() + b.mu * b.l[0] * b.d;
      out.C_lambda.block<2, 2>(t, t).setIdentity();
      out.C_lambda.block<2, 1>(t, b.o) = b.mu * b.d;
      if (b.slip > 0) {
        const Eigen::Matrix2d P = Eigen::Matrix2d::Identity() - b.d * b.d.transpose();
        out.C_sigma.block<2, 2>(t, t) = (b.mu * b.l[0] / b.slip) * P;
      }
      out.C_mu.block<2, 1>(t, b.k) = b.l[0] * b.d;
      out.scale.segment<2>(t).setConstant(s.impulse);
      break;
    }
  }
}

}  // namespace

Real natural_step(const LocalProblem& pr, int row) {
  const Real a = pr.A_ii(row);
  return 1 / (a > 0 ? a : largest_diagonal(pr));
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
  for (int k = 0; k < pr.num_contacts; ++k) {
    const Block b = block_at(pr, k, lambda, sigma);
    const Real c = natural_step(pr, b.o);
    const Real xn = b.l[0] - c * (b.v[0] + b.shift());
    const Real xt = (b.l.tail<2>() - c * b.v.tail<2>()).norm();
    if (b.mu * xt <= -xn)
      m.contact[k] = ContactMode::Separating;  // polar first: mu = 0 as cone::project_primal
    else if (xt <= b.mu * xn || b.slip <= slip_speed)
      m.contact[k] = ContactMode::Sticking;
    else
      m.contact[k] = ContactMode::Sliding;
  }
  return m;
}

void evaluate(SensitivityKind kind, const LocalProblem& pr, const Modes& modes, Real rho, const Scales& s,
              const VecX& lambda, const VecX& sigma, Linearisation& out) {
  const int m = pr.num_rows(), nc = pr.num_contacts;
  out.residual.setZero(m);
  out.scale.setOnes(m);
  out.C_lambda.setZero(m, m);
  out.C_sigma.setZero(m, m);
  out.C_mu.setZero(m, nc);
  const bool relaxed = is_relaxed(kind);

  for (int r = 0; r < pr.num_bilateral; ++r) {  // sigma = 0
    out.residual[r] = sigma[r];
    out.C_sigma(r, r) = 1;
    out.scale[r] = s.velocity;
  }
  for (int i = 0; i < pr.num_limit; ++i) {
    const int r = pr.num_bilateral + i;
    if (relaxed) {  // lambda sigma = rho
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

  for (int k = 0; k < nc; ++k) {
    const Block b = block_at(pr, k, lambda, sigma);
    const ContactMode mode = modes.contact[k];
    const int o = b.o, t = o + 1;
    if (kind == SensitivityKind::CentralPath) {
      const Real mu2 = b.mu * b.mu;
      const Vec3 sh(b.v[0] + b.shift(), b.v[1], b.v[2]);  // sigma^
      Vec3 w;
      soc_smoothing::scaled_jordan(b.mu, b.l.data(), sh.data(), w.data());
      out.residual.segment<3>(o) = w - Vec3(rho, 0, 0);
      out.scale.segment<3>(o).setConstant(rho + (1 + mu2) * b.l.norm() * sh.norm());
      Mat3 Cl, W;
      Cl << sh[0], sh[1], sh[2], mu2 * sh[1], sh[0], 0, mu2 * sh[2], 0, sh[0];
      W << b.l[0], b.l[1], b.l[2], b.l[1], mu2 * b.l[0], 0, b.l[2], 0, mu2 * b.l[0];
      Mat3 Cs = W;  // W (I + dGamma/dsigma): the t columns gain mu W(:, n) d^T
      if (b.desaxce) Cs.block<3, 2>(0, 1) += b.mu * W.col(0) * b.d.transpose();
      out.C_lambda.block<3, 3>(o, o) = Cl;
      out.C_sigma.block<3, 3>(o, o) = Cs;
      // dw/dmu: the scaled Jordan product's own mu, and (de Saxce) the shift's.
      out.C_mu.block<2, 1>(t, k) = 2 * b.mu * b.l[0] * b.v.tail<2>();
      if (b.desaxce) {
        out.C_mu(o, k) = b.l[0] * b.slip;
        out.C_mu.block<2, 1>(t, k) += b.slip * b.l.tail<2>();
      }
      continue;
    }
    // Normal row.
    const Real g = b.gap();
    if (kind == SensitivityKind::Signorini) {  // lambda_n g = rho
      out.residual[o] = b.l[0] * g - rho;
      out.C_lambda(o, o) = g;
      add_gap_partials(b, o, b.l[0], out);
      out.scale[o] = rho + std::abs(b.l[0] * g);
    } else if (mode == ContactMode::Separating) {
      out.residual[o] = b.l[0];
      out.C_lambda(o, o) = 1;
      out.scale[o] = s.impulse;
    } else {  // sticking, sliding: g = 0 (de Saxce: sigma_n = 0; convex: sigma_n = mu |sigma_t|)
      out.residual[o] = g;
      add_gap_partials(b, o, 1, out);
      out.scale[o] = s.velocity;
    }
    if (kind == SensitivityKind::FrozenW && mode == ContactMode::Sliding && b.slip > 0 && b.mu > 0 && b.l[0] > 0) {
      // Ostrich's friction row sigma_t + W lambda_t = 0 with W frozen; its
      // explicit mu: d(W lambda_t)/dmu = -(W/mu) lambda_t.
      const Real W = b.slip / (b.mu * b.l[0]);
      out.residual.segment<2>(t) = b.v.tail<2>() + W * b.l.tail<2>();
      out.C_sigma.block<2, 2>(t, t).setIdentity();
      out.C_lambda.block<2, 2>(t, t) = W * Eigen::Matrix2d::Identity();
      out.C_mu.block<2, 1>(t, b.k) = -(W / b.mu) * b.l.tail<2>();
      out.scale.segment<2>(t).setConstant(s.velocity);
      continue;
    }
    tangential_exact(mode, b, s, out);
  }
}

bool interior(SensitivityKind kind, const LocalProblem& pr, const VecX& lambda, const VecX& sigma) {
  if (!is_relaxed(kind)) return true;
  for (int i = 0; i < pr.num_limit; ++i) {
    const int r = pr.num_bilateral + i;
    if (!(lambda[r] > 0 && sigma[r] > 0)) return false;
  }
  for (int k = 0; k < pr.num_contacts; ++k) {
    const Block b = block_at(pr, k, lambda, sigma);
    if (!(b.l[0] > 0 && b.gap() > 0)) return false;
    if (kind != SensitivityKind::CentralPath) continue;
    const Real lt = b.l.tail<2>().norm();
    if (b.mu > 0 ? !(lt < b.mu * b.l[0]) : !(lt <= 1e-12 * b.l[0])) return false;
  }
  return true;
}

}  // namespace local_relations
}  // namespace contactlab
