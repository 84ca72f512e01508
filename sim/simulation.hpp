// Simulation: a Model with its chosen parts (contact model, solver, scheme),
// their options and one world's Data. This is what the CLI and the validation
// tests drive; batches of worlds use sim/batch.hpp.
#pragma once

#include <memory>
#include <string>

#include "core/data.hpp"
#include "core/model.hpp"
#include "core/options.hpp"
#include "sim/registry.hpp"
#include "sim/settings.hpp"

namespace contactlab {

struct PartChoice {
  std::string contact = "desaxce";
  std::string solver = "padmm";
  std::string scheme = "velocity";
};

class Simulation {
 public:
  // Throws std::invalid_argument for unknown parts or a refused combination.
  Simulation(Model model, const PartChoice& parts);

  // `--set KEY=VALUE`: solver.*, contact.* (alias model.*), scheme.*, and the
  // model's parameters body.NAME.mass, geom.NAME.friction, actuator.NAME.kp|kv
  // (sim/settings.hpp). Throws naming the key when it is unknown or the value
  // does not parse or fit its range.
  void set_option(const std::string& key_equals_value);
  // Each part's validation of its options (OptionSet::validate); throws naming
  // the first bad field. step() runs it after options changed, so settings may
  // be given in any order.
  void validate_options();
  std::string describe_options() const { return options_.describe(); }
  const OptionSet& options() const { return options_; }

  // Puts the world at its initial state: the named keyframe, else the first
  // keyframe if the model has one, else qpos0 at rest.
  void reset(const std::string& keyframe = "");
  // Controls: scheduled ones (<custom> contactlab.ctrl.*) at the current time;
  // callers may overwrite data().ctrl afterwards.
  void apply_scheduled_controls();
  // One step of length h. Throws std::runtime_error when the state turns
  // non-finite (divergence), naming the step and the body.
  void step(Real h);

  const Model& model() const { return model_; }
  Data& data() { return data_; }
  const Data& data() const { return data_; }
  const ContactModel& contact_model() const { return *law_; }
  const Solver& solver() const { return *solver_; }
  const Scheme& scheme() const { return *scheme_; }

 private:
  void validate_options() const;
  Model model_;
  std::unique_ptr<ContactModel> law_;
  std::unique_ptr<Solver> solver_;
  std::unique_ptr<Scheme> scheme_;
  OptionSet options_;
  bool options_changed_ = false;
  Data data_;
};

// Throws std::runtime_error "simulation diverged at step N (t = T s): body
// 'NAME' has a non-finite state" when a body's pose or twist is not finite.
// Simulation::step calls it after every step; a peer engine's run calls it on
// the state read back.
void check_finite_state(const Model& model, const Data& data);

}  // namespace contactlab
