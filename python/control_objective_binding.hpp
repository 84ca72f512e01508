// cl.ControlObjective's C++ side, shared by its class binding and by the
// optimisers, which run it without the GIL when it is the objective.
#pragma once

#include <memory>

#include "bindings.hpp"
#include "optimizers/control_objective.hpp"

namespace contactlab::python {

struct PyControlObjective {
  PyModel model;
  std::unique_ptr<ControlObjective> objective;
  std::vector<std::string> actuator_names;  // the spline's, in parameter order
};

// x as a vector of the objective's size; `what` names the argument in errors.
VecX parameter_vector(const py::handle& x, long size, const char* what);
// Copies as NumPy arrays: (n,) and (rows, cols), row-major.
py::array_t<double> to_array(const VecX& v);
py::array_t<double> to_array(const MatX& m);

}  // namespace contactlab::python
