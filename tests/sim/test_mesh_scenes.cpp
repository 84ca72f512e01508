// Mesh geoms in whole simulations: box_ramp, stacked_boxes and wheeled_pallet
// with their boxes replaced by a mesh of a cube (tests/data/mjcf/assets/
// unit_cube.obj, scaled to the box's extents) behave as with the primitive
// boxes. The mesh pairs involved: plane-mesh, mesh-mesh, box-mesh and
// mesh-cylinder (the wheels on the step), each against its primitive
// counterpart (plane-box, box-box, box-cylinder) through the whole
// simulation: contact detection, solver and scheme.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/simulation.hpp"

using namespace contactlab;

namespace {

std::string scene_text(const std::string& name) {
  std::ifstream in(resolve_scene(name));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void replace_once(std::string& text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
}

// The scene with each `<geom name="G" type="box" ... size="a b c"` of
// `boxes` (name, its exact size text) made a mesh geom of the cube scaled to
// 2a x 2b x 2c.
Model with_mesh_boxes(const std::string& scene, const std::vector<std::pair<std::string, std::string>>& boxes) {
  std::string xml = scene_text(scene);
  std::string assets = "<asset>";
  for (const auto& [name, size] : boxes) {
    std::istringstream in(size);
    double a = 0, b = 0, c = 0;
    in >> a >> b >> c;
    std::ostringstream mesh;
    mesh.precision(17);
    mesh << "<mesh name=\"" << name << "_mesh\" file=\"unit_cube.obj\" scale=\"" << 2 * a << " " << 2 * b << " " << 2 * c
         << "\"/>";
    assets += mesh.str();
    const std::string head = "<geom name=\"" + name + "\" type=\"box\"";
    const size_t at = xml.find(head);
    REQUIRE(at != std::string::npos);
    xml.replace(at, head.size(), "<geom name=\"" + name + "\" type=\"mesh\" mesh=\"" + name + "_mesh\"");
    replace_once(xml, "size=\"" + size + "\"", "");
  }
  assets += "</asset>";
  replace_once(xml, "<worldbody>", assets + "<worldbody>");
  replace_once(xml, "<compiler ", "<compiler meshdir=\"" + std::string(CONTACTLAB_TEST_DATA) + "/mjcf/assets\" ");
  return load_mjcf_string(xml, resolve_scene(scene));
}

struct Divergence {
  double position = 0;     // largest |x_mesh - x_box| over bodies and steps, m
  double orientation = 0;  // largest angle between the bodies' orientations, rad
};

// Steps both simulations `steps` times (the scene's h), comparing every
// body's pose at every step.
Divergence step_side_by_side(Simulation& a, Simulation& b, int steps) {
  REQUIRE(a.model().num_bodies() == b.model().num_bodies());
  Divergence d;
  const double h = a.model().options.timestep;
  for (int k = 0; k < steps; ++k) {
    a.apply_scheduled_controls();
    b.apply_scheduled_controls();
    a.step(h);
    b.step(h);
    for (int i = 0; i < a.model().num_bodies(); ++i) {
      d.position = std::max(d.position, (a.data().x_W[i] - b.data().x_W[i]).norm());
      d.orientation = std::max(d.orientation, a.data().q_WB[i].angularDistance(b.data().q_WB[i]));
    }
  }
  return d;
}

// Both models side by side with the default parts.
Divergence run_side_by_side(const Model& box_model, const Model& mesh_model, int steps) {
  Simulation a(box_model, PartChoice{}), b(mesh_model, PartChoice{});
  return step_side_by_side(a, b, steps);
}

}  // namespace

// Bounds. box_ramp and stacked_boxes: plane-mesh and mesh-mesh compute the
// same contacts as plane-box and box-box up to rounding (~1e-16 m), and the
// slide and the landing are smooth in them, so the runs agree to 1e-12 m
// (measured: 4.5e-16 and 9.3e-18 m). wheeled_pallet: mesh-cylinder agrees
// with box-cylinder to the precision of the searches (~1e-10 m,
// tests/geometry/test_mesh_cylinder.cpp); see that case for its bounds.
TEST_CASE("mesh scenes: box_ramp with a mesh box slides as with the box") {
  const Model box = load_mjcf_file(resolve_scene("box_ramp"));
  const Model mesh = with_mesh_boxes("box_ramp", {{"box", "0.1 0.1 0.1"}});
  const Divergence d = run_side_by_side(box, mesh, 3000);
  MESSAGE("box_ramp: mesh vs box, max position difference " << d.position << " m, orientation " << d.orientation);
  CHECK(d.position < 1e-12);
  CHECK(d.orientation < 1e-12);
}

TEST_CASE("mesh scenes: stacked_boxes with mesh boxes lands and rests as with boxes") {
  const Model box = load_mjcf_file(resolve_scene("stacked_boxes"));
  const Model mesh = with_mesh_boxes("stacked_boxes", {{"bottom_box", "0.1 0.1 0.1"}, {"top_box", "0.1 0.1 0.1"}});
  const Divergence d = run_side_by_side(box, mesh, 1000);
  MESSAGE("stacked_boxes: mesh vs box, max position difference " << d.position << " m, orientation " << d.orientation);
  CHECK(d.position < 1e-12);
  CHECK(d.orientation < 1e-12);
}

TEST_CASE("mesh scenes: wheeled_pallet over a mesh step drives as over the box step") {
  const Model box = load_mjcf_file(resolve_scene("wheeled_pallet"));
  const Model mesh = with_mesh_boxes("wheeled_pallet", {{"step", "0.6 0.7 0.072"}});
  // Over the climb onto the step and across its top (2.2 s; the front
  // wheels reach the far edge at x = 2.2 m then) the runs agree to 1e-8 m:
  // 100 times the searches' precision (measured: 1.5e-10 m). Rolling off the
  // far edge is a contact switch (a wheel's contact present or not at a
  // step), decided there by differences of 1e-10 m: the two runs then leave
  // the edge with headings 1.7 mrad apart, 0.73 mm after the remaining 3.8 s
  // (measured). After that only the outcome is compared: both down on the
  // floor past the step (chassis origin at z = 0.35 m, x beyond 5 m), within
  // 1 cm of each other (what a heading difference of 2.6 mrad, 1.5 times the
  // measured one, gives over the 3.8 m driven after the edge).
  Simulation a(box, PartChoice{}), b(mesh, PartChoice{});
  const Divergence climb = step_side_by_side(a, b, 220);
  MESSAGE("wheeled_pallet: mesh vs box over the climb, max position difference " << climb.position << " m, orientation "
                                                                                  << climb.orientation);
  CHECK(climb.position < 1e-8);
  CHECK(climb.orientation < 1e-8);
  const Divergence rest = step_side_by_side(a, b, 380);
  MESSAGE("wheeled_pallet: after the edge, max position difference " << rest.position << " m");
  const int chassis = box.find_body("chassis");
  REQUIRE(chassis >= 0);
  for (const Simulation* s : {&a, &b}) {
    CHECK(s->data().x_W[chassis].x() > 5);
    CHECK(std::abs(s->data().x_W[chassis].z() - 0.35) < 1e-3);
  }
  CHECK((a.data().x_W[chassis] - b.data().x_W[chassis]).norm() < 1e-2);
}
