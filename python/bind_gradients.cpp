// cl.grad and cl.gradcheck: `contactlab grad` / `gradcheck` as functions
// (sim/gradient_job.hpp runs both), returning what the CLI prints.
#include <optional>

#include "bindings.hpp"
#include "sim/gradient_job.hpp"

namespace contactlab::python {

namespace {

GradientJob make_job(const py::object& scene, const std::string& loss, const py::object& wrt,
                     std::optional<double> duration, std::optional<long> steps, const std::string& contact,
                     const std::string& solver, const std::string& scheme, std::optional<double> dt,
                     const py::dict& options, const std::string& keyframe, const py::dict& ctrl, long checkpoint) {
  RolloutArguments a;
  a.scene = scene;
  a.contact = contact, a.solver = solver, a.scheme = scheme;
  a.dt = dt, a.duration = duration, a.steps = steps;
  a.options = options, a.keyframe = keyframe, a.ctrl = ctrl;
  GradientJob job;
  job.spec = rollout_spec(a);
  if (loss.empty()) throw py::value_error("loss: required (e.g. 'final:ball.px'; docs/gradients.md)");
  job.loss = loss;
  job.wrt = wrt.is_none() ? std::string() : comma_list(wrt, "wrt");
  job.checkpoint = checkpoint;
  return job;
}

py::dict gradient_dict(const GradientJobResult& r) {
  py::dict gradient;
  for (size_t i = 0; i < r.inputs.size(); ++i) gradient[py::str(r.inputs[i].text)] = r.result.gradient[i];
  py::dict out;
  out["loss"] = r.result.loss;
  out["gradient"] = gradient;
  return out;
}

}  // namespace

void bind_gradients(py::module_& m) {
  m.def(
      "grad",
      [](const py::object& scene, const std::string& loss, const py::object& wrt, std::optional<double> duration,
         std::optional<long> steps, const std::string& contact, const std::string& solver, const std::string& scheme,
         std::optional<double> dt, const py::dict& options, const std::string& keyframe, const py::dict& ctrl,
         long checkpoint) {
        const GradientJob job =
            make_job(scene, loss, wrt, duration, steps, contact, solver, scheme, dt, options, keyframe, ctrl, checkpoint);
        GradientJobResult r;
        {
          py::gil_scoped_release release;
          r = run_gradient_job(job);
        }
        check_gradient_finite(r);
        py::dict out = gradient_dict(r);
        out["steps"] = r.result.steps;
        out["forward_s"] = r.forward_s;
        out["backward_s"] = r.backward_s;
        out["fallbacks"] = r.result.fallbacks;
        return out;
      },
      py::arg("path"), py::arg("loss"), py::arg("wrt") = py::none(), py::arg("duration") = py::none(),
      py::arg("steps") = py::none(), py::arg("contact") = "desaxce", py::arg("solver") = "padmm",
      py::arg("scheme") = "velocity", py::arg("dt") = py::none(), py::arg("options") = py::dict(),
      py::arg("keyframe") = "", py::arg("ctrl") = py::dict(), py::arg("checkpoint") = 0,
      "The rollout's loss and its gradient, as `contactlab grad`: {'loss': float, 'gradient': {input: float}} "
      "(plus 'steps', 'forward_s', 'backward_s', 'fallbacks'). wrt: a list of inputs or a comma-separated string "
      "(None: every moving body's initial position and velocity and every control); options: the --set keys, "
      "adjoint.* included; ctrl: {actuator: value} held for the run (--ctrl).");
  m.def(
      "gradcheck",
      [](const py::object& scene, const std::string& loss, const py::object& wrt, std::optional<double> duration,
         std::optional<long> steps, const std::string& contact, const std::string& solver, const std::string& scheme,
         std::optional<double> dt, const py::dict& options, const std::string& keyframe, const py::dict& ctrl,
         double eps, double tol) {
        if (wrt.is_none()) throw py::value_error("gradcheck: wrt is required (the inputs to check)");
        const GradientJob job =
            make_job(scene, loss, wrt, duration, steps, contact, solver, scheme, dt, options, keyframe, ctrl, 0);
        GradCheckOptions check;
        check.eps = eps;
        check.tolerance = tol;
        GradCheckJobResult r;
        {
          py::gil_scoped_release release;
          r = run_gradcheck_job(job, check);
        }
        py::dict out = gradient_dict(r.gradient);
        py::dict fd, rel, ok;
        py::list entries;
        for (const GradCheckEntry& e : r.entries) {
          fd[py::str(e.input)] = e.finite_difference;
          rel[py::str(e.input)] = e.relative_error;
          ok[py::str(e.input)] = e.ok;
          py::dict row;
          row["input"] = e.input;
          row["analytic"] = e.analytic;
          row["finite_difference"] = e.finite_difference;
          row["relative_error"] = e.relative_error;
          row["ok"] = e.ok;
          entries.append(row);
        }
        out["finite_difference"] = fd;
        out["relative_error"] = rel;
        out["entries"] = entries;
        out["ok"] = r.ok;
        out["eps"] = eps;
        out["tol"] = tol;
        return out;
      },
      py::arg("path"), py::arg("loss"), py::arg("wrt") = py::none(), py::arg("duration") = py::none(),
      py::arg("steps") = py::none(), py::arg("contact") = "desaxce", py::arg("solver") = "padmm",
      py::arg("scheme") = "velocity", py::arg("dt") = py::none(), py::arg("options") = py::dict(),
      py::arg("keyframe") = "", py::arg("ctrl") = py::dict(), py::arg("eps") = 1e-6, py::arg("tol") = 1e-2,
      "The gradient against central differences, as `contactlab gradcheck`: the keys of grad() plus "
      "'finite_difference', 'relative_error' (per input), 'entries' (rows of the CLI's table) and 'ok' (every "
      "entry within tol). A failed check is a result (ok False), not an exception.");
}

}  // namespace contactlab::python
