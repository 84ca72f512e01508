// The paired adjoints behind the registry's pairing table (sim/registry.cpp);
// one file each: matrix_free_solve_adjoint.cpp (newton, padmm matrix free),
// dense_delassus_solve_adjoint.cpp (padmm dense), hessian_solve_adjoint.cpp
// (convex_newton). Not part of the public interface.
#pragma once

#include <memory>

#include "adjoints/solve_adjoint.hpp"
#include "solvers/convex_newton.hpp"

namespace contactlab {

std::unique_ptr<SolveAdjoint> make_matrix_free_solve_adjoint(const char* pairing);
std::unique_ptr<SolveAdjoint> make_dense_delassus_solve_adjoint();
std::unique_ptr<SolveAdjoint> make_hessian_solve_adjoint(const ConvexNewtonOptions& options);

// What every implementation shares: the recorded inputs, the lazily built
// reference it falls back to, and that fallback.
class PairedSolveAdjointBase : public SolveAdjoint {
 public:
  const SensitivityReport& report() const override { return falling_back_ ? reference_->report() : report_; }

 protected:
  // Keeps the inputs for a possible fallback and clears the stats.
  void begin(const ConstraintProblem& problem, const ContactModel& law, const VecX& lambda,
             const SensitivityOptions& options, const char* method);
  // The reference's answer, with the reason recorded.
  void fall_back(const std::string& reason, const VecX& u_plus_bar, const VecX& lambda_bar, VecX& b_bar,
                 VecX& mu_bar);

  const ConstraintProblem* problem_ = nullptr;
  const ContactModel* law_ = nullptr;
  VecX lambda_;
  SensitivityOptions options_;
  SensitivityReport report_;
  bool falling_back_ = false;

 private:
  std::unique_ptr<SolveAdjoint> reference_;
};

}  // namespace contactlab
