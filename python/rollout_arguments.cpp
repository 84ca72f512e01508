// The keyword arguments that name a rollout (scene, parts, dt, duration or
// steps, options, keyframe, held controls) as a RolloutSpec: one reading for
// cl.grad, cl.gradcheck, cl.ControlObjective and cl.ilqr.
#include "bindings.hpp"

namespace contactlab::python {

RolloutSpec rollout_spec(const RolloutArguments& a) {
  const PyModel m = model_argument(a.scene);
  RolloutSpec spec;
  spec.scene = m.label;
  spec.model = m.model;
  spec.contact = a.contact;
  spec.solver = a.solver;
  spec.scheme = a.scheme;
  spec.dt = a.dt;
  spec.duration = a.duration;
  spec.steps = a.steps;
  spec.sets = option_settings(a.options);
  spec.keyframe = a.keyframe;
  for (const auto& [name, value] : a.ctrl) {
    py::dict one;
    one[name] = value;
    // "NAME=VALUE" as --ctrl: the option text of the value, checked by the same parser.
    spec.ctrls.push_back(option_settings(one).front());
  }
  return spec;
}

}  // namespace contactlab::python
