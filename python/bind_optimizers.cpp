// The optimisers (optimizers/) as functions: cl.adam, cl.evolution_strategies
// over any objective (a Python callable, or a cl.ControlObjective, which then
// runs without the GIL and, for ES, its population on a batch of worlds), and
// cl.ilqr on a scene's step Jacobians with a quadratic tracking cost. Each
// returns a dict with its iterate(s), loss and per-iteration history; each can
// write the history CSV (`iteration,loss,grad_norm,forward_s,backward_s`),
// print progress on stderr and call back per iteration.
#include <cmath>
#include <limits>

#include "control_objective_binding.hpp"
#include "optimizers/adam.hpp"
#include "optimizers/batch_population.hpp"
#include "optimizers/evolution_strategies.hpp"
#include "optimizers/ilqr.hpp"
#include "optimizers/step_jacobians.hpp"
#include "sim/gradient_job.hpp"

namespace contactlab::python {

namespace {

py::dict record_dict(const IterationRecord& r) {
  py::dict d;
  d["iteration"] = r.iteration;
  d["loss"] = r.loss;
  d["grad_norm"] = r.grad_norm;
  d["forward_s"] = r.forward_s;
  d["backward_s"] = r.backward_s;
  return d;
}

py::dict history_dict(const std::vector<IterationRecord>& rows) {
  const py::ssize_t n = static_cast<py::ssize_t>(rows.size());
  py::array_t<long> it(n);
  py::array_t<double> loss(n), grad(n), fwd(n), bwd(n);
  for (py::ssize_t i = 0; i < n; ++i) {
    it.mutable_data()[i] = rows[i].iteration;
    loss.mutable_data()[i] = rows[i].loss;
    grad.mutable_data()[i] = rows[i].grad_norm;
    fwd.mutable_data()[i] = rows[i].forward_s;
    bwd.mutable_data()[i] = rows[i].backward_s;
  }
  py::dict d;
  d["iteration"] = it;
  d["loss"] = loss;
  d["grad_norm"] = grad;
  d["forward_s"] = fwd;
  d["backward_s"] = bwd;
  return d;
}

py::dict result_dict(const OptimiserResult& r) {
  py::dict d;
  d["x"] = to_array(r.x);
  d["loss"] = r.loss;
  d["best_x"] = to_array(r.best_x);
  d["best_loss"] = r.best_loss;
  d["iterations"] = r.iterations;
  d["evaluations"] = r.evaluations;
  d["history"] = history_dict(r.history);
  return d;
}

// What the optimisers share: the log's options, and whether the run holds the GIL.
struct LogArguments {
  std::string csv;
  bool progress = false;
  py::object callback;
};

IterationLogOptions log_options(const LogArguments& a, const std::string& label, bool gil_released) {
  IterationLogOptions log;
  log.csv_path = a.csv;
  log.progress = a.progress;
  log.label = label;
  if (!a.callback.is_none()) {
    if (!PyCallable_Check(a.callback.ptr())) throw py::type_error("callback: expected a callable");
    py::object cb = a.callback;
    log.callback = [cb, gil_released](const IterationRecord& r) {
      if (gil_released) {
        py::gil_scoped_acquire gil;
        cb(record_dict(r));
      } else {
        cb(record_dict(r));
      }
    };
  }
  return log;
}

// The loss a Python objective returned: a number, or the first item of a tuple; NaN is refused.
double python_loss(const py::handle& value, const char* who) {
  const py::handle loss = py::isinstance<py::tuple>(value) ? py::handle(value.cast<py::tuple>()[0]) : value;
  double v = 0;
  try {
    v = loss.cast<double>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(who) + ": the objective must return a number (the loss), got " +
                         std::string(py::str(py::type::of(loss))));
  }
  if (std::isnan(v)) throw py::value_error(std::string(who) + ": the objective returned a NaN loss");
  return v;
}

// A Python callable as the optimisers' objective (called with the GIL held):
// f(x) -> (loss, gradient) where a gradient is asked for, else f(x) -> loss (or a tuple starting with it).
GradientObjective python_objective(const py::object& f, long n, const char* who) {
  if (!PyCallable_Check(f.ptr())) throw py::type_error(std::string(who) + ": the objective must be callable");
  return [f, n, who](const VecX& x, VecX* gradient) {
    const py::object r = f(to_array(x));
    Evaluation e;
    e.loss = python_loss(r, who);
    if (gradient) {
      if (!py::isinstance<py::tuple>(r) || r.cast<py::tuple>().size() != 2)
        throw py::type_error(std::string(who) + ": the objective must return (loss, gradient)");
      *gradient = parameter_vector(r.cast<py::tuple>()[1], n, "the objective's gradient");
    }
    return e;
  };
}

// A ControlObjective run without the GIL: back in Python after each
// evaluation only to let Ctrl-C (KeyboardInterrupt) stop it.
GradientObjective native_objective(const PyControlObjective& o) {
  const ControlObjective* objective = o.objective.get();
  return [objective](const VecX& x, VecX* gradient) {
    const Evaluation e = objective->evaluate(x, gradient);
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    return e;
  };
}

const PyControlObjective* as_control_objective(const py::object& f) {
  return py::isinstance<PyControlObjective>(f) ? &f.cast<const PyControlObjective&>() : nullptr;
}

// x0 checked: the objective's parameter count for a ControlObjective, else its own length.
VecX starting_point(const PyControlObjective* native, const py::object& x0) {
  const long n = native ? native->objective->spline().num_parameters() : static_cast<long>(py::len(x0));
  return parameter_vector(x0, n, "x0");
}

std::vector<ParameterBlock> parameter_blocks(const py::object& blocks) {
  std::vector<ParameterBlock> out;
  if (blocks.is_none()) return out;
  for (const py::handle& b : blocks) {
    const py::tuple t = py::reinterpret_borrow<py::object>(b).cast<py::tuple>();
    if (t.size() != 3) throw py::value_error("blocks: each block is (name, size, learning_rate)");
    ParameterBlock pb;
    pb.name = t[0].cast<std::string>();
    pb.size = t[1].cast<int>();
    pb.learning_rate = t[2].cast<double>();
    out.push_back(pb);
  }
  return out;
}

// Q, R, Qf as given: a number (times I), a vector (the diagonal) or an (n, n) matrix.
MatX weight_matrix(const py::object& value, int n, const char* what) {
  using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
  const Array a = Array::ensure(value);
  if (!a) throw py::type_error(std::string(what) + ": expected a number, a vector or a matrix");
  const double* p = a.data();
  for (py::ssize_t i = 0; i < a.size(); ++i)
    if (!std::isfinite(p[i])) throw py::value_error(std::string(what) + ": entry " + std::to_string(i) + " is not finite");
  if (a.ndim() == 0) return p[0] * MatX::Identity(n, n);
  if (a.ndim() == 1 && a.shape(0) == n) {
    MatX m = MatX::Zero(n, n);
    for (int i = 0; i < n; ++i) m(i, i) = p[i];
    return m;
  }
  if (a.ndim() == 2 && a.shape(0) == n && a.shape(1) == n) {
    MatX m(n, n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) m(r, c) = p[r * n + c];
    return m;
  }
  throw py::value_error(std::string(what) + ": expected a number, " + std::to_string(n) + " values or an (" +
                        std::to_string(n) + ", " + std::to_string(n) + ") matrix");
}

Vec3 vec3_field(const py::handle& v, const std::string& what) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(v);
  if (!a || a.size() != 3) throw py::value_error(what + ": expected 3 numbers");
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(a.data()[i])) throw py::value_error(what + ": not finite");
  return Vec3(a.data()[0], a.data()[1], a.data()[2]);
}

// The target state: the initial state, with the fields `target` names per body replaced.
BodyStates tracking_target(const Model& m, BodyStates initial, const py::object& target) {
  if (target.is_none()) return initial;
  for (const auto& [key, fields] : target.cast<py::dict>()) {
    const std::string body = key.cast<std::string>();
    const int b = m.find_body(body);
    if (b < 0) throw py::key_error("target: unknown body '" + body + "'");
    for (const auto& [fk, fv] : fields.cast<py::dict>()) {
      const std::string f = fk.cast<std::string>(), what = "target['" + body + "']['" + f + "']";
      RigidState& s = initial[b];
      if (f == "com") s.x = vec3_field(fv, what);
      else if (f == "linvel") s.v = vec3_field(fv, what);
      else if (f == "angvel") s.w = vec3_field(fv, what);
      else if (f == "quat") {
        const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(fv);
        if (!a || a.size() != 4) throw py::value_error(what + ": expected 4 numbers (w, x, y, z)");
        Quat q(a.data()[0], a.data()[1], a.data()[2], a.data()[3]);
        if (!(q.norm() > 0) || !std::isfinite(q.norm())) throw py::value_error(what + ": not a rotation");
        s.q = q.normalized();
      } else {
        throw py::value_error(what + ": unknown field (expected com, quat, linvel or angvel)");
      }
    }
  }
  return initial;
}

void write_state_rows(const std::vector<BodyStates>& xs, py::dict& out) {
  const py::ssize_t rows = static_cast<py::ssize_t>(xs.size()), nb = rows ? static_cast<py::ssize_t>(xs[0].size()) : 0;
  py::array_t<double> com({rows, nb, py::ssize_t(3)}), quat({rows, nb, py::ssize_t(4)}),
      linvel({rows, nb, py::ssize_t(3)}), angvel({rows, nb, py::ssize_t(3)});
  for (py::ssize_t t = 0; t < rows; ++t)
    for (py::ssize_t b = 0; b < nb; ++b) {
      const RigidState& s = xs[t][b];
      for (int i = 0; i < 3; ++i) {
        com.mutable_data()[(t * nb + b) * 3 + i] = s.x[i];
        linvel.mutable_data()[(t * nb + b) * 3 + i] = s.v[i];
        angvel.mutable_data()[(t * nb + b) * 3 + i] = s.w[i];
      }
      double* q = quat.mutable_data() + (t * nb + b) * 4;
      q[0] = s.q.w(), q[1] = s.q.x(), q[2] = s.q.y(), q[3] = s.q.z();
    }
  out["com"] = com;
  out["quat"] = quat;
  out["linvel"] = linvel;
  out["angvel"] = angvel;
}

}  // namespace

void bind_optimizers(py::module_& m) {
  m.def(
      "adam",
      [](const py::object& f, const py::object& x0, int iterations, double learning_rate, const py::object& blocks,
         double beta1, double beta2, double epsilon, double gradient_tolerance, bool cosine_decay,
         const std::string& csv, bool progress, const py::object& callback) {
        const PyControlObjective* native = as_control_objective(f);
        const VecX x = starting_point(native, x0);
        AdamOptions o;
        o.iterations = iterations;
        o.learning_rate = learning_rate;
        o.blocks = parameter_blocks(blocks);
        o.beta1 = beta1, o.beta2 = beta2, o.epsilon = epsilon;
        o.gradient_tolerance = gradient_tolerance;
        o.cosine_decay = cosine_decay;
        o.Validate(static_cast<int>(x.size()));
        const IterationLogOptions log = log_options({csv, progress, callback}, "adam", native != nullptr);
        OptimiserResult r;
        if (native) {
          const GradientObjective objective = native_objective(*native);
          py::gil_scoped_release release;
          r = adam_minimize(objective, x, o, log);
        } else {
          r = adam_minimize(python_objective(f, x.size(), "adam"), x, o, log);
        }
        return result_dict(r);
      },
      py::arg("f"), py::arg("x0"), py::arg("iterations") = 100, py::arg("learning_rate") = 1e-2,
      py::arg("blocks") = py::none(), py::arg("beta1") = 0.9, py::arg("beta2") = 0.999, py::arg("epsilon") = 1e-8,
      py::arg("gradient_tolerance") = 0.0, py::arg("cosine_decay") = false, py::arg("csv") = "",
      py::arg("progress") = false, py::arg("callback") = py::none(),
      "Adam from x0 (optimizers/adam.hpp). f: a cl.ControlObjective (run in C++ without the GIL) or a callable "
      "f(x) -> (loss, gradient). blocks: [(name, size, learning_rate), ...] covering x in order (None: one block "
      "of learning_rate). Returns {'x', 'loss', 'best_x', 'best_loss', 'iterations', 'evaluations', 'history'}; "
      "history holds arrays iteration, loss, grad_norm, forward_s, backward_s (one row per evaluated iterate). "
      "csv: also write them there; callback(row_dict) after each row.");

  m.def(
      "evolution_strategies",
      [](const py::object& f, const py::object& x0, int iterations, int pairs, double sigma, double learning_rate,
         std::uint64_t seed, int threads, const std::string& csv, bool progress, const py::object& callback) {
        const PyControlObjective* native = as_control_objective(f);
        const VecX x = starting_point(native, x0);
        EvolutionOptions o;
        o.iterations = iterations;
        o.pairs = pairs;
        o.sigma = sigma;
        o.learning_rate = learning_rate;
        o.seed = seed;
        o.Validate();
        if (threads < 0) throw py::value_error("threads: must be >= 0 (0: the machine's cores)");
        const IterationLogOptions log = log_options({csv, progress, callback}, "es", native != nullptr);
        OptimiserResult r;
        if (native) {
          const GradientObjective objective = native_objective(*native);
          const PopulationObjective population = batch_population(*native->objective, threads);
          py::gil_scoped_release release;
          r = evolution_minimize(objective, x, o, log, population);
        } else {
          r = evolution_minimize(python_objective(f, x.size(), "evolution_strategies"), x, o, log);
        }
        return result_dict(r);
      },
      py::arg("f"), py::arg("x0"), py::arg("iterations") = 50, py::arg("pairs") = 8, py::arg("sigma") = 0.1,
      py::arg("learning_rate") = 0.05, py::arg("seed") = 1, py::arg("threads") = 0, py::arg("csv") = "",
      py::arg("progress") = false, py::arg("callback") = py::none(),
      "Evolution strategies from x0 (optimizers/evolution_strategies.hpp: antithetic pairs, centred ranks, Adam on "
      "the search gradient). f: a cl.ControlObjective (its population rolled out on a batch of worlds over "
      "`threads` threads) or a callable f(x) -> loss. Returns what cl.adam returns; 'evaluations' counts every "
      "rollout.");

  m.def(
      "ilqr",
      [](const py::object& scene, const py::object& target, const py::object& Q, const py::object& R,
         const py::object& Qf, const py::object& u0, std::optional<double> duration, std::optional<long> steps,
         const std::string& contact, const std::string& solver, const std::string& scheme, std::optional<double> dt,
         const py::dict& options, const std::string& keyframe, int iterations, double tolerance, double mu_initial,
         int line_search_steps, const std::string& csv, bool progress, const py::object& callback) {
        RolloutArguments a;
        a.scene = scene;
        a.contact = contact, a.solver = solver, a.scheme = scheme;
        a.dt = dt, a.duration = duration, a.steps = steps;
        a.options = options, a.keyframe = keyframe;
        RolloutSpec spec = rollout_spec(a);
        StepAdjointOptions adjoint;
        spec.sets = apply_adjoint_settings(spec.sets, adjoint);
        StepwiseRollout rollout(spec, adjoint);
        // The initial state, and the model names and sizes are read from (the
        // rollout's own world is rebuilt by each run).
        const PreparedRollout initial = prepare_rollout(spec);
        const Model& model = initial.sim.model();
        const int n = rollout.state_dim(), na = rollout.control_dim();
        TrackingCost cost;
        cost.Q = weight_matrix(Q, n, "Q");
        cost.R = weight_matrix(R, na, "R");
        cost.Qf = Qf.is_none() ? cost.Q : weight_matrix(Qf, n, "Qf");
        cost.target = tracking_target(model, read_body_states(model, initial.sim.data()), target);
        cost.Validate(n, na, model.num_bodies());
        MatX u_init;
        if (!u0.is_none()) {
          const auto arr = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(u0);
          if (!arr || arr.ndim() != 2 || arr.shape(0) != rollout.steps() || arr.shape(1) != na)
            throw py::value_error("u0: expected a (" + std::to_string(rollout.steps()) + ", " + std::to_string(na) +
                                  ") array (steps, actuators)");
          u_init.resize(rollout.steps(), na);
          for (long t = 0; t < rollout.steps(); ++t)
            for (int j = 0; j < na; ++j) {
              u_init(t, j) = arr.data()[t * na + j];
              if (!std::isfinite(u_init(t, j))) throw py::value_error("u0: entry " + std::to_string(t) + ", " +
                                                                      std::to_string(j) + " is not finite");
            }
        }
        IlqrOptions o;
        o.iterations = iterations;
        o.tolerance = tolerance;
        o.mu_initial = mu_initial;
        o.line_search_steps = line_search_steps;
        o.Validate();
        const IterationLogOptions log = log_options({csv, progress, callback}, "ilqr", true);
        IlqrResult r;
        {
          py::gil_scoped_release release;
          r = ilqr_minimize(rollout, cost, u_init, o, log);
        }
        py::dict out;
        out["cost"] = r.cost;
        out["iterations"] = r.iterations;
        out["converged"] = r.converged;
        out["rollouts"] = r.rollouts;
        VecX costs(static_cast<long>(r.cost_history.size()));
        for (size_t i = 0; i < r.cost_history.size(); ++i) costs[static_cast<long>(i)] = r.cost_history[i];
        out["cost_history"] = to_array(costs);
        const py::ssize_t T = static_cast<py::ssize_t>(r.trajectory.u.rows());
        py::array_t<double> k({T, py::ssize_t(na)}), K({T, py::ssize_t(na), py::ssize_t(n)});
        for (py::ssize_t t = 0; t < T; ++t)
          for (int j = 0; j < na; ++j) {
            k.mutable_data()[t * na + j] = r.k[t][j];
            for (int c = 0; c < n; ++c) K.mutable_data()[(t * na + j) * n + c] = r.K[t](j, c);
          }
        out["u"] = to_array(r.trajectory.u);
        out["k"] = k;
        out["K"] = K;
        write_state_rows(r.trajectory.x, out);
        std::vector<std::string> bodies, actuators;
        for (const Body& b : model.bodies) bodies.push_back(b.name);
        for (const Actuator& act : model.actuators) actuators.push_back(act.name);
        out["body_names"] = bodies;
        out["actuators"] = actuators;
        out["history"] = history_dict(r.history);
        return out;
      },
      py::arg("path"), py::arg("target") = py::none(), py::arg("Q") = 1.0, py::arg("R") = 1e-3,
      py::arg("Qf") = py::none(), py::arg("u0") = py::none(), py::arg("duration") = py::none(),
      py::arg("steps") = py::none(), py::arg("contact") = "desaxce", py::arg("solver") = "padmm",
      py::arg("scheme") = "velocity", py::arg("dt") = py::none(), py::arg("options") = py::dict(),
      py::arg("keyframe") = "", py::arg("iterations") = 50, py::arg("tolerance") = 1e-8,
      py::arg("mu_initial") = 0.0, py::arg("line_search_steps") = 10, py::arg("csv") = "",
      py::arg("progress") = false, py::arg("callback") = py::none(),
      "iLQR (optimizers/ilqr.hpp) on the scene's step Jacobians, for the tracking cost "
      "sum_t 1/2 e'Qe + 1/2 u'Ru + 1/2 e_T'Qf e_T, e = x - target. The state is maximal coordinates, 12 numbers per "
      "body (centre of mass, rotation increment, centre-of-mass velocity, angular velocity); Q, Qf: a number, 12 "
      "* nbody values or a matrix; R likewise over every actuator. target: {body: {'com'|'quat'|'linvel'|'angvel': "
      "values}}, the initial state elsewhere. u0: (steps, actuators) start (None: zero). Returns cost, iterations, "
      "converged, rollouts, cost_history, u, the last backward pass's gains k (steps, actuators) and K (steps, "
      "actuators, state), the trajectory's com, quat, linvel, angvel (steps + 1, nbody, ...), body_names, "
      "actuators, history.");
}

}  // namespace contactlab::python
