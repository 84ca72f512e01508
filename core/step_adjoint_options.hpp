// The options of the built-in step adjoints (`--set adjoint.KEY=VALUE`; docs/gradients.md):
// the local sensitivity, the solve's VJP and the position pull-back.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/options.hpp"
#include "core/sensitivity.hpp"
#include "core/solve_adjoint.hpp"

namespace contactlab {

struct StepAdjointOptions {
  SensitivityOptions sensitivity;
  // Central-difference step of the pull-back (state units, rad, parameter
  // units); 0: automatic, 1e-8 for the velocity scheme (below the 1e-6 m
  // contact slop, whose kink a larger step straddles), 1e-6 for backward Euler
  // (no slop; M^-1 up to 1e4 on a light body amplifies a smaller step's rounding).
  Real pullback_step = 0;
  Real step_for(Real automatic) const { return pullback_step > 0 ? pullback_step : automatic; }
  bool truncated = false;     // hold contact geometry fixed within the step (Ostrich §IV-D)
  // The pull-back's derivative with respect to the state and the controls:
  // exact, by dual numbers through the forward code (true), or central
  // differences of step pullback_step (false). Parameters always by differences.
  bool exact_pullback = true;
  // The solve's VJP: paired with the forward solver, or the dense reference
  // for every solver (adjoints/solve_adjoint.hpp). Backward Euler always uses
  // its own dense local problem (adjoints/backward_euler_step_adjoint.hpp).
  AdjointSolve solve = AdjointSolve::Paired;
  KrylovOptions krylov;       // the matrix-free pairings' PCR / GMRES
  // Backward Euler: differentiate the step map exactly (true: E_delta with the
  // geometric stiffness d(J^T lambda)/du+ and the rows' motion, by central
  // differences), or Ostrich's adjoint (false: E_delta = I, W_delta = J_d, the
  // forward Newton's Schur operator, solved by the solver's pairing).
  bool geometric_stiffness = true;

  // Binds every field under `prefix` ("adjoint.": adjoint.sensitivity, rho,
  // delta, newton_iterations, ..., solve, krylov_*, pullback, pullback_step,
  // pullback_derivative, geometric_stiffness) with Validate as its validator.
  // `custom`: user-defined kinds offered as choices of sensitivity besides the
  // built-in ones (sim/registry.hpp: bind_adjoint_options passes the registered ones).
  void bind(OptionSet& set, const std::string& prefix,
            const std::vector<std::pair<std::string, std::shared_ptr<const CustomSensitivity>>>& custom = {});
  // Throws std::invalid_argument naming the first bad field.
  void Validate() const;
};

}  // namespace contactlab
