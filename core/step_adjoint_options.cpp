#include "core/step_adjoint_options.hpp"

#include <cmath>
#include <stdexcept>

namespace contactlab {

void StepAdjointOptions::bind(
    OptionSet& set, const std::string& p,
    const std::vector<std::pair<std::string, std::shared_ptr<const CustomSensitivity>>>& custom) {
  SensitivityOptions& s = sensitivity;
  // The kind is a built-in enum value or a user-defined object: one choice
  // entry over both (a custom kind sets kind = Custom and the object).
  using Choice = std::pair<SensitivityKind, std::shared_ptr<const CustomSensitivity>>;
  std::vector<std::pair<std::string, Choice>> kinds = {{"exact", {SensitivityKind::Exact, nullptr}},
                                                       {"signorini", {SensitivityKind::Signorini, nullptr}},
                                                       {"central_path", {SensitivityKind::CentralPath, nullptr}},
                                                       {"frozen_w", {SensitivityKind::FrozenW, nullptr}}};
  std::string help = "local contact sensitivity: exact | signorini | central_path | frozen_w";
  for (const auto& c : custom) {
    kinds.push_back({c.first, {SensitivityKind::Custom, c.second}});
    help += " | " + c.first;
  }
  auto current = [&s, kinds]() -> std::string {
    for (const auto& k : kinds)
      if (k.second.first == s.kind && (s.kind != SensitivityKind::Custom || k.second.second == s.custom)) return k.first;
    return s.kind == SensitivityKind::Custom && s.custom ? s.custom->name() : to_string(s.kind);
  };
  set.add_text(p + "sensitivity", help, current, [&s, kinds](const std::string& value) {
    std::string all;
    for (const auto& k : kinds) {
      if (k.first == value) {
        s.kind = k.second.first;
        s.custom = k.second.second;
        return;
      }
      all += (all.empty() ? "" : "|") + k.first;
    }
    throw std::invalid_argument("expected one of " + all);
  });
  set.add(p + "rho", &s.rho, "J = N s m/s, relaxation of the signorini and central_path sensitivities (> 0)");
  set.add(p + "delta", &s.delta, "m/s, normal offset of the unilateral rows (relaxed kinds)");
  set.add(p + "newton_iterations", &s.newton_iterations, "Newton iterations to the relaxed point, per attempt", 1);
  set.add(p + "newton_tolerance", &s.newton_tolerance, "relative residual of the relaxed relations", 0, 1);
  set.add(p + "continuation_stages", &s.continuation_stages, "rho-continuation stages on a failed Newton (0: none)",
          0);
  set.add(p + "continuation_factor", &s.continuation_factor, "ratio of successive continuation rho (> 1)");
  set.add(p + "slip_threshold", &s.slip_threshold,
          "|sigma_t| below this times the velocity scale: a sliding contact counts as sticking", 0);
  set.add(p + "singular_tolerance", &s.singular_tolerance,
          "reciprocal condition below which the linearised law is solved by minimum norm", 0);
  set.add_choice<AdjointSolve>(p + "solve", &solve, {{"paired", AdjointSolve::Paired},
                                                     {"reference", AdjointSolve::Reference}},
                               "the solve's VJP: paired with the solver (contactlab list adjoints) | reference (dense)");
  set.add(p + "krylov_iterations", &krylov.max_iterations, "PCR / GMRES iterations of the matrix-free pairings", 1);
  set.add(p + "krylov_restart", &krylov.restart, "GMRES restart length", 1);
  set.add(p + "krylov_tolerance", &krylov.tolerance, "Krylov stopping tolerance, relative to the right-hand side",
          0, 1);
  set.add_choice<bool>(p + "pullback", &truncated, {{"full", false}, {"truncated", true}},
                       "full | truncated (contact geometry held fixed within the step, Ostrich IV-D)");
  set.add(p + "pullback_step", &pullback_step,
          "central-difference step of the pull-back's differenced parts (0: automatic)", 0);
  set.add_choice<bool>(p + "pullback_derivative", &exact_pullback, {{"dual", true}, {"differences", false}},
                       "the pull-back's state and control derivative: dual (exact) | differences");
  set.add(p + "geometric_stiffness", &geometric_stiffness,
          "backward Euler: the exact step map (true) or Ostrich's adjoint, E_delta = I (false)");
  set.add_validator([this] { Validate(); });
}

void StepAdjointOptions::Validate() const {
  sensitivity.Validate();
  krylov.Validate();
  const OptionCheck require("StepAdjointOptions");
  require(pullback_step >= 0 && std::isfinite(pullback_step), "pullback_step", pullback_step,
          "must be finite and >= 0 (0: automatic)");
}

}  // namespace contactlab
