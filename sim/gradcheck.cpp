#include "sim/gradcheck.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "sim/run_parameters.hpp"

namespace contactlab {

Real rollout_loss(const RolloutSpec& spec, const std::string& loss_spec, const GradInput* input, Real eps) {
  RolloutHooks hooks;
  if (input) {
    hooks.edit_model = [&](Model& m) { perturb_model(*input, eps, m); };
    hooks.edit_initial_state = [&](const Model& m, Data& d) { perturb_initial_state(*input, eps, m, d); };
  }
  PreparedRollout r = prepare_rollout(spec, hooks);
  const Loss loss = Loss::parse(loss_spec, r.sim.model());
  const int na = static_cast<int>(r.sim.model().actuators.size());
  std::vector<Real> applied;
  for (long s = 0; s < r.steps; ++s) {
    r.sim.apply_scheduled_controls();
    r.controls.apply(r.sim.data());
    // Controls persist between steps where nothing schedules them: perturb this
    // step's value only, and put the unperturbed one back afterwards.
    applied = r.sim.data().ctrl;
    if (input)
      for (int a = 0; a < na; ++a) r.sim.data().ctrl[a] += control_perturbation(*input, eps, a, r.sim.data().step);
    r.sim.step(r.h);
    r.sim.data().ctrl = applied;
  }
  return loss.value(r.sim.model(), r.sim.data());
}

std::vector<Real> finite_difference_gradient(const RolloutSpec& spec, const std::string& loss,
                                             const std::vector<GradInput>& inputs, Real eps,
                                             const RolloutProgress& progress) {
  check_finite_difference_step(eps, "--eps");
  std::ostringstream eps_text;
  eps_text << eps;
  // The unperturbed rollout was valid (the caller ran it); a perturbed one the
  // model or the run refuses is the step's fault: say so, naming --eps.
  auto perturbed_loss = [&](const GradInput& in, Real e) {
    try {
      return rollout_loss(spec, loss, &in, e);
    } catch (const std::invalid_argument& why) {
      throw std::invalid_argument(parameter_error("--eps", eps_text.str(),
                                                  "too large: " + in.text + " perturbed by " + (e > 0 ? "+" : "-") +
                                                      eps_text.str() + " is refused (" + why.what() +
                                                      "); give a smaller --eps"));
    } catch (const std::runtime_error& why) {
      throw std::runtime_error(std::string(why.what()) + " (in the finite-difference rollout with " + in.text +
                               " perturbed by " + (e > 0 ? "+" : "-") + eps_text.str() + ", --eps)");
    }
  };
  std::vector<Real> out;
  out.reserve(inputs.size());
  const long total = 2 * static_cast<long>(inputs.size());
  long done = 0;
  for (const GradInput& in : inputs) {
    const Real plus = perturbed_loss(in, eps);
    if (progress) progress(++done, total);
    const Real minus = perturbed_loss(in, -eps);
    if (progress) progress(++done, total);
    out.push_back((plus - minus) / (2 * eps));
  }
  return out;
}

std::vector<GradCheckEntry> compare_gradients(const std::vector<GradInput>& inputs, const std::vector<Real>& analytic,
                                              const std::vector<Real>& fd, const GradCheckOptions& options) {
  if (analytic.size() != inputs.size() || fd.size() != inputs.size())
    throw std::invalid_argument("compare_gradients: sizes differ");
  check_tolerance(options.tolerance, "--tol");
  std::vector<GradCheckEntry> out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    GradCheckEntry e;
    e.input = inputs[i].text;
    e.analytic = analytic[i];
    e.finite_difference = fd[i];
    const Real scale = std::max(std::abs(analytic[i]), std::abs(fd[i]));
    e.relative_error = scale < options.abs_floor ? 0 : std::abs(analytic[i] - fd[i]) / scale;
    e.ok = std::isfinite(analytic[i]) && std::isfinite(fd[i]) && e.relative_error <= options.tolerance;
    out.push_back(e);
  }
  return out;
}

}  // namespace contactlab
