// The Python module's entry point.
#include <pybind11/pybind11.h>

PYBIND11_MODULE(_contactlab, m) { m.doc() = "contactlab's C++ core (use the contactlab package)"; }
