#include "optimizers/batch_population.hpp"

#include <memory>
#include <stdexcept>

#include "sim/batch.hpp"

namespace contactlab {

PopulationObjective batch_population(const ControlObjective& objective, int threads) {
  BatchOptions options;
  options.threads = threads;
  options.Validate();
  const RolloutSpec& spec = objective.spec();
  // The loss and the constant controls, parsed once against the spec's model.
  const Model& model = *spec.model;
  auto loss = std::make_shared<Loss>(Loss::parse(objective.loss(), model));
  auto constants = std::make_shared<ControlOverrides>(parse_control_overrides(spec.ctrls, "", model));
  auto batch = std::make_shared<std::unique_ptr<Batch>>();
  return [&objective, options, loss, constants, batch](const std::vector<VecX>& candidates, std::vector<Real>& losses) {
    const int n = static_cast<int>(candidates.size());
    const RolloutSpec& spec = objective.spec();
    if (!*batch || (*batch)->num_worlds() != n) {
      *batch = std::make_unique<Batch>(*spec.model, PartChoice{spec.contact, spec.solver, spec.scheme}, n, options);
      for (const std::string& kv : spec.sets) (*batch)->set_option(kv);
    }
    Batch& b = **batch;
    b.reset(spec.keyframe);
    const ControlSpline& spline = objective.spline();
    std::vector<MatX> u(n);
    for (int w = 0; w < n; ++w) spline.controls(candidates[w], u[w]);
    BatchState& s = b.state();
    for (long t = 0; t < objective.steps(); ++t) {
      b.apply_scheduled_controls();
      for (int w = 0; w < n; ++w) {
        for (const auto& [a, value] : constants->constant) s.ctrl[s.actuator(w, a)] = value;
        for (int j = 0; j < spline.num_actuators(); ++j) s.ctrl[s.actuator(w, spline.actuators()[j])] = u[w](t, j);
      }
      b.step(objective.h());
    }
    losses.resize(n);
    for (int w = 0; w < n; ++w) losses[w] = loss->value(b.model(), b.world_data(w)) + objective.effort(u[w]);
  };
}

}  // namespace contactlab
