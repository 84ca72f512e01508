#include "sim/rollout_setup.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/settings.hpp"

namespace contactlab {

namespace {

Real parse_control_value(const std::string& text, const std::string& context) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v)) throw std::invalid_argument(context);
  return v;
}

void read_control_table(const std::string& path, const Model& model, ControlOverrides& out) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot open control file '" + path + "'");
  std::string line;
  if (!std::getline(in, line))
    throw std::invalid_argument(path + ":1: empty control file (expected header step,ACTUATOR,...)");
  {
    std::stringstream ss(line);
    std::string cell;
    std::getline(ss, cell, ',');
    if (cell != "step") throw std::invalid_argument(path + ":1: first column must be 'step'");
    while (std::getline(ss, cell, ',')) {
      const int a = model.find_actuator(cell);
      if (a < 0) throw std::invalid_argument(path + ":1: unknown actuator '" + cell + "'");
      out.table_actuators.push_back(a);
    }
    if (out.table_actuators.empty()) throw std::invalid_argument(path + ":1: no actuator columns");
  }
  int lineno = 1;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(lineno) + ": ";
    std::stringstream ss(line);
    std::string cell;
    std::vector<Real> values;
    long step = -1;
    int col = 0;
    while (std::getline(ss, cell, ',')) {
      const Real v = parse_control_value(cell, where + "bad number '" + cell + "'");
      if (col == 0) step = static_cast<long>(v);
      else values.push_back(v);
      ++col;
    }
    if (values.size() != out.table_actuators.size())
      throw std::invalid_argument(where + "expected " + std::to_string(out.table_actuators.size() + 1) + " columns");
    out.table[step] = values;
  }
}

}  // namespace

void ControlOverrides::apply(Data& data) const {
  for (const auto& c : constant) data.ctrl[c.first] = c.second;
  const auto it = table.find(data.step);
  if (it == table.end()) return;
  for (size_t i = 0; i < table_actuators.size(); ++i) data.ctrl[table_actuators[i]] = it->second[i];
}

ControlOverrides parse_control_overrides(const std::vector<std::string>& ctrls, const std::string& ctrl_file,
                                         const Model& model) {
  ControlOverrides out;
  for (const auto& kv : ctrls) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("bad --ctrl '" + kv + "': expected ACTUATOR=VALUE");
    const int a = model.find_actuator(kv.substr(0, eq));
    if (a < 0) throw std::invalid_argument("unknown actuator '" + kv.substr(0, eq) + "' in --ctrl");
    const std::string v = kv.substr(eq + 1);
    out.constant.emplace_back(a, parse_control_value(v, "bad value '" + v + "' in --ctrl " + kv));
  }
  if (!ctrl_file.empty()) read_control_table(ctrl_file, model, out);
  return out;
}

PreparedRollout prepare_rollout(const RolloutSpec& spec, const RolloutHooks& hooks) {
  if (!spec.model)
    throw std::invalid_argument("rollout of '" + spec.scene + "': no model (read the scene with load_scene first)");
  Model model = *spec.model;
  // Settings first (they may change the model: body.NAME.mass, geom.NAME.friction),
  // then the caller's edit, so a perturbation applies on top of the user's values.
  {
    OptionSet parameters;
    bind_model_parameters(parameters, model);
    for (const auto& kv : spec.sets)
      if (is_model_parameter(kv)) parameters.set_assignment(kv);
  }
  if (hooks.edit_model) {
    hooks.edit_model(model);
    model.validate();
  }
  PreparedRollout out{Simulation(std::move(model), PartChoice{spec.contact, spec.solver, spec.scheme}), 0, 0, {}};
  for (const auto& kv : spec.sets)
    if (!is_model_parameter(kv)) out.sim.set_option(kv);
  out.sim.validate_options();
  out.sim.reset(spec.keyframe);
  if (hooks.edit_initial_state) hooks.edit_initial_state(out.sim.model(), out.sim.data());
  const Model& m = out.sim.model();

  if (spec.dt < 0 || !std::isfinite(spec.dt)) throw std::invalid_argument("--dt must be positive");
  out.h = spec.dt > 0 ? spec.dt : m.options.timestep;
  if (spec.duration >= 0 && spec.steps >= 0) throw std::invalid_argument("give --duration or --steps, not both");
  out.steps = spec.steps;
  if (out.steps < 0) {
    const Real duration = spec.duration >= 0 ? spec.duration : m.default_duration;
    out.steps = static_cast<long>(std::llround(duration / out.h));
  }
  out.controls = parse_control_overrides(spec.ctrls, spec.ctrl_file, m);
  return out;
}

}  // namespace contactlab
