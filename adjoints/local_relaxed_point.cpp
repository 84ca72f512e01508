#include "adjoints/local_relaxed_point.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "contact_models/soc_smoothing.hpp"  // smoothed_pair of the limit rows

namespace contactlab {
namespace local_relaxed_point {

namespace {

using local_relations::Linearisation;
using local_relations::Modes;
using local_relations::Scales;

constexpr Real kArmijo = 1e-4;    // sufficient decrease of the merit per unit step
constexpr Real kMinStep = 1e-10;  // smallest step fraction before the line search gives up

// Everything one Newton run needs besides the iterate.
struct Setup {
  SensitivityKind kind;
  const CustomSensitivity* custom;  // the kind's object when kind is Custom
  const LocalProblem& pr;
  const Modes& modes;
  Scales scales;
  Real delta;
  int max_iterations;
  Real tolerance;
  Real singular_tolerance;
};

// K x = rhs with K's rows equilibrated (they mix units); minimum-norm least
// squares where the equilibrated K is singular (redundant contacts), as the
// linearisation does (local_sensitivity.cpp).
VecX newton_direction(MatX K, VecX rhs, Real singular_tolerance) {
  for (Eigen::Index i = 0; i < K.rows(); ++i) {
    const Real r = K.row(i).cwiseAbs().maxCoeff();
    if (r > 0) {
      K.row(i) /= r;
      rhs[i] /= r;
    }
  }
  const Eigen::PartialPivLU<MatX> lu(K);
  if (lu.rcond() > singular_tolerance) return lu.solve(rhs);
  Eigen::CompleteOrthogonalDecomposition<MatX> cod;
  cod.setThreshold(std::max(singular_tolerance, Real(Eigen::NumTraits<Real>::epsilon())));
  cod.compute(K);
  return cod.solve(rhs);
}

// r_d = sigma - A lambda - b - delta E_N.
VecX offset_residual(const Setup& s, const VecX& lambda, const VecX& sigma) {
  VecX rd = sigma - s.pr.A * lambda - s.pr.b;
  for (int i = 0; i < s.pr.num_limit; ++i) rd[s.pr.num_bilateral + i] -= s.delta;
  for (int k = 0; k < s.pr.num_contacts; ++k) rd[s.pr.contact_offset() + 3 * k] -= s.delta;
  return rd;
}

Real relative_residual(const Setup& s, const Linearisation& L, const VecX& rd) {
  Real r = rd.size() ? rd.lpNorm<Eigen::Infinity>() / s.scales.velocity : Real(0);
  for (int i = 0; i < L.residual.size(); ++i) r = std::max(r, std::abs(L.residual[i]) / L.scale[i]);
  return r;
}

// |r_c / weight|^2 + |r_d / velocity|^2, weights from the iterate the step starts at.
Real merit(const Setup& s, const VecX& rc, const VecX& weight, const VecX& rd) {
  return rc.cwiseQuotient(weight).squaredNorm() + (rd / s.scales.velocity).squaredNorm();
}

struct Run {
  bool converged = false, interior = false;
  int iterations = 0;
  Real residual = 0;
  std::string failure;
};

// Damped Newton on F_rho from (lambda, sigma), updated in place.
Run newton(const Setup& s, Real rho, VecX& lambda, VecX& sigma) {
  Run run;
  Linearisation L, trial;
  bool inside = local_relations::interior(s.kind, s.custom, s.pr, lambda, sigma);
  for (int it = 0;; ++it) {
    local_relations::evaluate(s.kind, s.custom, s.pr, s.modes, rho, s.scales, lambda, sigma, L);
    const VecX rd = offset_residual(s, lambda, sigma);
    run.iterations = it;
    run.residual = relative_residual(s, L, rd);
    run.interior = inside;
    if (run.residual <= s.tolerance) {
      run.converged = true;
      return run;
    }
    if (it == s.max_iterations) {
      std::ostringstream m;
      m << "Newton did not converge in " << it << " iterations (relative residual " << run.residual << ")";
      run.failure = m.str();
      return run;
    }
    const MatX K = L.C_lambda + L.C_sigma * s.pr.A;
    const VecX dl = newton_direction(K, -L.residual + L.C_sigma * rd, s.singular_tolerance);
    if (!dl.allFinite()) {
      run.failure = "Newton direction not finite";
      return run;
    }
    const VecX ds = s.pr.A * dl - rd;
    const Real m0 = merit(s, L.residual, L.scale, rd);
    Real alpha = 1;
    // Once inside the cones, stay inside (the relaxed point is interior).
    while (inside && alpha >= kMinStep &&
           !local_relations::interior(s.kind, s.custom, s.pr, lambda + alpha * dl, sigma + alpha * ds))
      alpha /= 2;
    for (; alpha >= kMinStep; alpha /= 2) {
      const VecX l1 = lambda + alpha * dl, s1 = sigma + alpha * ds;
      local_relations::evaluate(s.kind, s.custom, s.pr, s.modes, rho, s.scales, l1, s1, trial);
      if (merit(s, trial.residual, L.scale, offset_residual(s, l1, s1)) <= (1 - kArmijo * alpha) * m0) break;
    }
    if (alpha < kMinStep) {
      std::ostringstream m;
      m << "Newton line search failed after " << it << " iterations (relative residual " << run.residual << ")";
      run.failure = m.str();
      return run;
    }
    lambda += alpha * dl;
    sigma += alpha * ds;
    inside = local_relations::interior(s.kind, s.custom, s.pr, lambda, sigma);
  }
}

// Replaces each relaxed block of the hard (lambda, sigma) by the central point
// of its natural-map argument x = lambda - c sigma^ at rho c (c = 1/A_ii):
// then y - s = x, lambda = y, sigma^ = s / c satisfy that block's relation
// with rho exactly and lie inside the cones.
void smoothed_start(const Setup& s, Real rho, VecX& lambda, VecX& sigma) {
  const LocalProblem& pr = s.pr;
  for (int i = 0; i < pr.num_limit; ++i) {
    const int r = pr.num_bilateral + i;
    const Real c = local_relations::natural_step(pr, r);
    Real a, b;
    soc_smoothing::smoothed_pair(lambda[r] - c * sigma[r], rho * c, a, b);
    lambda[r] = a;
    sigma[r] = b / c;
  }
  if (pr.num_contacts == 0) return;
  // The contacts: the law's start (or the custom kind's).
  const int off = pr.contact_offset();
  const std::vector<Real> steps = local_relations::contact_steps(pr);
  const ContactModel& law = pr.contact_law();
  if (s.kind == SensitivityKind::Custom && s.custom)
    s.custom->relaxed_start(law, pr.mu.data(), pr.num_contacts, s.modes.contact.data(), steps.data(), rho,
                            lambda.data() + off, sigma.data() + off);
  else
    law.relaxed_start(s.kind, pr.mu.data(), pr.num_contacts, s.modes.contact.data(), steps.data(), rho,
                      lambda.data() + off, sigma.data() + off);
}

}  // namespace

RelaxedPoint find(SensitivityKind kind, const LocalProblem& pr, const Modes& modes, const VecX& lambda_hard,
                  const SensitivityOptions& options) {
  if (!pr.has_matrix())
    throw std::invalid_argument("local_relaxed_point::find: the relaxed point needs the local problem's matrix A");
  const Setup s{kind,
                options.custom.get(),
                pr,
                modes,
                local_relations::scales_of(pr, lambda_hard, options.rho),
                options.delta,
                options.newton_iterations,
                options.newton_tolerance,
                options.singular_tolerance};
  RelaxedPoint out;
  auto record = [&](const Run& run) {
    out.converged = run.converged;
    out.interior = run.interior;
    out.iterations += run.iterations;
    out.residual = run.residual;
  };
  // 1. From the hard solution.
  out.lambda = lambda_hard;
  out.sigma = pr.A * lambda_hard + pr.b;
  const Run first = newton(s, options.rho, out.lambda, out.sigma);
  record(first);
  if (out.ok()) return out;
  const std::string why = !first.failure.empty() ? first.failure : "cone check failed at the Newton root";
  if (options.continuation_stages == 0) {
    out.failure = why;
    return out;
  }
  // 2. rho-continuation from the per-block central points.
  out.continuation_used = true;
  out.first_failure = why;
  const int J = options.continuation_stages;
  Real rho_j = options.rho * std::pow(options.continuation_factor, -(J - 1));
  out.lambda = lambda_hard;
  out.sigma = pr.A * lambda_hard + pr.b;
  smoothed_start(s, rho_j, out.lambda, out.sigma);
  for (int j = 0; j < J; ++j, rho_j *= options.continuation_factor) {
    if (j == J - 1) rho_j = options.rho;  // no drift from repeated products
    const Run run = newton(s, rho_j, out.lambda, out.sigma);
    record(run);
    if (!out.ok()) {
      std::ostringstream m;
      m << why << "; continuation stage " << j + 1 << " of " << J << " (rho " << rho_j
        << "): " << (run.failure.empty() ? "cone check failed" : run.failure);
      out.failure = m.str();
      return out;
    }
  }
  return out;
}

}  // namespace local_relaxed_point
}  // namespace contactlab
