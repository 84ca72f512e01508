// cl.load and cl.Model: names, sizes and the model's parameters as NumPy arrays.
#include <cmath>
#include <limits>

#include "bindings.hpp"
#include "io/number_text.hpp"
#include "io/scene_library.hpp"

namespace contactlab::python {

PyModel model_argument(const py::handle& scene, bool allow_unsupported) {
  if (py::isinstance<PyModel>(scene)) return scene.cast<PyModel>();
  if (!py::isinstance<py::str>(scene) && !py::hasattr(scene, "__fspath__"))
    throw py::type_error("scene: expected a contactlab.Model, a built-in scene name or a path, got " +
                         std::string(py::str(py::type::of(scene))));
  const std::string label = py::str(py::module_::import("os").attr("fspath")(scene));
  MjcfLoadOptions options;
  options.allow_unsupported = allow_unsupported;
  std::vector<std::string> warnings;
  auto model = std::make_shared<const Model>(load_scene(label, options, &warnings));
  // The reader's warnings as Python warnings, which a user can filter or turn into errors.
  const py::object warn = py::module_::import("warnings").attr("warn");
  for (const std::string& w : warnings) warn(label + ": " + w, py::module_::import("builtins").attr("UserWarning"), 2);
  return PyModel{std::move(model), label};
}

std::vector<std::string> option_settings(const py::dict& options) {
  std::vector<std::string> out;
  for (const auto& [key, value] : options) {
    if (!py::isinstance<py::str>(key)) throw py::type_error("options: keys must be strings such as 'solver.max_iterations'");
    std::string text;
    if (py::isinstance<py::bool_>(value)) text = value.cast<bool>() ? "true" : "false";
    else if (py::isinstance<py::float_>(value)) text = shortest_text(value.cast<double>());
    else if (py::isinstance<py::int_>(value) || py::isinstance<py::str>(value)) text = py::str(value);
    else
      throw py::type_error("options['" + key.cast<std::string>() + "']: expected a number, a bool or a string, got " +
                           std::string(py::str(py::type::of(value))));
    out.push_back(key.cast<std::string>() + "=" + text);
  }
  return out;
}

std::string comma_list(const py::handle& names, const char* what) {
  if (py::isinstance<py::str>(names)) return names.cast<std::string>();
  std::string out;
  for (const py::handle item : names) {
    if (!py::isinstance<py::str>(item)) throw py::type_error(std::string(what) + ": expected strings");
    out += (out.empty() ? "" : ",") + item.cast<std::string>();
  }
  return out;
}

namespace {

template <class Item, class Name>
auto names_of(const std::vector<Item>& items, Name name) {
  std::vector<decltype(name(items.front()))> out;
  out.reserve(items.size());
  for (const Item& item : items) out.push_back(name(item));
  return out;
}

}  // namespace

void bind_model(py::module_& m) {
  py::class_<PyModel>(m, "Model", "A model as read from MJCF (cl.load). Arrays are copies: the model is shared "
                                  "by the simulations made from it and never changes.")
      .def_property_readonly("name", [](const PyModel& p) { return p.model->name; })
      .def_property_readonly("source", [](const PyModel& p) { return p.label; }, "what it was loaded from")
      .def_property_readonly("file", [](const PyModel& p) { return p.model->source_file; })
      .def_property_readonly("nbody", [](const PyModel& p) { return p.model->num_bodies(); })
      .def_property_readonly("ngeom", [](const PyModel& p) { return p.model->geoms.size(); })
      .def_property_readonly("njoint", [](const PyModel& p) { return p.model->joints.size(); })
      .def_property_readonly("nu", [](const PyModel& p) { return p.model->actuators.size(); }, "actuators")
      .def_property_readonly("nsite", [](const PyModel& p) { return p.model->sites.size(); })
      .def_property_readonly("nq", [](const PyModel& p) { return p.model->nq; }, "MJCF generalised positions")
      .def_property_readonly("nv", [](const PyModel& p) { return p.model->nv; }, "MJCF generalised velocities")
      .def_property_readonly("timestep", [](const PyModel& p) { return p.model->options.timestep; }, "s")
      .def_property_readonly("duration", [](const PyModel& p) { return p.model->default_duration; },
                             "simulated time of a run when none is given (contactlab.duration), s")
      .def_property_readonly("gravity", [](const PyModel& p) {
        const Vec3& g = p.model->options.gravity;
        return py::array_t<double>(3, g.data());
      })
      .def_property_readonly("body_names", [](const PyModel& p) { return names_of(p.model->bodies, [](const Body& b) { return b.name; }); })
      .def_property_readonly("geom_names", [](const PyModel& p) { return names_of(p.model->geoms, [](const Geom& g) { return g.name; }); })
      .def_property_readonly("joint_names", [](const PyModel& p) { return names_of(p.model->joints, [](const Joint& j) { return j.name; }); })
      .def_property_readonly("actuator_names", [](const PyModel& p) { return names_of(p.model->actuators, [](const Actuator& a) { return a.name; }); })
      .def_property_readonly("site_names", [](const PyModel& p) { return names_of(p.model->sites, [](const Site& s) { return s.name; }); })
      .def_property_readonly("keyframe_names", [](const PyModel& p) { return names_of(p.model->keyframes, [](const Keyframe& k) { return k.name; }); })
      .def_property_readonly("ignored_features", [](const PyModel& p) { return p.model->ignored_features; },
                             "what allow_unsupported=True let the reader ignore")
      .def_property_readonly("body_mass", [](const PyModel& p) {
        py::array_t<double> out(p.model->num_bodies());
        auto a = out.mutable_unchecked<1>();
        for (int b = 0; b < p.model->num_bodies(); ++b) a(b) = p.model->bodies[b].mass;
        return out;
      }, "kg (fixed bodies: as declared; they do not move)")
      .def_property_readonly("body_fixed", [](const PyModel& p) {
        return names_of(p.model->bodies, [](const Body& b) { return b.fixed; });
      })
      .def_property_readonly("body_parent", [](const PyModel& p) {
        return names_of(p.model->bodies, [](const Body& b) { return b.parent; });
      }, "parent body id in the MJCF tree, -1 for the world")
      .def_property_readonly("ctrlrange", [](const PyModel& p) {
        const size_t nu = p.model->actuators.size();
        py::array_t<double> out({nu, size_t(2)});
        auto a = out.mutable_unchecked<2>();
        const double inf = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < nu; ++i) {
          const Actuator& act = p.model->actuators[i];
          a(i, 0) = act.ctrl_limited ? act.ctrl_lo : -inf;
          a(i, 1) = act.ctrl_limited ? act.ctrl_hi : inf;
        }
        return out;
      }, "(nu, 2) control bounds; +-inf where the actuator is not ctrllimited")
      .def("__repr__", [](const PyModel& p) {
        return "<contactlab.Model '" + p.label + "': " + std::to_string(p.model->num_bodies()) + " bodies, " +
               std::to_string(p.model->geoms.size()) + " geoms, " + std::to_string(p.model->joints.size()) +
               " joints, " + std::to_string(p.model->actuators.size()) + " actuators>";
      });

  m.def("load", [](const py::object& scene, bool allow_unsupported) { return model_argument(scene, allow_unsupported); },
        py::arg("path_or_builtin_name"), py::arg("allow_unsupported") = false,
        "Reads a built-in scene (cl.builtin_scenes()) or an MJCF file. Raises cl.MjcfError (a ValueError) naming the "
        "file and line for a model it cannot read correctly; allow_unsupported=True loads it anyway, warning about "
        "and listing (Model.ignored_features) what it ignored.");
  m.def("builtin_scenes", &builtin_scene_names, "names of the built-in scenes");
}

}  // namespace contactlab::python
