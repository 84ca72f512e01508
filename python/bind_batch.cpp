// cl.Batch: many worlds of one model stepped together on the CPU pool
// (sim/batch.hpp). Its state arrays are NumPy views of the batch's own
// memory, world-major: (num_worlds, nbody, 3).
#include <chrono>
#include <optional>

#include "bindings.hpp"
#include "sim/batch.hpp"
#include "sim/run_parameters.hpp"

namespace contactlab::python {

namespace {

constexpr long kBatchStepsPerSignalCheck = 64;

struct PyBatch {
  PyModel model;
  std::unique_ptr<Batch> batch;
  double h = 0;
  std::string keyframe;
};

BatchMode batch_mode(const std::string& name) {
  if (name == "per_world") return BatchMode::PerWorld;
  if (name == "batched_padmm") return BatchMode::BatchedPadmm;
  throw py::value_error("mode '" + name + "': expected per_world or batched_padmm");
}

BatchDevice batch_device(const std::string& name) {
  if (name == "cpu") return BatchDevice::Cpu;
  if (name == "cuda") return BatchDevice::Cuda;
  throw py::value_error("device '" + name + "': expected cpu or cuda");
}

template <class T>
py::array view(std::vector<T>& v, std::vector<py::ssize_t> shape, const py::handle& owner, bool writable) {
  py::array_t<double> a(shape, reinterpret_cast<double*>(v.data()), owner);
  if (!writable) py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(a);
}

py::dict batch_rollout(PyBatch& b, long steps, bool scheduled_controls) {
  if (steps < 0) throw py::value_error("rollout(steps=" + std::to_string(steps) + "): must be >= 0");
  const Model& m = b.batch->model();
  const py::ssize_t W = b.batch->num_worlds(), nb = m.num_bodies(), rows = steps + 1;
  py::array_t<double> pos({rows, W, nb, py::ssize_t(3)}), quat({rows, W, nb, py::ssize_t(4)}), time({rows, W});
  py::array_t<long> contacts({steps, W}), converged({steps, W}), iterations({steps, W});
  double *P = pos.mutable_data(), *Q = quat.mutable_data(), *T = time.mutable_data();
  long *C = contacts.mutable_data(), *V = converged.mutable_data(), *I = iterations.mutable_data();
  auto record = [&](long row) {
    const BatchState& s = b.batch->state();
    for (py::ssize_t w = 0; w < W; ++w) {
      T[row * W + w] = s.time[w];
      for (py::ssize_t k = 0; k < nb; ++k) {
        const int i = s.body(static_cast<int>(w), static_cast<int>(k));
        // Body-frame origins, as Simulation.rollout and the trajectory CSV.
        const Vec3 p = s.x_W[i] - s.q_WB[i] * m.bodies[k].com_B;
        const Quat& q = s.q_WB[i];
        double* pr = P + ((row * W + w) * nb + k) * 3;
        double* qr = Q + ((row * W + w) * nb + k) * 4;
        pr[0] = p.x(), pr[1] = p.y(), pr[2] = p.z();
        qr[0] = q.w(), qr[1] = q.x(), qr[2] = q.y(), qr[3] = q.z();
      }
    }
  };
  record(0);
  run_interruptibly(steps, kBatchStepsPerSignalCheck, [&](long k) {
    if (scheduled_controls) b.batch->apply_scheduled_controls();
    b.batch->step(b.h);
    for (py::ssize_t w = 0; w < W; ++w) {
      const StepMetrics& mt = b.batch->world_metrics(static_cast<int>(w));
      C[k * W + w] = mt.num_contacts, V[k * W + w] = mt.converged ? 1 : 0, I[k * W + w] = mt.iterations;
    }
    record(k + 1);
  });
  py::dict out;
  out["time"] = time;
  out["pos"] = pos;
  out["quat"] = quat;
  out["contacts"] = contacts;
  out["converged"] = converged;
  out["iterations"] = iterations;
  std::vector<std::string> names;
  for (const Body& body : m.bodies) names.push_back(body.name);
  out["body_names"] = names;
  return out;
}

}  // namespace

void bind_batch(py::module_& m) {
  py::class_<PyBatch>(m, "Batch",
                      "num_worlds worlds of one model stepped together on a thread pool (docs/batch.md). The state "
                      "arrays (x_W, v_W, w_W, q_WB, ctrl, time) are views of the batch's memory: writing x_W or ctrl "
                      "changes the worlds. Controls are the scenes' schedules unless written into ctrl after "
                      "apply_scheduled_controls().")
      .def(py::init([](const py::object& model, int num_worlds, const std::string& contact, const std::string& solver,
                       const std::string& scheme, std::optional<double> dt, const py::dict& options,
                       const std::string& mode, const std::string& device, int threads, const std::string& keyframe) {
             auto out = std::make_unique<PyBatch>();
             out->model = model_argument(model);
             BatchOptions o;
             o.mode = batch_mode(mode);
             o.device = batch_device(device);
             o.threads = threads;
             o.Validate();
             out->batch = std::make_unique<Batch>(*out->model.model, PartChoice{contact, solver, scheme}, num_worlds, o);
             for (const std::string& kv : option_settings(options)) out->batch->set_option(kv);
             out->h = dt ? check_time_step(*dt, "dt") : out->model.model->options.timestep;
             out->keyframe = keyframe;
             out->batch->reset(keyframe);
             return out.release();
           }),
           py::arg("model"), py::arg("num_worlds"), py::arg("contact") = "desaxce", py::arg("solver") = "padmm",
           py::arg("scheme") = "velocity", py::arg("dt") = py::none(), py::arg("options") = py::dict(),
           py::arg("mode") = "per_world", py::arg("device") = "cpu", py::arg("threads") = 0,
           py::arg("keyframe") = "")
      .def("step", [](PyBatch& b, long n, bool scheduled_controls) {
             if (n < 0) throw py::value_error("step(n=" + std::to_string(n) + "): must be >= 0");
             run_interruptibly(n, kBatchStepsPerSignalCheck, [&](long) {
               if (scheduled_controls) b.batch->apply_scheduled_controls();
               b.batch->step(b.h);
             });
           }, py::arg("n") = 1, py::arg("scheduled_controls") = true,
           "n steps of every world; scheduled_controls=False keeps ctrl as written (the schedules otherwise overwrite their actuators before each step)")
      .def("apply_scheduled_controls", [](PyBatch& b) { b.batch->apply_scheduled_controls(); })
      .def("reset", [](PyBatch& b, std::optional<std::string> keyframe) {
             if (keyframe) b.keyframe = *keyframe;
             b.batch->reset(b.keyframe);
           }, py::arg("keyframe") = py::none())
      .def("rollout", &batch_rollout, py::arg("steps"), py::arg("scheduled_controls") = true,
           "steps of every world from the current state: time (N+1, W), pos (N+1, W, nbody, 3) body origins, quat "
           "(N+1, W, nbody, 4) w first, and per step (N, W): contacts, converged, iterations")
      .def_property_readonly("num_worlds", [](const PyBatch& b) { return b.batch->num_worlds(); })
      .def_property_readonly("dt", [](const PyBatch& b) { return b.h; })
      .def_property_readonly("model", [](const PyBatch& b) { return b.model; })
      .def_property_readonly("x_W", [](py::object self) {
        auto& s = self.cast<PyBatch&>().batch->state();
        return view(s.x_W, {s.num_worlds, s.num_bodies, 3}, self, true);
      }, "(W, nbody, 3) centre-of-mass positions: a writable view")
      .def_property_readonly("v_W", [](py::object self) {
        auto& s = self.cast<PyBatch&>().batch->state();
        return view(s.v_W, {s.num_worlds, s.num_bodies, 3}, self, true);
      })
      .def_property_readonly("w_W", [](py::object self) {
        auto& s = self.cast<PyBatch&>().batch->state();
        return view(s.w_W, {s.num_worlds, s.num_bodies, 3}, self, true);
      })
      .def_property_readonly("q_WB", [](py::object self) {
        auto& s = self.cast<PyBatch&>().batch->state();
        return view(s.q_WB, {s.num_worlds, s.num_bodies, 4}, self, false);
      }, "(W, nbody, 4) orientations, Eigen's order (x, y, z, w): read-only")
      .def_property_readonly("ctrl", [](py::object self) {
        auto& s = self.cast<PyBatch&>().batch->state();
        return view(s.ctrl, {s.num_worlds, s.num_actuators}, self, true);
      }, "(W, nu) controls: a writable view")
      .def_property_readonly("time", [](py::object self) {
        auto& s = self.cast<PyBatch&>().batch->state();
        return view(s.time, {s.num_worlds}, self, false);
      });
}

}  // namespace contactlab::python
