// What the binding files share: the Python model handle, the conversion of
// an `options` dict into the CLI's KEY=VALUE settings, and one function per
// file that adds its part of the module (module.cpp calls them in order).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "sim/rollout_setup.hpp"

namespace contactlab::python {

namespace py = pybind11;

// cl.Model: a model as read, shared (never copied) by the simulations made from it.
struct PyModel {
  std::shared_ptr<const Model> model;
  std::string label;  // what it was loaded from: a built-in name or a path
};

// A scene argument: a cl.Model, a built-in name or an MJCF path (read now).
PyModel model_argument(const py::handle& scene, bool allow_unsupported = false);

// {"solver.max_iterations": 500, "adjoint.sensitivity": "central_path"} ->
// ["solver.max_iterations=500", ...]; bools as true/false, floats as their
// shortest round-trip text (repr), so the C++ side reads the same double.
std::vector<std::string> option_settings(const py::dict& options);

// The keyword arguments every rollout-taking function shares, as given.
struct RolloutArguments {
  py::object scene;
  std::string contact = "desaxce", solver = "padmm", scheme = "velocity";
  std::optional<double> dt, duration;
  std::optional<long> steps;
  py::dict options;  // the --set keys, adjoint.* included
  std::string keyframe;
  py::dict ctrl;     // {actuator: value} held for the run (--ctrl)
};
// Reads the scene (a cl.Model, a built-in name or a path) and the rest, as the CLI would.
RolloutSpec rollout_spec(const RolloutArguments& arguments);

// A rollout's body arrays, one row per recorded state: time (rows,), and
// per body its frame origin's pos (rows, nb, 3), quat (rows, nb, 4; w first),
// linvel and angvel (rows, nb, 3), as the trajectory CSV writes them.
struct BodyRows {
  BodyRows(py::ssize_t rows, py::ssize_t bodies);
  void record(py::ssize_t row, const Model& m, const Data& d);
  // Adds time, pos, quat, linvel, angvel and body_names to `out`.
  void put(const Model& m, py::dict& out) const;
  py::array_t<double> time, pos, quat, linvel, angvel;
};

// A list of names ("ctrl:push", ...) or one comma-separated string -> "a,b".
std::string comma_list(const py::handle& names, const char* what);

// body(k) for k = 0 .. steps-1 without the GIL, back in Python every `chunk`
// steps to let Ctrl-C (KeyboardInterrupt) stop a long loop.
template <class Body>
void run_interruptibly(long steps, long chunk, Body body) {
  for (long s0 = 0; s0 < steps; s0 += chunk) {
    const long s1 = std::min(steps, s0 + chunk);
    {
      py::gil_scoped_release release;
      for (long k = s0; k < s1; ++k) body(k);
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

void bind_model(py::module_& m);
void bind_simulation(py::module_& m);
void bind_gradients(py::module_& m);
void bind_batch(py::module_& m);
void bind_parts(py::module_& m);
void bind_optimizers(py::module_& m);
void bind_control_objective(py::module_& m);

}  // namespace contactlab::python
