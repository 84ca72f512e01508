// Projected Jacobi on the dual problem: a solver written outside contactlab
// against its public interface (core/solver.hpp). Every row moves at once,
// from the same velocities v = D lambda + v_f (D with the law's compliance):
//   bilateral  lambda_r <- lambda_r - w v_r / D_rr
//   limits     lambda_r <- max(0, lambda_r - w v_r / D_rr)
//   contacts   lambda_k <- Pi_K(lambda_k - (w / D_kk,nn) (v_k + Gamma(v_k)))
// It converges for a relaxation w below 2 / (the largest eigenvalue of the
// diagonally scaled D); unlike Gauss-Seidel its updates are independent (one
// batch call of the law per sweep: the form a GPU runs). It stops when the
// natural-map residual, the measure every solver shares, is below tolerance.
#pragma once

#include <contactlab/contact_models/contact_kernel.hpp>
#include <contactlab/core/residuals.hpp>
#include <contactlab/core/solver.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

class JacobiSolver final : public contactlab::Solver {
 public:
  using Real = contactlab::Real;
  Real relaxation = 0.25;  // w
  Real tolerance = 1e-6;   // m/s, natural-map residual
  int max_iterations = 5000;

  std::string name() const override { return "jacobi"; }
  bool accepts(const contactlab::ContactModel&, std::string*) const override { return true; }
  std::unique_ptr<contactlab::SolverWorkspace> make_workspace() const override { return std::make_unique<Workspace>(); }
  void bind_options(contactlab::OptionSet& set, const std::string& prefix) override {
    set.add(prefix + "relaxation", &relaxation, "w, the fraction of 1/D_ii each sweep moves", 0, 2);
    set.add(prefix + "tolerance", &tolerance, "m/s, the natural-map residual at which to stop", 0);
    set.add(prefix + "max_iterations", &max_iterations, "sweeps", 1);
  }

 protected:
  struct Workspace final : contactlab::SolverWorkspace {
    std::vector<Real> step, shift, R, twist;  // (m), (3 nc), (3 nc), (twist size)
  };

  void do_solve(const contactlab::ConstraintProblem& p, const contactlab::ContactModel& law,
                const contactlab::WarmStart& warm, contactlab::SolverWorkspace& workspace, std::vector<Real>& lambda,
                std::vector<Real>& v, contactlab::SolveStats& stats) const override {
    using namespace contactlab;
    Workspace& ws = static_cast<Workspace&>(workspace);
    const int m = p.num_rows(), off = p.contact_offset(), nc = p.num_contacts;
    lambda.assign(m, 0);
    if (warm.valid && static_cast<int>(warm.lambda.size()) == m) std::copy(warm.lambda.begin(), warm.lambda.end(), lambda.begin());
    v.resize(m);
    ws.step.resize(m);
    ws.shift.resize(3 * nc);
    ws.R.assign(3 * nc, 0);
    ws.twist.resize(p.twist_size());
    if (nc > 0) law.contact_compliance(p.mu.data(), nc, ws.R.data());
    for (int r = 0; r < m; ++r) {
      const Real d = delassus_diagonal_entry(p, r) + p.compliance[r] + (r >= off ? ws.R[r - off] : 0);
      ws.step[r] = relaxation / std::max(d, Real(1e-12));
    }
    for (int k = 0; k < nc; ++k) ws.step[off + 3 * k + 1] = ws.step[off + 3 * k + 2] = ws.step[off + 3 * k];
    const ContactKernel kernel = law.contact_kernel();
    stats.status = SolveStatus::MaxIterations;
    for (int it = 0;; ++it) {
      // v = (D + R_law) lambda + v_f
      if (m > 0) p.apply_delassus(lambda.data(), v.data(), ws.twist.data());
      for (int r = 0; r < m; ++r) v[r] += (r >= off ? ws.R[r - off] * lambda[r] : 0) + p.v_free[r];
      stats.iterations = it;
      if (natural_map_residual(p, law, lambda, v, ws.residual_scratch) <= tolerance) {
        stats.status = SolveStatus::Converged;
        return;
      }
      if (it == max_iterations) return;
      for (int r = 0; r < off; ++r) {
        const Real x = lambda[r] - ws.step[r] * v[r];
        lambda[r] = r < p.num_bilateral ? x : std::max(Real(0), x);
      }
      if (nc == 0) continue;
      law.velocity_shift(p.mu.data(), nc, v.data() + off, ws.shift.data());
      for (int k = 0; k < nc; ++k) {
        Real* l = &lambda[off + 3 * k];
        const Real c = ws.step[off + 3 * k];
        for (int i = 0; i < 3; ++i) l[i] -= c * (v[off + 3 * k + i] + ws.shift[3 * k + i]);
        contact_kernel::project_primal_step(kernel, p.mu[k], c, l);  // inline for the built-in laws
      }
    }
  }
};
