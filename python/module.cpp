// The Python module's entry point (`import contactlab` loads it through
// python/contactlab/__init__.py). docs/python.md is the user's guide.
#include "bindings.hpp"

#include "io/mjcf.hpp"

PYBIND11_MODULE(_contactlab, m) {
  namespace py = pybind11;
  using namespace contactlab::python;
  m.doc() = "contactlab's C++ core (import the contactlab package; docs/python.md)";
  // An MJCF file the reader refuses: a ValueError subclass whose message names file and line.
  py::register_exception<contactlab::MjcfError>(m, "MjcfError", PyExc_ValueError);
  bind_model(m);
  bind_simulation(m);
  bind_gradients(m);
  bind_batch(m);
  bind_parts(m);
  bind_optimizers(m);
  bind_control_objective(m);
}
