#include "sim/rollout_setup.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/run_parameters.hpp"
#include "sim/settings.hpp"

namespace contactlab {

namespace {

Real parse_control_value(const std::string& text, const std::string& context, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v)) throw std::invalid_argument(context);
  return check_control(v, what);
}

// A line of a file written on Windows ends in "\r\n": getline leaves the '\r'.
bool read_line(std::istream& in, std::string& line) {
  if (!std::getline(in, line)) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

void read_control_table(const std::string& path, const Model& model, long steps, ControlOverrides& out) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot open control file '" + path + "'");
  std::string line;
  if (!read_line(in, line))
    throw std::invalid_argument(path + ":1: empty control file (expected header step,ACTUATOR,...)");
  if (line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);  // a UTF-8 byte order mark (spreadsheets write one)
  {
    std::stringstream ss(line);
    std::string cell;
    std::getline(ss, cell, ',');
    if (cell != "step")
      throw std::invalid_argument(path + ":1: first column must be 'step', got '" + printable(cell) + "'");
    while (std::getline(ss, cell, ',')) {
      const int a = model.find_actuator(cell);
      if (a < 0) throw std::invalid_argument(path + ":1: unknown actuator '" + printable(cell) + "'");
      out.table_actuators.push_back(a);
    }
    if (out.table_actuators.empty()) throw std::invalid_argument(path + ":1: no actuator columns");
  }
  int lineno = 1;
  while (read_line(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(lineno) + ": ";
    std::stringstream ss(line);
    std::string cell;
    std::vector<Real> values;
    long step = -1;
    int col = 0;
    while (std::getline(ss, cell, ',')) {
      if (col == 0) {
        step = parse_step_number(cell, where + "step");
      } else {
        const std::string what = where + "column " + std::to_string(col + 1);
        values.push_back(parse_control_value(cell, where + "bad number '" + printable(cell) + "'", what));
      }
      ++col;
    }
    if (values.size() != out.table_actuators.size())
      throw std::invalid_argument(where + "expected " + std::to_string(out.table_actuators.size() + 1) + " columns");
    if (steps >= 0 && step >= steps)
      throw std::invalid_argument(where + "step " + std::to_string(step) + " is past the run's last step (the run takes " +
                                  std::to_string(steps) + " steps, numbered from 0)");
    if (!out.table.emplace(step, values).second)
      throw std::invalid_argument(where + "step " + std::to_string(step) + " is given twice");
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
                                         const Model& model, long steps) {
  ControlOverrides out;
  for (const auto& kv : ctrls) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("bad --ctrl '" + kv + "': expected ACTUATOR=VALUE");
    const int a = model.find_actuator(kv.substr(0, eq));
    if (a < 0) throw std::invalid_argument("unknown actuator '" + printable(kv.substr(0, eq)) + "' in --ctrl");
    const std::string v = kv.substr(eq + 1);
    out.constant.emplace_back(a, parse_control_value(v, "bad value '" + v + "' in --ctrl " + kv, "--ctrl " + kv));
  }
  if (!ctrl_file.empty()) read_control_table(ctrl_file, model, steps, out);
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
    bool changed = false;
    for (const auto& kv : spec.sets)
      if (is_model_parameter(kv)) parameters.set_assignment(kv), changed = true;
    if (changed) model.validate();  // e.g. an inertia the mass scaled out of range
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

  // The rules of sim/run_parameters.hpp; the file's values passed Model::validate.
  out.h = spec.dt ? check_time_step(*spec.dt) : m.options.timestep;
  if (spec.duration && spec.steps) throw std::invalid_argument("give --duration or --steps, not both");
  if (spec.steps) {
    out.steps = check_steps(*spec.steps);
  } else if (spec.duration) {
    std::ostringstream given;
    given << "--duration " << *spec.duration;
    out.steps = steps_for_duration(check_duration(*spec.duration), out.h, given.str());
  } else {
    out.steps = steps_for_duration(m.default_duration, out.h, "the scene's contactlab.duration");
  }
  out.controls = parse_control_overrides(spec.ctrls, spec.ctrl_file, m, out.steps);
  return out;
}

}  // namespace contactlab
