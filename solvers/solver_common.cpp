#include "solvers/solver_common.hpp"

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace solver_common {

void check_problem(const ConstraintProblem& pr, const char* solver) {
  const int m = pr.num_rows();
  const bool ok = pr.num_bilateral >= 0 && pr.num_limit >= 0 && pr.num_contacts >= 0 &&
                  pr.num_bilateral + pr.num_limit + 3 * pr.num_contacts == m &&
                  static_cast<int>(pr.compliance.size()) == m && static_cast<int>(pr.v_free.size()) == m &&
                  static_cast<int>(pr.mu.size()) == pr.num_contacts &&
                  (pr.explicit_delassus()
                       ? pr.explicit_W->size() == m
                       : static_cast<int>(pr.inv_mass.size()) == pr.num_bodies &&
                             static_cast<int>(pr.inv_inertia_W.size()) == pr.num_bodies);
  if (!ok)
    throw std::invalid_argument(std::string(solver) +
                                ": ConstraintProblem sizes are inconsistent (rows, compliance, v_free, mu, bodies)");
  for (const ConstraintRow& row : pr.rows)
    if (row.body_a >= pr.num_bodies || row.body_b >= pr.num_bodies)
      throw std::invalid_argument(std::string(solver) + ": ConstraintProblem row refers to a body out of range");
}

void begin_solve(SolveStats& stats, int history_capacity, int m, std::vector<Real>& lambda,
                 std::vector<Real>& v_plus) {
  stats.status = SolveStatus::Converged;
  stats.iterations = 0;
  stats.r_primal = stats.r_dual = stats.r_compl = 0;
  stats.penalty = 0;
  if (stats.record_history) {
    stats.residual_history.clear();
    stats.residual_history.reserve(history_capacity);
  }
  lambda.resize(m);
  v_plus.resize(m);
}

void fail_solve(SolveStats& stats, std::vector<Real>& lambda, std::vector<Real>& v_plus) {
  stats.status = SolveStatus::NumericalFailure;
  std::fill(lambda.begin(), lambda.end(), Real(0));
  std::fill(v_plus.begin(), v_plus.end(), Real(0));
}

const Real* law_contact_compliance(const ContactModel& law, const Real* mu, int nc, Real* R) {
  if (law.is_hard()) {
    std::fill(R, R + 3 * nc, Real(0));
    return nullptr;
  }
  law.contact_compliance(mu, nc, R);
  return R;
}

Real complementarity_residual(const ConstraintProblem& pr, const Real* lambda, const Real* v, const Real* contact_w) {
  Real r = 0;
  for (int i = pr.num_bilateral; i < pr.contact_offset(); ++i) max_into(r, std::abs(lambda[i] * v[i]));
  const Real* l = lambda + pr.contact_offset();
  const Real* w = contact_w;
  for (int k = 0; k < pr.num_contacts; ++k)
    max_into(r, std::abs(l[3 * k] * w[3 * k] + l[3 * k + 1] * w[3 * k + 1] + l[3 * k + 2] * w[3 * k + 2]));
  return r;
}

}  // namespace solver_common
}  // namespace contactlab
