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
  law_->bind_options(options_, "contact.");
  solver_->bind_options(options_, "solver.");
  scheme_->bind_options(options_, "scheme.");
  model_.validate();
  data_.init(model_);
  reset();
}

void Simulation::set_option(const std::string& kv) { apply_setting(model_, options_, kv); }

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
  scheme_->step(model_, data_, *law_, *solver_, h);
  for (int b = 0; b < model_.num_bodies(); ++b) {
    const bool finite = data_.x_W[b].allFinite() && data_.v_W[b].allFinite() && data_.w_W[b].allFinite() &&
                        data_.q_WB[b].coeffs().allFinite();
    if (!finite)
      throw std::runtime_error("simulation diverged at step " + std::to_string(data_.step) + " (t = " +
                               std::to_string(data_.time) + " s): body '" + model_.bodies[b].name +
                               "' has a non-finite state");
  }
}

}  // namespace contactlab
