#include "sim/gradcheck.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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
                                             const std::vector<GradInput>& inputs, Real eps) {
  if (!(eps > 0) || !std::isfinite(eps)) throw std::invalid_argument("--eps must be positive");
  std::vector<Real> out;
  out.reserve(inputs.size());
  for (const GradInput& in : inputs)
    out.push_back((rollout_loss(spec, loss, &in, eps) - rollout_loss(spec, loss, &in, -eps)) / (2 * eps));
  return out;
}

std::vector<GradCheckEntry> compare_gradients(const std::vector<GradInput>& inputs, const std::vector<Real>& analytic,
                                              const std::vector<Real>& fd, const GradCheckOptions& options) {
  if (analytic.size() != inputs.size() || fd.size() != inputs.size())
    throw std::invalid_argument("compare_gradients: sizes differ");
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
