// Adjoint: the backward pass paired with a Solver. It is built from the
// solver's converged record (never from the forward code's internals) and maps
// the gradient of a loss with respect to the step's outputs (v+, lambda) to its
// inputs (v_free, bias, J, mu). Which local contact sensitivity it linearises
// (exact, Signorini-relaxed, central path) is a separate choice.
//
// This issue defines the interface only; implementations come with the
// adjoints work (see docs/design.md).
#pragma once

#include <string>

#include "contact_models/contact_model.hpp"
#include "core/constraint_problem.hpp"
#include "core/options.hpp"

namespace contactlab {

// Cotangents of a step's outputs and the resulting cotangents of its inputs.
struct StepCotangents {
  VecX lambda_bar;   // (m) dL/dlambda
  VecX v_plus_bar;   // (m) dL/dv+
};
struct ProblemCotangents {
  VecX v_free_bar;   // (m) dL/dv_f
  VecX mu_bar;       // (num_contacts) dL/dmu
  VecX compliance_bar;  // (m) dL/dR
};

class Adjoint {
 public:
  virtual ~Adjoint() = default;
  virtual std::string name() const = 0;
  // Records what it needs from a converged solve (lambda, v+, active set, operator).
  virtual void record(const ConstraintProblem& problem, const ContactModel& law, const VecX& lambda,
                      const VecX& v_plus) = 0;
  // Vector-Jacobian product of the recorded solve.
  virtual void backward(const StepCotangents& out_bar, ProblemCotangents& in_bar) const = 0;
  virtual void bind_options(OptionSet& set, const std::string& prefix) = 0;
};

}  // namespace contactlab
