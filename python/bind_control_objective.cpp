// cl.ControlObjective: a rollout whose controls are a Catmull-Rom spline per
// actuator (optimizers/control_spline.hpp), as the loss of its knot values
// and its gradient (optimizers/control_objective.hpp). It is the objective
// the studies optimise, for a user's own scene and loss.
#include <cmath>

#include "control_objective_binding.hpp"
#include "sim/gradient_job.hpp"

namespace contactlab::python {

VecX parameter_vector(const py::handle& x, long size, const char* what) {
  using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
  const Array a = Array::ensure(x);
  if (!a) throw py::type_error(std::string(what) + ": expected a vector of numbers");
  if (a.ndim() != 1 || a.shape(0) != size)
    throw py::value_error(std::string(what) + ": expected " + std::to_string(size) + " values in one dimension, got " +
                          std::to_string(a.size()) + " in " + std::to_string(a.ndim()));
  VecX v(size);
  for (long i = 0; i < size; ++i) {
    v[i] = a.data()[i];
    if (!std::isfinite(v[i])) throw py::value_error(std::string(what) + "[" + std::to_string(i) + "] is not finite");
  }
  return v;
}

py::array_t<double> to_array(const VecX& v) {
  py::array_t<double> a(v.size());
  for (long i = 0; i < v.size(); ++i) a.mutable_data()[i] = v[i];
  return a;
}

py::array_t<double> to_array(const MatX& m) {
  py::array_t<double> a({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
  for (long r = 0; r < m.rows(); ++r)
    for (long c = 0; c < m.cols(); ++c) a.mutable_data()[r * m.cols() + c] = m(r, c);
  return a;
}

namespace {

std::unique_ptr<PyControlObjective> make(const RolloutArguments& args, const std::string& loss,
                                         const py::object& actuators, int knots, double effort_weight,
                                         long checkpoint) {
  if (loss.empty()) throw py::value_error("loss: required (e.g. 'final:ball.px'; docs/gradients.md)");
  if (checkpoint < 0) throw py::value_error("checkpoint: must be >= 0");
  auto out = std::make_unique<PyControlObjective>();
  out->model = model_argument(args.scene);
  RolloutArguments a = args;
  a.scene = py::cast(out->model);
  RolloutSpec spec = rollout_spec(a);
  ControlObjectiveOptions options;
  spec.sets = apply_adjoint_settings(spec.sets, options.adjoint);
  options.effort_weight = effort_weight;
  options.checkpoint_interval = checkpoint;
  std::vector<std::string> names;
  if (!actuators.is_none()) {
    const std::string list = comma_list(actuators, "actuators");
    for (size_t p = 0; p <= list.size();) {
      const size_t q = std::min(list.find(',', p), list.size());
      if (q > p) names.push_back(list.substr(p, q - p));
      p = q + 1;
    }
  }
  if (!spec.steps) spec.steps = prepare_rollout(spec).steps;  // from duration, or the scene's
  ControlSpline spline(*out->model.model, names, knots, *spec.steps);
  for (int i : spline.actuators()) out->actuator_names.push_back(out->model.model->actuators[i].name);
  out->objective = std::make_unique<ControlObjective>(std::move(spec), loss, std::move(spline), std::move(options));
  return out;
}

}  // namespace

void bind_control_objective(py::module_& m) {
  py::class_<PyControlObjective>(
      m, "ControlObjective",
      "The loss of a rollout as a function of spline knots: one uniform Catmull-Rom spline of `knots` values per "
      "actuator over the run, clamped to ctrlrange (docs/python.md, docs/optimizers.md). Parameters are "
      "actuator-major: [actuator 0 knots 0..K-1, actuator 1 ...]. The gradient is one backward pass.")
      .def(py::init([](const py::object& scene, const std::string& loss, const py::object& actuators, int knots,
                       std::optional<double> duration, std::optional<long> steps, const std::string& contact,
                       const std::string& solver, const std::string& scheme, std::optional<double> dt,
                       const py::dict& options, const std::string& keyframe, const py::dict& ctrl,
                       double effort_weight, long checkpoint) {
             RolloutArguments a;
             a.scene = scene;
             a.contact = contact, a.solver = solver, a.scheme = scheme;
             a.dt = dt, a.duration = duration, a.steps = steps;
             a.options = options, a.keyframe = keyframe, a.ctrl = ctrl;
             return make(a, loss, actuators, knots, effort_weight, checkpoint);
           }),
           py::arg("path"), py::arg("loss"), py::arg("actuators") = py::none(), py::arg("knots") = 10,
           py::arg("duration") = py::none(), py::arg("steps") = py::none(), py::arg("contact") = "desaxce",
           py::arg("solver") = "padmm", py::arg("scheme") = "velocity", py::arg("dt") = py::none(),
           py::arg("options") = py::dict(), py::arg("keyframe") = "", py::arg("ctrl") = py::dict(),
           py::arg("effort_weight") = 0.0, py::arg("checkpoint") = 0,
           "path: a cl.Model, a built-in name or an MJCF path; loss: as cl.grad's (a final-state loss); actuators: "
           "the spline's (None: every actuator); the others as cl.grad's. effort_weight adds "
           "effort_weight * h * sum_t |u_t|^2.")
      .def_property_readonly("num_parameters",
                             [](const PyControlObjective& o) { return o.objective->spline().num_parameters(); })
      .def_property_readonly("knots", [](const PyControlObjective& o) { return o.objective->spline().num_knots(); })
      .def_property_readonly("steps", [](const PyControlObjective& o) { return o.objective->steps(); })
      .def_property_readonly("dt", [](const PyControlObjective& o) { return o.objective->h(); })
      .def_property_readonly("actuators", [](const PyControlObjective& o) { return o.actuator_names; })
      .def_property_readonly("loss", [](const PyControlObjective& o) { return o.objective->loss(); })
      .def(
          "__call__",
          [](const PyControlObjective& o, const py::object& x) {
            const VecX v = parameter_vector(x, o.objective->spline().num_parameters(), "x");
            py::gil_scoped_release release;
            return o.objective->evaluate(v, nullptr).loss;
          },
          py::arg("x"), "The loss at knots x (one forward rollout).")
      .def(
          "value_and_grad",
          [](const PyControlObjective& o, const py::object& x) {
            const VecX v = parameter_vector(x, o.objective->spline().num_parameters(), "x");
            VecX g;
            Evaluation e;
            {
              py::gil_scoped_release release;
              e = o.objective->evaluate(v, &g);
            }
            return py::make_tuple(e.loss, to_array(g));
          },
          py::arg("x"), "(loss, dloss/dx) at knots x: one forward and one backward pass.")
      .def(
          "controls",
          [](const PyControlObjective& o, const py::object& x) {
            const VecX v = parameter_vector(x, o.objective->spline().num_parameters(), "x");
            MatX u;
            o.objective->spline().controls(v, u);
            return to_array(u);
          },
          py::arg("x"), "The per-step controls of knots x, (steps, len(actuators)), clamped to ctrlrange.")
      .def(
          "constant",
          [](const PyControlObjective& o, double value) {
            if (!std::isfinite(value)) throw py::value_error("constant: the value must be finite");
            return to_array(o.objective->spline().constant(value));
          },
          py::arg("value"), "Knots whose spline is the constant `value` (clamped to each range): a starting point.")
      .def(
          "rollout",
          [](const PyControlObjective& o, const py::object& x) {
            const VecX v = parameter_vector(x, o.objective->spline().num_parameters(), "x");
            PreparedRollout r = o.objective->prepare(v);
            const Model& mdl = r.sim.model();
            BodyRows bodies(r.steps + 1, mdl.num_bodies());
            bodies.record(0, mdl, r.sim.data());
            run_interruptibly(r.steps, 256, [&](long k) {
              r.sim.apply_scheduled_controls();
              r.controls.apply(r.sim.data());
              r.sim.step(r.h);
              bodies.record(k + 1, mdl, r.sim.data());
            });
            py::dict out;
            bodies.put(mdl, out);
            return out;
          },
          py::arg("x"),
          "The rollout that knots x drive, as Simulation.rollout's arrays (time, pos, quat, linvel, angvel, "
          "body_names): what an optimised x does.");
}

}  // namespace contactlab::python
