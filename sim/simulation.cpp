#include "sim/simulation.hpp"

#include <cmath>
#include <stdexcept>

#include "sim/settings.hpp"

namespace contactlab {

Simulation::Simulation(Model model, const PartChoice& parts)
    : model_(std::move(model)),
      law_(make_contact_model(parts.contact)),
      solver_(make_solver(parts.solver)),
      scheme_(make_scheme(parts.scheme)) {
  const std::string refusal = combination_refusal(*scheme_, *law_, *solver_);
  if (!refusal.empty()) throw std::invalid_argument("incompatible combination: " + refusal);
  model_.validate();
  bind_run_options(options_, model_, *law_, *solver_, *scheme_);
  options_.validate();
  data_.init(model_);
  reset();
}

void Simulation::set_option(const std::string& kv) {
  options_.set_assignment(kv);
  options_changed_ = true;
}

void Simulation::validate_options() {
  options_.validate();
  options_changed_ = false;
}

void Simulation::reset(const std::string& keyframe) {
  data_.init(model_);
  if (const Keyframe* key = initial_keyframe(model_, keyframe)) set_generalized_state(model_, key->qpos, key->qvel, data_);
  apply_scheduled_controls();
}

void Simulation::apply_scheduled_controls() {
  for (const ControlSchedule& s : model_.control_schedules) data_.ctrl[s.actuator] = s.value_at(data_.time);
}

void Simulation::step(Real h) {
  if (!(h > 0) || !std::isfinite(h)) throw std::invalid_argument("time step must be positive and finite");
  if (options_changed_) validate_options();
  scheme_->step(model_, data_, *law_, *solver_, h);
  check_finite_state(model_, data_);
}

void check_finite_state(const Model& model, const Data& data) {
  for (int b = 0; b < model.num_bodies(); ++b) {
    const bool finite = data.x_W[b].allFinite() && data.v_W[b].allFinite() && data.w_W[b].allFinite() &&
                        data.q_WB[b].coeffs().allFinite();
    if (!finite)
      throw std::runtime_error("simulation diverged at step " + std::to_string(data.step) + " (t = " +
                               std::to_string(data.time) + " s): body '" + model.bodies[b].name +
                               "' has a non-finite state");
  }
}

}  // namespace contactlab
