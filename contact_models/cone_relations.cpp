#include "contact_models/cone_relations.hpp"

#include <cmath>
#include <stdexcept>

#include "contact_models/soc_smoothing.hpp"

namespace contactlab {
namespace cone_relations {

namespace {

using Vec2 = Eigen::Vector2d;

// One contact's quantities at (lambda_k, sigma_k).
struct Block {
  Real mu;
  Vec3 l, v;     // lambda_k, sigma_k
  Real slip;     // |sigma_t|
  Vec2 d;        // sigma_t/|sigma_t| (0 where sigma_t = 0)
  bool desaxce;  // sigma^ = sigma + Gamma(sigma); else sigma^ = sigma (convex law)
  // The shifted velocity in K_mu*, and the normal "gap" g = sigma^_n - mu |sigma_t|
  // that vanishes on sticking and sliding contacts (de Saxce: g = sigma_n).
  Real shift() const { return desaxce ? mu * slip : Real(0); }
  Real gap() const { return desaxce ? v[0] : v[0] - mu * slip; }  // no cancellation for de Saxce
};

Block block_at(bool desaxce, const Real* mu, int k, const Real* lambda, const Real* sigma) {
  Block b;
  b.mu = mu[k];
  b.l = Eigen::Map<const Vec3>(lambda + 3 * k);
  b.v = Eigen::Map<const Vec3>(sigma + 3 * k);
  b.slip = b.v.tail<2>().norm();
  b.d = b.slip > 0 ? Vec2(b.v.tail<2>() / b.slip) : Vec2::Zero();
  b.desaxce = desaxce;
  return b;
}

// d g = d sigma_n - (convex: mu d^T d sigma_t + |sigma_t| d mu), scaled by `factor`, into the normal row.
void add_gap_partials(const Block& b, Real factor, ContactRelationBlock& out) {
  out.C_sigma(0, 0) += factor;
  if (b.desaxce) return;
  out.C_sigma.block<1, 2>(0, 1) -= factor * b.mu * b.d.transpose();
  out.C_mu[0] -= factor * b.slip;
}

// Rows t of the exact law in `mode` (the normal row is the caller's).
void tangential_exact(ContactMode mode, const Block& b, const RelationScales& s, ContactRelationBlock& out) {
  switch (mode) {
    case ContactMode::Separating:  // lambda_t = 0
      out.residual.segment<2>(1) = b.l.tail<2>();
      out.C_lambda.block<2, 2>(1, 1).setIdentity();
      out.scale.segment<2>(1).setConstant(s.impulse);
      break;
    case ContactMode::Sticking:  // sigma_t = 0
      out.residual.segment<2>(1) = b.v.tail<2>();
      out.C_sigma.block<2, 2>(1, 1).setIdentity();
      out.scale.segment<2>(1).setConstant(s.velocity);
      break;
    case ContactMode::Sliding: {  // lambda_t + mu lambda_n d = 0
      out.residual.segment<2>(1) = b.l.tail<2>() + b.mu * b.l[0] * b.d;
      out.C_lambda.block<2, 2>(1, 1).setIdentity();
      out.C_lambda.block<2, 1>(1, 0) = b.mu * b.d;
      if (b.slip > 0) {
        const Eigen::Matrix2d P = Eigen::Matrix2d::Identity() - b.d * b.d.transpose();
        out.C_sigma.block<2, 2>(1, 1) = (b.mu * b.l[0] / b.slip) * P;
      }
      out.C_mu.segment<2>(1) = b.l[0] * b.d;
      out.scale.segment<2>(1).setConstant(s.impulse);
      break;
    }
  }
}

// w(lambda, sigma^) - rho e and its partials (MATH.md B.4, D.3).
void central_path(const Block& b, Real rho, ContactRelationBlock& out) {
  const Real mu2 = b.mu * b.mu;
  const Vec3 sh(b.v[0] + b.shift(), b.v[1], b.v[2]);  // sigma^
  Vec3 w;
  soc_smoothing::scaled_jordan(b.mu, b.l.data(), sh.data(), w.data());
  out.residual = w - Vec3(rho, 0, 0);
  out.scale.setConstant(rho + (1 + mu2) * b.l.norm() * sh.norm());
  Mat3 Cl, W;
  Cl << sh[0], sh[1], sh[2], mu2 * sh[1], sh[0], 0, mu2 * sh[2], 0, sh[0];
  W << b.l[0], b.l[1], b.l[2], b.l[1], mu2 * b.l[0], 0, b.l[2], 0, mu2 * b.l[0];
  Mat3 Cs = W;  // W (I + dGamma/dsigma): the t columns gain mu W(:, n) d^T
  if (b.desaxce) Cs.block<3, 2>(0, 1) += b.mu * W.col(0) * b.d.transpose();
  out.C_lambda = Cl;
  out.C_sigma = Cs;
  // dw/dmu: the scaled Jordan product's own mu, and (de Saxce) the shift's.
  out.C_mu.segment<2>(1) = 2 * b.mu * b.l[0] * b.v.tail<2>();
  if (b.desaxce) {
    out.C_mu[0] = b.l[0] * b.slip;
    out.C_mu.segment<2>(1) += b.slip * b.l.tail<2>();
  }
}

void require_built_in(SensitivityKind kind, const char* what) {
  if (kind != SensitivityKind::Custom) return;
  throw std::invalid_argument(std::string("cone_relations::") + what +
                              ": a custom kind's relations are its own (CustomSensitivity)");
}

}  // namespace

void modes(bool desaxce, const Real* mu, int nc, const Real* lambda, const Real* sigma, const Real* step,
           Real slip_speed, ContactMode* out) {
  for (int k = 0; k < nc; ++k) {
    const Block b = block_at(desaxce, mu, k, lambda, sigma);
    const Real c = step[k];
    const Real xn = b.l[0] - c * (b.v[0] + b.shift());
    const Real xt = (b.l.tail<2>() - c * b.v.tail<2>()).norm();
    if (b.mu * xt <= -xn)
      out[k] = ContactMode::Separating;  // polar first: mu = 0 as cone::project_primal
    else if (xt <= b.mu * xn || b.slip <= slip_speed)
      out[k] = ContactMode::Sticking;
    else
      out[k] = ContactMode::Sliding;
  }
}

void relations(bool desaxce, SensitivityKind kind, const Real* mu, int nc, const ContactMode* modes, Real rho,
               const RelationScales& s, const Real* lambda, const Real* sigma, ContactRelationBlock* out) {
  require_built_in(kind, "relations");
  for (int k = 0; k < nc; ++k) {
    const Block b = block_at(desaxce, mu, k, lambda, sigma);
    const ContactMode mode = modes[k];
    ContactRelationBlock& o = out[k];
    o.clear();
    if (kind == SensitivityKind::CentralPath) {
      central_path(b, rho, o);
      continue;
    }
    // Normal row.
    const Real g = b.gap();
    if (kind == SensitivityKind::Signorini) {  // lambda_n g = rho
      o.residual[0] = b.l[0] * g - rho;
      o.C_lambda(0, 0) = g;
      add_gap_partials(b, b.l[0], o);
      o.scale[0] = rho + std::abs(b.l[0] * g);
    } else if (mode == ContactMode::Separating) {
      o.residual[0] = b.l[0];
      o.C_lambda(0, 0) = 1;
      o.scale[0] = s.impulse;
    } else {  // sticking, sliding: g = 0 (de Saxce: sigma_n = 0; convex: sigma_n = mu |sigma_t|)
      o.residual[0] = g;
      add_gap_partials(b, 1, o);
      o.scale[0] = s.velocity;
    }
    if (kind == SensitivityKind::FrozenW && mode == ContactMode::Sliding && b.slip > 0 && b.mu > 0 && b.l[0] > 0) {
      // Ostrich's friction row sigma_t + W lambda_t = 0 with W frozen; its
      // explicit mu: d(W lambda_t)/dmu = -(W/mu) lambda_t.
      const Real W = b.slip / (b.mu * b.l[0]);
      o.residual.segment<2>(1) = b.v.tail<2>() + W * b.l.tail<2>();
      o.C_sigma.block<2, 2>(1, 1).setIdentity();
      o.C_lambda.block<2, 2>(1, 1) = W * Eigen::Matrix2d::Identity();
      o.C_mu.segment<2>(1) = -(W / b.mu) * b.l.tail<2>();
      o.scale.segment<2>(1).setConstant(s.velocity);
      continue;
    }
    tangential_exact(mode, b, s, o);
  }
}

bool interior(bool desaxce, SensitivityKind kind, const Real* mu, int nc, const Real* lambda, const Real* sigma) {
  require_built_in(kind, "interior");
  if (!is_relaxed(kind)) return true;
  for (int k = 0; k < nc; ++k) {
    const Block b = block_at(desaxce, mu, k, lambda, sigma);
    if (!(b.l[0] > 0 && b.gap() > 0)) return false;
    if (kind != SensitivityKind::CentralPath) continue;
    const Real lt = b.l.tail<2>().norm();
    if (b.mu > 0 ? !(lt < b.mu * b.l[0]) : !(lt <= 1e-12 * b.l[0])) return false;
  }
  return true;
}

void relaxed_start(bool desaxce, SensitivityKind kind, const Real* mu_all, int nc, const ContactMode* modes,
                   const Real* step, Real rho, Real* lambda_all, Real* sigma_all) {
  require_built_in(kind, "relaxed_start");
  for (int k = 0; k < nc; ++k) {
    Eigen::Map<Vec3> lambda(lambda_all + 3 * k), sigma(sigma_all + 3 * k);
    const Real mu = mu_all[k], c = step[k];
    // Convex laws: the normal "gap" is sigma_n - mu |sigma_t| (de Saxce: sigma_n).
    const Real glide = desaxce ? Real(0) : mu * sigma.segment<2>(1).norm();
    if (kind == SensitivityKind::Signorini) {
      Real a, b;
      soc_smoothing::smoothed_pair(lambda[0] - c * (sigma[0] - glide), rho * c, a, b);
      lambda[0] = a;
      sigma[0] = b / c + glide;
      const Real slip = sigma.segment<2>(1).norm();
      if (modes[k] == ContactMode::Sliding && slip > 0) lambda.segment<2>(1) = -mu * a * sigma.segment<2>(1) / slip;
      continue;
    }
    const Real slip = sigma.segment<2>(1).norm();
    const Real shift = desaxce ? mu * slip : Real(0);
    const Vec3 x(lambda[0] - c * (sigma[0] + shift), lambda[1] - c * sigma[1], lambda[2] - c * sigma[2]);
    Vec3 y, sh;
    soc_smoothing::friction(mu, rho * c, x.data(), y.data(), sh.data());
    sh /= c;  // sigma^
    lambda = y;
    sigma[0] = sh[0] - (desaxce ? mu * sh.tail<2>().norm() : Real(0));
    sigma.segment<2>(1) = sh.tail<2>();
  }
}

}  // namespace cone_relations
}  // namespace contactlab
