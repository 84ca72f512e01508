// The part registry: one explicit table per axis in sim/registry.cpp —
// contact laws, solvers, time-stepping schemes, and the solve adjoint paired
// with each solver — and the public functions that add a user's part at run
// time (called from the user's program before the part is used; there is no
// static-initialisation self-registration). Everything that makes parts by
// name (Simulation, Batch, Rollout, the comparison, gradcheck, the command
// line) goes through these tables, so a registered part runs everywhere a
// built-in one does. docs/extending.md shows both ways of adding a part.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "core/contact_model.hpp"
#include "core/options.hpp"
#include "core/scheme.hpp"
#include "core/sensitivity.hpp"
#include "core/solve_adjoint.hpp"
#include "core/solver.hpp"
#include "core/step_adjoint.hpp"
#include "core/step_adjoint_options.hpp"

namespace contactlab {

struct PartInfo {
  std::string name;
  std::string summary;  // one line for `contactlab list`
  bool builtin = true;  // false: registered at run time
};

using ContactModelFactory = std::function<std::unique_ptr<ContactModel>()>;
using SolverFactory = std::function<std::unique_ptr<Solver>()>;
using SchemeFactory = std::function<std::unique_ptr<Scheme>()>;
// The solve adjoint paired with a solver, made from the solver itself (its
// options decide, e.g. padmm's dense or matrix-free Delassus).
using SolveAdjointFactory = std::function<std::unique_ptr<SolveAdjoint>(const Solver&)>;

// Run-time registration. Names are [a-z][a-z0-9_]* and unique within their
// axis; the part a factory makes must report the same name(). Throws
// std::invalid_argument for a bad, empty or already registered name or an
// empty factory. Thread-safe; register before building simulations with it.
void register_contact_model(const std::string& name, const std::string& summary, ContactModelFactory make);
void register_solver(const std::string& name, const std::string& summary, SolverFactory make);
// `adjoint`, when given, makes the scheme's step adjoint (Scheme::make_step_adjoint);
// without one, the scheme's own make_step_adjoint answers (null: not differentiable).
void register_scheme(const std::string& name, const std::string& summary, SchemeFactory make,
                     StepAdjointFactory adjoint = {});
// Pairs the solver `solver_name` (registered or not yet) with its solve
// adjoint; a solver without a pairing is differentiated with the dense
// reference (adjoints/solve_adjoint.hpp).
void register_solve_adjoint(const std::string& solver_name, const std::string& summary, SolveAdjointFactory make);

// A user-defined sensitivity kind (core/sensitivity.hpp: CustomSensitivity),
// then chosen with `--set adjoint.sensitivity=NAME` like the built-in ones.
void register_sensitivity_kind(const std::string& name, const std::string& summary,
                               std::shared_ptr<const CustomSensitivity> kind);

// Factories for a pairing that needs the part's concrete type S: the
// registry calls them only with a part made by S's own entry (checked).
template <class S>
SolveAdjointFactory typed_solve_adjoint(std::function<std::unique_ptr<SolveAdjoint>(const S&)> make);
template <class S>
StepAdjointFactory typed_step_adjoint(std::function<std::unique_ptr<StepAdjoint>(const S&)> make);

// The tables, built-in parts first, in registration order.
std::vector<PartInfo> contact_model_names();
std::vector<PartInfo> solver_names();
std::vector<PartInfo> scheme_names();
// One entry per paired solver: name = the solver, summary = the pairing.
std::vector<PartInfo> solve_adjoint_pairings();
// One entry per scheme with a registered step adjoint: name = the scheme.
std::vector<PartInfo> step_adjoint_pairings();
// The sensitivity kinds: exact, signorini, central_path, frozen_w, then registered ones.
std::vector<PartInfo> sensitivity_kinds();

// Binds the adjoint's options (StepAdjointOptions::bind) with every
// registered sensitivity kind among the choices of `prefix`sensitivity.
void bind_adjoint_options(OptionSet& set, StepAdjointOptions& options, const std::string& prefix = "adjoint.");

// Throw std::invalid_argument naming the unknown part and listing the known ones.
std::unique_ptr<ContactModel> make_contact_model(const std::string& name);
std::unique_ptr<Solver> make_solver(const std::string& name);
std::unique_ptr<Scheme> make_scheme(const std::string& name);

// The solve adjoint for `solver`: its pairing (AdjointSolve::Paired), or the
// dense reference (AdjointSolve::Reference, and for solvers without one).
std::unique_ptr<SolveAdjoint> make_solve_adjoint(const Solver& solver, AdjointSolve choice);

// Empty when the triple can run together, otherwise a one-line reason.
std::string combination_refusal(const Scheme& scheme, const ContactModel& law, const Solver& solver);

// ---- implementation of the template ----
namespace registry_detail {
[[noreturn]] void wrong_part_type(const std::string& part, const char* expected, const char* got);
}

template <class S>
SolveAdjointFactory typed_solve_adjoint(std::function<std::unique_ptr<SolveAdjoint>(const S&)> make) {
  return [make](const Solver& solver) {
    if (typeid(solver) != typeid(S)) registry_detail::wrong_part_type(solver.name(), typeid(S).name(), typeid(solver).name());
    return make(static_cast<const S&>(solver));
  };
}

template <class S>
StepAdjointFactory typed_step_adjoint(std::function<std::unique_ptr<StepAdjoint>(const S&)> make) {
  return [make](const Scheme& scheme) {
    if (typeid(scheme) != typeid(S)) registry_detail::wrong_part_type(scheme.name(), typeid(S).name(), typeid(scheme).name());
    return make(static_cast<const S&>(scheme));
  };
}

}  // namespace contactlab
