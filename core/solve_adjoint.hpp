// SolveAdjoint: the solve's part of a step adjoint, the reverse mode of
// lambda(A, b, mu) at a converged solve (interface; the implementations, each
// paired with its solver, live in adjoints/ — adjoints/solve_adjoint.hpp has
// their math — and the pairing table in sim/registry.cpp).
#pragma once

#include <string>

#include "core/constraint_problem.hpp"
#include "core/contact_model.hpp"
#include "core/math.hpp"
#include "core/sensitivity.hpp"

namespace contactlab {

// adjoint.solve: the solver's paired adjoint, or the dense reference for all.
enum class AdjointSolve { Paired, Reference };
const char* to_string(AdjointSolve choice);
AdjointSolve parse_adjoint_solve(const std::string& name);  // "paired" | "reference"; else throws

struct KrylovOptions {
  int max_iterations = 500;  // PCR / GMRES iterations (GMRES restarts every `restart`)
  int restart = 60;
  Real tolerance = 1e-12;  // |residual| <= tolerance |right-hand side|
  void Validate() const;
};

struct SolveAdjointStats {
  std::string method;  // "reference", "pcr", "gmres", "cholesky", "lu", "hessian"
  int iterations = 0;  // Krylov iterations (0 for direct solves)
  Real residual = 0;   // relative residual of the last solve (Krylov)
  bool fell_back_to_reference = false;
  std::string fallback_reason;
};

class SolveAdjoint {
 public:
  virtual ~SolveAdjoint() = default;
  virtual const char* name() const = 0;  // the pairing: "reference", "newton", "padmm", "convex_newton"

  // problem: the step's problem at its recorded inputs (kept by reference
  // until vjp); law: the forward law (a convex law's contact compliance joins
  // A); lambda: the recorded impulses (m).
  virtual void linearise(const ConstraintProblem& problem, const ContactModel& law, const VecX& lambda,
                         const SensitivityOptions& options) = 0;
  // u_plus_bar (6 nb) and lambda_bar = J M^-1 u_plus_bar (m) -> b_bar (m) and
  // mu_bar (num_contacts). The cotangent of A is b_bar lambda^T.
  virtual void vjp(const VecX& u_plus_bar, const VecX& lambda_bar, VecX& b_bar, VecX& mu_bar) = 0;

  virtual const SensitivityReport& report() const = 0;
  const SolveAdjointStats& stats() const { return stats_; }
  KrylovOptions krylov;

 protected:
  SolveAdjointStats stats_;
};

}  // namespace contactlab
