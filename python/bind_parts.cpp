// cl.list_parts, cl.combinations and cl.solve_problem: the registry's tables
// (sim/registry.hpp) and `contactlab solve` on one fc3d file.
#include <algorithm>

#include "bindings.hpp"
#include "io/fc3d_io.hpp"
#include "sim/registry.hpp"
#include "studies/fc3d_solve.hpp"

namespace contactlab::python {

namespace {

py::list part_list(const std::vector<PartInfo>& parts) {
  py::list out;
  for (const PartInfo& p : parts) {
    py::dict d;
    d["name"] = p.name;
    d["summary"] = p.summary;
    d["builtin"] = p.builtin;
    out.append(d);
  }
  return out;
}

py::array_t<double> vector_array(const VecX& v) { return py::array_t<double>(v.size(), v.data()); }

}  // namespace

void bind_parts(py::module_& m) {
  m.def("list_parts", [] {
    py::dict out;
    out["contact"] = part_list(contact_model_names());
    out["solver"] = part_list(solver_names());
    out["scheme"] = part_list(scheme_names());
    out["sensitivity"] = part_list(sensitivity_kinds());
    out["solve_adjoint"] = part_list(solve_adjoint_pairings());
    return out;
  }, "the registered parts per axis ({'contact': [{'name', 'summary', 'builtin'}], 'solver': ..., 'scheme': ..., "
     "'sensitivity': ..., 'solve_adjoint': ...}), as `contactlab list`");
  m.def("combinations", [] {
    // A scheme is differentiable through its own step adjoint or one registered for it.
    std::vector<std::string> adjoint_schemes;
    for (const PartInfo& p : step_adjoint_pairings()) adjoint_schemes.push_back(p.name);
    py::list out;
    for (const PartInfo& scheme : scheme_names())
      for (const PartInfo& law : contact_model_names())
        for (const PartInfo& solver : solver_names()) {
          const auto s = make_scheme(scheme.name);
          const auto l = make_contact_model(law.name);
          const auto v = make_solver(solver.name);
          const std::string refusal = combination_refusal(*s, *l, *v);
          py::dict d;
          d["scheme"] = scheme.name;
          d["contact"] = law.name;
          d["solver"] = solver.name;
          d["runs"] = refusal.empty();
          const bool has_adjoint =
              s->make_step_adjoint() != nullptr ||
              std::find(adjoint_schemes.begin(), adjoint_schemes.end(), scheme.name) != adjoint_schemes.end();
          d["differentiable"] = refusal.empty() && has_adjoint && l->has_linearisation();
          d["reason"] = refusal;
          out.append(d);
        }
    return out;
  }, "every scheme x contact x solver triple: {'scheme', 'contact', 'solver', 'runs', 'differentiable', 'reason'} "
     "(reason: why it cannot run, empty when it can)");
  m.def(
      "solve_problem",
      [](const py::object& path, const std::string& solver, const std::string& contact, const py::dict& options,
         double tol) {
        const std::string file = py::str(py::module_::import("os").attr("fspath")(path));
        Fc3dSolveOptions o;
        o.solver = solver;
        o.contact = contact;
        o.sets = option_settings(options);
        o.tol = tol;
        Fc3dSolveResult r;
        {
          py::gil_scoped_release release;
          r = solve_fc3d(read_fc3d_problem(file), o);
        }
        py::dict errors;
        errors["natural_map"] = r.errors.natural_map;
        errors["relative"] = r.errors.relative;
        errors["siconos"] = r.errors.siconos;
        errors["r_primal"] = r.errors.r_primal;
        errors["r_dual"] = r.errors.r_dual;
        errors["r_compl"] = r.errors.r_compl;
        py::dict out;
        out["solver"] = r.solver;
        out["contact"] = r.contact;
        out["success"] = r.success;
        out["iterations"] = r.stats.iterations;
        out["rounds"] = r.rounds;
        out["time_s"] = r.time_s;
        out["sparse_W"] = r.sparse_W;
        out["r"] = vector_array(r.r);
        out["u"] = vector_array(r.u);
        out["errors"] = errors;
        return out;
      },
      py::arg("path"), py::arg("solver") = "padmm", py::arg("contact") = "", py::arg("options") = py::dict(),
      py::arg("tol") = 1e-6,
      "Solves one frictional-contact problem (Siconos .dat or FCLib .hdf5), as `contactlab solve`: r and u = W r + q "
      "(3 per contact, normal first), the errors measured on them (not the solver's own), success against tol.");
}

}  // namespace contactlab::python
