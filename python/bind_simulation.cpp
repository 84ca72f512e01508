// cl.Simulation: one world stepped as `contactlab run` steps it (the same
// preparation, sim/rollout_setup.hpp, and the same order each step:
// scheduled controls, held controls, the per-step table, the step), so that
// a rollout here and `run --out` give the same numbers bit for bit.
#include <chrono>
#include <cmath>
#include <optional>

#include "bindings.hpp"
#include "core/kinematics.hpp"
#include "core/metrics.hpp"
#include "sim/rollout_setup.hpp"

namespace contactlab::python {

namespace {

// Steps between checks for Ctrl-C (the GIL is released while they run).
constexpr long kStepsPerSignalCheck = 256;

struct PySimulation {
  PyModel model;
  PreparedRollout run;
  std::string keyframe;

  PySimulation(const PyModel& m, const std::string& contact, const std::string& solver, const std::string& scheme,
               std::optional<double> dt, const py::dict& options, const std::string& key)
      : model(m), run(prepare(m, contact, solver, scheme, dt, options, key)), keyframe(key) {}

  static PreparedRollout prepare(const PyModel& m, const std::string& contact, const std::string& solver,
                                 const std::string& scheme, std::optional<double> dt, const py::dict& options,
                                 const std::string& key) {
    RolloutSpec spec;
    spec.scene = m.label;
    spec.model = m.model;
    spec.contact = contact;
    spec.solver = solver;
    spec.scheme = scheme;
    spec.dt = dt;
    spec.sets = option_settings(options);
    spec.keyframe = key;
    return prepare_rollout(spec);
  }

  const Model& mdl() const { return run.sim.model(); }
  Data& data() { return run.sim.data(); }
  int nb() const { return mdl().num_bodies(); }
  int nu() const { return static_cast<int>(mdl().actuators.size()); }

  int actuator(const std::string& name) const {
    const int a = mdl().find_actuator(name);
    if (a < 0) {
      std::string known;
      for (const Actuator& act : mdl().actuators) known += (known.empty() ? "" : ", ") + act.name;
      throw py::key_error("unknown actuator '" + name + "' (known: " + (known.empty() ? "none" : known) + ")");
    }
    return a;
  }

  // The controls held for every later step, as `run --ctrl NAME=VALUE`.
  void hold_control(int a, double value) {
    const std::string what = "set_ctrl('" + mdl().actuators[a].name + "')";
    if (!std::isfinite(value)) throw py::value_error(what + ": the value must be finite");
    for (auto& [actuator, held] : run.controls.constant)
      if (actuator == a) {
        held = value;
        return;
      }
    run.controls.constant.emplace_back(a, value);
  }

  // One step as `contactlab run` takes it; `table` (nu values) overrides after the held controls.
  void step_once(const double* table) {
    run.sim.apply_scheduled_controls();
    run.controls.apply(data());
    if (table)
      for (int a = 0; a < nu(); ++a) data().ctrl[a] = table[a];
    run.sim.step(run.h);
  }
};

// The (steps, nu) control table, checked; an empty array when None (not to be read).
py::array_t<double, py::array::c_style | py::array::forcecast> control_table(const PySimulation& s,
                                                                             const py::object& ctrl, long steps) {
  using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
  if (ctrl.is_none()) return Array();
  Array table;
  table = Array::ensure(ctrl);
  if (!table) throw py::type_error("rollout(ctrl=...): expected a (steps, nu) array of numbers");
  if (table.ndim() != 2 || table.shape(0) != steps || table.shape(1) != s.nu())
    throw py::value_error("rollout(ctrl=...): expected shape (" + std::to_string(steps) + ", " + std::to_string(s.nu()) +
                          "), got " + std::string(py::str(py::tuple(py::cast(std::vector<py::ssize_t>(
                                                     table.shape(), table.shape() + table.ndim()))))));
  const double* p = table.data();
  for (py::ssize_t i = 0; i < table.size(); ++i)
    if (!std::isfinite(p[i]))
      throw py::value_error("rollout(ctrl=...): entry " + std::to_string(i / s.nu()) + ", " +
                            std::to_string(i % s.nu()) + " is not finite");
  return table;
}

py::dict rollout(PySimulation& s, std::optional<long> steps_arg, const py::object& ctrl) {
  const long steps = steps_arg ? *steps_arg : s.run.steps;
  if (steps < 0) throw py::value_error("rollout(steps=" + std::to_string(steps) + "): must be >= 0");
  const auto table = control_table(s, ctrl, steps);
  const Model& m = s.mdl();
  const py::ssize_t nb = s.nb(), ns = static_cast<py::ssize_t>(m.sites.size()), rows = steps + 1;
  BodyRows bodies(rows, nb);
  py::array_t<double> site_pos({rows, ns, py::ssize_t(3)}), site_quat({rows, ns, py::ssize_t(4)});
  const char* const int_stats[] = {"contacts", "iterations", "converged"};
  const char* const real_stats[] = {"r_primal", "r_dual", "r_compl", "r_vi", "max_penetration",
                                    "joint_violation", "energy", "wall_time_s", "solve_time_s"};
  std::vector<py::array_t<long>> ints;
  std::vector<py::array_t<double>> reals;
  for (size_t i = 0; i < 3; ++i) ints.emplace_back(steps);
  for (size_t i = 0; i < 9; ++i) reals.emplace_back(steps);
  std::vector<long*> ip;
  std::vector<double*> rp;
  for (auto& a : ints) ip.push_back(a.mutable_data());
  for (auto& a : reals) rp.push_back(a.mutable_data());
  double *SP = site_pos.mutable_data(), *SQ = site_quat.mutable_data();
  const double* ctrl_rows = ctrl.is_none() ? nullptr : table.data();

  auto record = [&](long row) {
    Data& d = s.data();
    bodies.record(row, m, d);
    for (py::ssize_t i = 0; i < ns; ++i) {
      const SiteState st = site_state(m, d, static_cast<int>(i));
      double* sp = SP + (row * ns + i) * 3;
      double* sq = SQ + (row * ns + i) * 4;
      sp[0] = st.p.x(), sp[1] = st.p.y(), sp[2] = st.p.z();
      sq[0] = st.q.w(), sq[1] = st.q.x(), sq[2] = st.q.y(), sq[3] = st.q.z();
    }
  };
  record(0);
  run_interruptibly(steps, kStepsPerSignalCheck, [&](long k) {
    const auto t0 = std::chrono::steady_clock::now();
    s.step_once(ctrl_rows ? ctrl_rows + k * s.nu() : nullptr);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Data& d = s.data();
    const StepMetrics& mt = d.metrics;
    ip[0][k] = mt.num_contacts, ip[1][k] = mt.iterations, ip[2][k] = mt.converged ? 1 : 0;
    const double values[] = {mt.r_primal, mt.r_dual, mt.r_compl, mt.r_vi, mt.max_penetration, mt.joint_violation,
                             mechanical_energy(m, d), wall, d.solve_stats.wall_time_s};
    for (size_t i = 0; i < 9; ++i) rp[i][k] = values[i];
    record(k + 1);
  });
  py::dict stats;
  for (size_t i = 0; i < 3; ++i) stats[int_stats[i]] = ints[i];
  for (size_t i = 0; i < 9; ++i) stats[real_stats[i]] = reals[i];
  py::dict out;
  bodies.put(m, out);
  std::vector<std::string> site_names;
  for (const Site& st : m.sites) site_names.push_back(st.name);
  out["site_names"] = site_names;
  out["site_pos"] = site_pos;
  out["site_quat"] = site_quat;
  out["stats"] = stats;
  return out;
}

using Rows = py::array_t<double, py::array::c_style | py::array::forcecast>;

Rows checked_rows(const py::object& value, py::ssize_t n, py::ssize_t width, const char* what) {
  Rows a = Rows::ensure(value);
  if (!a || a.ndim() != 2 || a.shape(0) != n || a.shape(1) != width)
    throw py::value_error(std::string(what) + ": expected an array of shape (" + std::to_string(n) + ", " +
                          std::to_string(width) + ")");
  for (py::ssize_t i = 0; i < a.size(); ++i)
    if (!std::isfinite(a.data()[i])) throw py::value_error(std::string(what) + ": entries must be finite");
  return a;
}

std::vector<Real> checked_vector(const py::object& value, size_t n, const char* what) {
  Rows a = Rows::ensure(value);
  if (!a || a.ndim() != 1 || static_cast<size_t>(a.shape(0)) != n)
    throw py::value_error(std::string(what) + ": expected " + std::to_string(n) + " values");
  std::vector<Real> out(a.data(), a.data() + n);
  for (const Real x : out)
    if (!std::isfinite(x)) throw py::value_error(std::string(what) + ": entries must be finite");
  return out;
}

// A fixed body's row must repeat its pose (it does not move).
void check_fixed_row(const Model& m, int b, bool same) {
  if (!same) throw py::value_error("body '" + m.bodies[b].name + "' is fixed to the world: its pose and twist cannot change");
}

// A view of a Data vector of Vec3 as (n, 3), sharing memory; `owner` keeps it alive.
py::array vec3_view(std::vector<Vec3>& v, const py::handle& owner, bool writable) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 is three packed doubles");
  py::array_t<double> a({static_cast<py::ssize_t>(v.size()), py::ssize_t(3)}, v.empty() ? nullptr : v.data()->data(), owner);
  if (!writable) py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(a);
}

}  // namespace

BodyRows::BodyRows(py::ssize_t rows, py::ssize_t nb)
    : time(rows), pos({rows, nb, py::ssize_t(3)}), quat({rows, nb, py::ssize_t(4)}),
      linvel({rows, nb, py::ssize_t(3)}), angvel({rows, nb, py::ssize_t(3)}) {}

void BodyRows::record(py::ssize_t row, const Model& m, const Data& d) {
  const py::ssize_t nb = m.num_bodies();
  time.mutable_data()[row] = d.time;
  double *P = pos.mutable_data() + row * nb * 3, *Q = quat.mutable_data() + row * nb * 4,
         *L = linvel.mutable_data() + row * nb * 3, *A = angvel.mutable_data() + row * nb * 3;
  for (int b = 0; b < m.num_bodies(); ++b) {
    const Vec3 p = d.origin_position(m, b), v = d.origin_velocity(m, b);
    const Quat& q = d.q_WB[b];
    const Vec3& w = d.w_W[b];
    P[3 * b] = p.x(), P[3 * b + 1] = p.y(), P[3 * b + 2] = p.z();
    Q[4 * b] = q.w(), Q[4 * b + 1] = q.x(), Q[4 * b + 2] = q.y(), Q[4 * b + 3] = q.z();
    L[3 * b] = v.x(), L[3 * b + 1] = v.y(), L[3 * b + 2] = v.z();
    A[3 * b] = w.x(), A[3 * b + 1] = w.y(), A[3 * b + 2] = w.z();
  }
}

void BodyRows::put(const Model& m, py::dict& out) const {
  out["time"] = time;
  out["pos"] = pos;
  out["quat"] = quat;
  out["linvel"] = linvel;
  out["angvel"] = angvel;
  std::vector<std::string> names;
  for (const Body& b : m.bodies) names.push_back(b.name);
  out["body_names"] = names;
}

void bind_simulation(py::module_& m) {
  py::class_<PySimulation>(m, "Simulation",
                           "One world of a model with its contact law, solver and time-stepping scheme "
                           "(docs/python.md). Keyword names are the CLI's flags; `options` takes the --set keys.")
      .def(py::init([](const py::object& model, const std::string& contact, const std::string& solver,
                       const std::string& scheme, std::optional<double> dt, const py::dict& options,
                       const std::string& keyframe) {
             return new PySimulation(model_argument(model), contact, solver, scheme, dt, options, keyframe);
           }),
           py::arg("model"), py::arg("contact") = "desaxce", py::arg("solver") = "padmm",
           py::arg("scheme") = "velocity", py::arg("dt") = py::none(), py::arg("options") = py::dict(),
           py::arg("keyframe") = "")
      .def("step", [](PySimulation& s, long n) {
             if (n < 0) throw py::value_error("step(n=" + std::to_string(n) + "): must be >= 0");
             run_interruptibly(n, kStepsPerSignalCheck, [&](long) { s.step_once(nullptr); });
           }, py::arg("n") = 1, "n steps of length dt")
      .def("reset", [](PySimulation& s, std::optional<std::string> keyframe) {
             if (keyframe) s.keyframe = *keyframe;
             s.run.sim.reset(s.keyframe);
           }, py::arg("keyframe") = py::none(),
           "back to the initial state (the keyframe given here or at construction); held controls stay")
      .def("rollout", &rollout, py::arg("steps") = py::none(), py::arg("ctrl") = py::none(),
           "Steps from the current state and returns the trajectory: time (N+1,), pos (N+1, nbody, 3) body "
           "origins, quat (N+1, nbody, 4) w first, linvel, angvel (N+1, nbody, 3), body_names, site_pos, site_quat, "
           "site_names, and stats (per-step arrays: the columns of `run --stats`). steps: default the scene's "
           "duration; ctrl: a (steps, nu) table overriding the controls at each step.")
      .def("set_ctrl", [](PySimulation& s, const py::object& name_or_dict, std::optional<double> value) {
             if (py::isinstance<py::dict>(name_or_dict)) {
               if (value) throw py::type_error("set_ctrl(dict): give no second argument");
               for (const auto& [k, v] : name_or_dict.cast<py::dict>()) s.hold_control(s.actuator(py::str(k)), v.cast<double>());
             } else {
               if (!value) throw py::type_error("set_ctrl(name, value): the value is missing");
               s.hold_control(s.actuator(name_or_dict.cast<std::string>()), *value);
             }
           }, py::arg("name_or_dict"), py::arg("value") = py::none(),
           "Holds controls for every later step, as `run --ctrl NAME=VALUE` (after the scene's schedules)")
      .def("clear_ctrl", [](PySimulation& s) { s.run.controls.constant.clear(); }, "drops the held controls")
      .def("set_option", [](PySimulation& s, const std::string& key, const py::object& value) {
             py::dict d;
             d[py::str(key)] = value;
             s.run.sim.set_option(option_settings(d).front());
             s.run.sim.validate_options();
           }, py::arg("key"), py::arg("value"), "as options={key: value} (a --set key)")
      .def("describe_options", [](const PySimulation& s) { return s.run.sim.describe_options(); })
      .def_property_readonly("model", [](const PySimulation& s) { return s.model; })
      .def_property_readonly("dt", [](const PySimulation& s) { return s.run.h; }, "s")
      .def_property_readonly("default_steps", [](const PySimulation& s) { return s.run.steps; },
                             "steps of the scene's duration at dt")
      .def_property_readonly("time", [](PySimulation& s) { return s.data().time; })
      .def_property_readonly("step_count", [](PySimulation& s) { return s.data().step; })
      .def_property_readonly("ctrl", [](PySimulation& s) { return py::array_t<double>(s.data().ctrl.size(), s.data().ctrl.data()); },
                             "the controls of the last step (a copy)")
      .def_property("qpos",
          [](PySimulation& s) {
            std::vector<Real> q, v;
            get_generalized_state(s.mdl(), s.data(), q, v);
            return py::array_t<double>(q.size(), q.data());
          },
          [](PySimulation& s, const py::object& value) {
            std::vector<Real> q, v;
            get_generalized_state(s.mdl(), s.data(), q, v);
            set_generalized_state(s.mdl(), checked_vector(value, q.size(), "qpos"), v, s.data());
          }, "MJCF generalised positions (nq): free 7 (pos, quat wxyz), ball 4, hinge/slide 1")
      .def_property("qvel",
          [](PySimulation& s) {
            std::vector<Real> q, v;
            get_generalized_state(s.mdl(), s.data(), q, v);
            return py::array_t<double>(v.size(), v.data());
          },
          [](PySimulation& s, const py::object& value) {
            std::vector<Real> q, v;
            get_generalized_state(s.mdl(), s.data(), q, v);
            set_generalized_state(s.mdl(), q, checked_vector(value, v.size(), "qvel"), s.data());
          }, "MJCF generalised velocities (nv): free 6 (linear world, angular body), ball 3, hinge/slide 1")
      .def_property("body_pose",
          [](PySimulation& s) {
            py::array_t<double> out({py::ssize_t(s.nb()), py::ssize_t(7)});
            double* o = out.mutable_data();
            for (int b = 0; b < s.nb(); ++b) {
              const Vec3 p = s.data().origin_position(s.mdl(), b);
              const Quat& q = s.data().q_WB[b];
              const double row[] = {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z()};
              std::copy(row, row + 7, o + 7 * b);
            }
            return out;
          },
          [](PySimulation& s, const py::object& value) {
            const Rows a = checked_rows(value, s.nb(), 7, "body_pose");
            const Model& m = s.mdl();
            Data& d = s.data();
            std::vector<Vec3> x(d.x_W);
            std::vector<Quat> q(d.q_WB);
            for (int b = 0; b < s.nb(); ++b) {
              const double* r = a.data() + 7 * b;
              const Quat qb(r[3], r[4], r[5], r[6]);
              if (std::abs(qb.norm() - 1) > 1e-9)
                throw py::value_error("body_pose: the quaternion of body '" + m.bodies[b].name + "' is not unit (norm " +
                                      std::to_string(qb.norm()) + ")");
              const Vec3 origin(r[0], r[1], r[2]);
              q[b] = qb;
              x[b] = origin + qb * m.bodies[b].com_B;
              if (m.bodies[b].fixed) check_fixed_row(m, b, (x[b] - d.x_W[b]).norm() <= 1e-12 && qb.angularDistance(d.q_WB[b]) <= 1e-12);
            }
            d.x_W = x;
            d.q_WB = q;
          }, "(nbody, 7): body-frame origin (x, y, z) and orientation (w, x, y, z), world frame")
      .def_property("body_twist",
          [](PySimulation& s) {
            py::array_t<double> out({py::ssize_t(s.nb()), py::ssize_t(6)});
            double* o = out.mutable_data();
            for (int b = 0; b < s.nb(); ++b) {
              const Vec3 v = s.data().origin_velocity(s.mdl(), b);
              const Vec3& w = s.data().w_W[b];
              const double row[] = {v.x(), v.y(), v.z(), w.x(), w.y(), w.z()};
              std::copy(row, row + 6, o + 6 * b);
            }
            return out;
          },
          [](PySimulation& s, const py::object& value) {
            const Rows a = checked_rows(value, s.nb(), 6, "body_twist");
            const Model& m = s.mdl();
            Data& d = s.data();
            std::vector<Vec3> v(d.v_W), w(d.w_W);
            for (int b = 0; b < s.nb(); ++b) {
              const double* r = a.data() + 6 * b;
              const Vec3 v_origin(r[0], r[1], r[2]), wb(r[3], r[4], r[5]);
              if (m.bodies[b].fixed) check_fixed_row(m, b, v_origin.norm() == 0 && wb.norm() == 0);
              w[b] = wb;
              // The com moves with the origin plus w x (com - origin).
              v[b] = v_origin + wb.cross(d.q_WB[b] * m.bodies[b].com_B);
            }
            d.v_W = v;
            d.w_W = w;
          }, "(nbody, 6): velocity of the body-frame origin and angular velocity, world frame")
      .def_property_readonly("x_W", [](py::object self) {
             return vec3_view(self.cast<PySimulation&>().data().x_W, self, true);
           }, "(nbody, 3) centre-of-mass positions, world frame: a view of the state (no copy), writable")
      .def_property_readonly("v_W", [](py::object self) {
             return vec3_view(self.cast<PySimulation&>().data().v_W, self, true);
           }, "(nbody, 3) centre-of-mass velocities: a writable view")
      .def_property_readonly("w_W", [](py::object self) {
             return vec3_view(self.cast<PySimulation&>().data().w_W, self, true);
           }, "(nbody, 3) angular velocities, world frame: a writable view")
      .def_property_readonly("q_WB", [](py::object self) {
             auto& q = self.cast<PySimulation&>().data().q_WB;
             static_assert(sizeof(Quat) == 4 * sizeof(double), "Quat is four packed doubles");
             py::array_t<double> a({static_cast<py::ssize_t>(q.size()), py::ssize_t(4)},
                                   q.empty() ? nullptr : q.data()->coeffs().data(), self);
             py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
             return a;
           }, "(nbody, 4) orientations in Eigen's storage order (x, y, z, w): a read-only view "
              "(set body_pose to change them; a non-unit quaternion would break the state)")
      .def_property_readonly("contacts", [](PySimulation& s) { return s.data().metrics.num_contacts; },
                             "contacts of the last step")
      .def("__repr__", [](const PySimulation& s) {
        return "<contactlab.Simulation '" + s.model.label + "' " + s.run.sim.contact_model().name() + " + " +
               s.run.sim.solver().name() + " + " + s.run.sim.scheme().name() + ", dt " + std::to_string(s.run.h) + ">";
      });
}

}  // namespace contactlab::python
