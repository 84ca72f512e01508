#include "adjoints/law_linearisation.hpp"

#include <sstream>
#include <stdexcept>

#include "adjoints/local_relaxed_point.hpp"

namespace contactlab {

void linearise_law(const LocalProblem& problem, const VecX& lambda, const VecX& sigma_hard,
                   const SensitivityOptions& options, SensitivityReport& report, LawLinearisation& out) {
  options.Validate();
  problem.check();
  const int m = problem.num_rows();
  if (lambda.size() != m || !lambda.allFinite() || sigma_hard.size() != m || !sigma_hard.allFinite()) {
    std::ostringstream s;
    s << "linearise_law: lambda and sigma must have " << m << " finite entries (got " << lambda.size() << ", "
      << sigma_hard.size() << ")";
    throw std::invalid_argument(s.str());
  }
  report = SensitivityReport{};
  report.requested = options.kind;

  // Modes of the hard solution (all kinds: the relaxed ones hold the
  // tangential law, or nothing, by mode).
  out.lambda = lambda;
  out.sigma = sigma_hard;
  const local_relations::Scales scales = local_relations::scales_of(problem, lambda, options.rho);
  const local_relations::Modes modes =
      local_relations::detect_modes(problem, out.lambda, out.sigma, options.slip_threshold * scales.velocity);
  report.contact_modes = modes.contact;
  report.limit_active = modes.limit_active;

  SensitivityKind used = options.kind;
  if (is_relaxed(options)) {
    const local_relaxed_point::RelaxedPoint p = local_relaxed_point::find(used, problem, modes, lambda, options);
    report.newton_converged = p.converged;
    report.newton_iterations = p.iterations;
    report.newton_residual = p.residual;
    report.cone_check_passed = p.interior;
    report.continuation_used = p.continuation_used;
    report.continuation_reason = p.first_failure;
    if (p.ok()) {
      out.lambda = p.lambda;
      out.sigma = p.sigma;
    } else {
      used = SensitivityKind::Exact;
      report.fell_back_to_exact = true;
      report.fallback_reason = p.failure;
    }
  }
  report.used = used;
  report.rank = m;
  local_relations::evaluate(used, options.custom.get(), problem, modes, options.rho, scales, out.lambda, out.sigma,
                            out.L);
}

}  // namespace contactlab
