#include "optimizers/control_objective.hpp"

#include <chrono>
#include <stdexcept>

#include "adjoints/grad_inputs.hpp"

namespace contactlab {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

ControlObjective::ControlObjective(RolloutSpec spec, const std::string& loss, ControlSpline spline,
                                   ControlObjectiveOptions options)
    : spec_(std::move(spec)), loss_text_(loss), spline_(std::move(spline)), options_(std::move(options)) {
  if (!spec_.ctrl_file.empty())
    throw std::invalid_argument("ControlObjective: the spec's control file '" + spec_.ctrl_file +
                                "' would be replaced by the spline's controls; remove it");
  if (!(options_.effort_weight >= 0)) throw std::invalid_argument("ControlObjective: effort_weight must be >= 0");
  options_.adjoint.Validate();
  PreparedRollout r = prepare_rollout(spec_, options_.hooks);
  if (r.steps != spline_.steps())
    throw std::invalid_argument("ControlObjective: the rollout of '" + spec_.scene + "' takes " +
                                std::to_string(r.steps) + " steps, the spline has " +
                                std::to_string(spline_.steps()));
  (void)Loss::parse(loss_text_, r.sim.model());  // errors now, not at the first iteration
  h_ = r.h;
}

PreparedRollout ControlObjective::prepare(const VecX& knots) const {
  PreparedRollout r = prepare_rollout(spec_, options_.hooks);
  MatX u;
  spline_.controls(knots, u);
  r.controls.table_actuators = spline_.actuators();
  r.controls.table.clear();
  for (long t = 0; t < spline_.steps(); ++t) {
    std::vector<Real> row(u.cols());
    for (int a = 0; a < u.cols(); ++a) row[a] = u(t, a);
    r.controls.table.emplace(t, std::move(row));
  }
  return r;
}

Evaluation ControlObjective::evaluate(const VecX& knots, VecX* gradient) const {
  Evaluation e;
  const auto t0 = Clock::now();
  PreparedRollout r = prepare(knots);
  const Loss loss = Loss::parse(loss_text_, r.sim.model());
  MatX u;
  spline_.controls(knots, u);
  const Real effort = this->effort(u);
  Rollout rollout;
  rollout.run(r, options_.checkpoint_interval);
  if (options_.on_final_state) options_.on_final_state(r.sim.model(), r.sim.data());
  if (!gradient) {
    e.loss = loss.value(r.sim.model(), r.sim.data()) + effort;
    e.forward_s = seconds_since(t0);
    return e;
  }
  e.forward_s = seconds_since(t0);
  const auto t1 = Clock::now();
  const int na = spline_.num_actuators();
  std::vector<GradInput> inputs;
  inputs.reserve(spline_.steps() * na);
  for (long t = 0; t < spline_.steps(); ++t)
    for (int a = 0; a < na; ++a) {
      GradInput in;
      in.kind = GradInput::Kind::Control;
      in.index = spline_.actuators()[a];
      in.step = t;
      in.text = "ctrl@" + std::to_string(t);
      inputs.push_back(in);
    }
  const GradientResult g = rollout.gradient(r, loss, inputs, options_.adjoint);
  MatX u_bar(spline_.steps(), na);
  for (long t = 0; t < spline_.steps(); ++t)
    for (int a = 0; a < na; ++a) u_bar(t, a) = g.gradient[t * na + a] + 2 * options_.effort_weight * h_ * u(t, a);
  spline_.pull_back(knots, u_bar, *gradient);
  e.loss = g.loss + effort;
  e.backward_s = seconds_since(t1);
  return e;
}

GradientObjective ControlObjective::function() const {
  return [this](const VecX& x, VecX* g) { return evaluate(x, g); };
}

}  // namespace contactlab
