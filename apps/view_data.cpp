#include "apps/view_data.hpp"

#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "apps/json_text.hpp"
#include "io/number_text.hpp"

namespace contactlab {

namespace {

const char* geom_kind(GeomType t) {
  switch (t) {
    case GeomType::Plane: return "plane";
    case GeomType::Sphere: return "sphere";
    case GeomType::Box: return "box";
    case GeomType::Capsule: return "capsule";
    case GeomType::Cylinder: return "cylinder";
    case GeomType::Mesh: return "mesh";
    case GeomType::HField: return "hfield";
  }
  return "unknown";
}

void numbers(std::ostream& o, std::initializer_list<Real> xs) {
  o << '[';
  bool first = true;
  for (const Real x : xs) o << (first ? "" : ",") << Shortest{x}, first = false;
  o << ']';
}

void write_geom(std::ostream& o, const Geom& g) {
  o << "{\"name\":" << script_json_string(g.name) << ",\"type\":\"" << geom_kind(g.type) << "\",\"body\":" << g.body
    << ",\"size\":";
  numbers(o, {g.size.x(), g.size.y(), g.size.z()});
  o << ",\"pos\":";
  numbers(o, {g.pos_B.x(), g.pos_B.y(), g.pos_B.z()});
  o << ",\"quat\":";
  numbers(o, {g.quat_BG.w(), g.quat_BG.x(), g.quat_BG.y(), g.quat_BG.z()});
  if (g.type == GeomType::Mesh && g.hull) {
    const ConvexHull& h = *g.hull;
    o << ",\"vertices\":[";
    for (size_t v = 0; v < h.vertices.size(); ++v)
      o << (v ? "," : "") << Shortest{h.vertices[v].x()} << ',' << Shortest{h.vertices[v].y()} << ','
        << Shortest{h.vertices[v].z()};
    o << "],\"faces\":[";
    for (int f = 0; f < h.num_faces(); ++f) {
      o << (f ? ",[" : "[");
      for (int k = 0; k < h.face_size(f); ++k) o << (k ? "," : "") << h.face_loop[h.face_begin[f] + k];
      o << ']';
    }
    o << ']';
  }
  if (g.type == GeomType::HField && g.hfield) {
    // The grid's surface: every vertex, two triangles per cell (counter-
    // clockwise seen from above, as geometry/hfield_prism.hpp splits them).
    const HeightField& h = *g.hfield;
    o << ",\"vertices\":[";
    for (int row = 0; row < h.nrow; ++row)
      for (int col = 0; col < h.ncol; ++col) {
        const Vec3 v = h.vertex(row, col);
        o << (row || col ? "," : "") << Shortest{v.x()} << ',' << Shortest{v.y()} << ',' << Shortest{v.z()};
      }
    o << "],\"faces\":[";
    bool first = true;
    for (int row = 0; row + 1 < h.nrow; ++row)
      for (int col = 0; col + 1 < h.ncol; ++col) {
        const int a = row * h.ncol + col, b = (row + 1) * h.ncol + col + 1;
        const int up = (row + 1) * h.ncol + col, right = row * h.ncol + col + 1;
        o << (first ? "" : ",") << '[' << a << ',' << b << ',' << up << "],[" << a << ',' << right << ',' << b << ']';
        first = false;
      }
    o << ']';
  }
  o << '}';
}

}  // namespace

void match_trajectory(const Model& model, const std::string& scene, const TrajectoryFile& t) {
  for (size_t i = 0; i < t.bodies.size(); ++i)
    if (model.find_body(t.bodies[i]) < 0)
      throw std::runtime_error(t.path + ":" + std::to_string(t.body_lines[i]) + ": body '" + t.bodies[i] +
                               "' is not a body of scene '" + scene + "' (a trajectory of another scene?)");
  for (const Body& b : model.bodies) {
    bool found = false;
    for (const auto& name : t.bodies) found = found || name == b.name;
    if (!found)
      throw std::runtime_error(t.path + ": scene '" + scene + "' has body '" + b.name +
                               "', which the trajectory does not list (a trajectory of another scene?)");
  }
}

void match_contacts(const Model& model, const std::string& scene, const TrajectoryFile& first, const ContactsFile& c) {
  const long last = first.frames.back().step;
  long line = 1;
  for (const ContactRow& r : c.rows) {
    ++line;
    for (const std::string* name : {&r.body1, &r.body2})
      if (*name != "world" && model.find_body(*name) < 0)
        throw std::runtime_error(c.path + ":" + std::to_string(line) + ": body '" + *name +
                                 "' is not a body of scene '" + scene + "'");
    if (r.step > last)
      throw std::runtime_error(c.path + ":" + std::to_string(line) + ": step " + std::to_string(r.step) +
                               " is beyond the trajectory '" + first.path + "' (last step " + std::to_string(last) +
                               ")");
  }
}

std::string view_data_script(const ViewInput& in) {
  const Model& m = *in.model;
  std::ostringstream o;
  o << "// Written by contactlab view: the scene's geometry, the trajectories and contacts (docs/viewer.md).\n"
    << "window.CONTACTLAB_VIEW = {\"scene\":" << script_json_string(in.scene) << ",\"bodies\":[";
  for (int b = 0; b < m.num_bodies(); ++b) o << (b ? "," : "") << script_json_string(m.bodies[b].name);
  o << "],\n\"geoms\":[";
  for (size_t g = 0; g < m.geoms.size(); ++g) {
    o << (g ? ",\n" : "");
    write_geom(o, m.geoms[g]);
  }
  o << "],\n\"trajectories\":[";
  for (size_t i = 0; i < in.trajectories.size(); ++i) {
    const TrajectoryFile& t = in.trajectories[i];
    // Column of each scene body in the file's rows (match_trajectory: all present).
    std::vector<int> column(m.num_bodies());
    for (size_t k = 0; k < t.bodies.size(); ++k) column[m.find_body(t.bodies[k])] = static_cast<int>(k);
    o << (i ? ",\n" : "") << "{\"file\":" << script_json_string(t.path) << ",\"steps\":[";
    for (size_t f = 0; f < t.frames.size(); ++f) o << (f ? "," : "") << t.frames[f].step;
    o << "],\"times\":[";
    for (size_t f = 0; f < t.frames.size(); ++f) o << (f ? "," : "") << Shortest{t.frames[f].time};
    o << "],\n\"poses\":[";
    for (size_t f = 0; f < t.frames.size(); ++f)
      for (int b = 0; b < m.num_bodies(); ++b)
        for (int k = 0; k < 7; ++k)
          o << (f || b || k ? "," : "") << Shortest{t.frames[f].poses[7 * column[b] + k]};
    o << "]}";
  }
  o << "],\n\"contacts\":";
  if (!in.contacts) {
    o << "null";
  } else {
    // Per row: step, body1, body2 (-1: world), point, normal, force on body2.
    o << "{\"file\":" << script_json_string(in.contacts->path) << ",\"rows\":[";
    bool first = true;
    for (const ContactRow& r : in.contacts->rows) {
      o << (first ? "[" : ",\n[") << r.step << ',' << m.find_body(r.body1) << ',' << m.find_body(r.body2);
      for (const double* v : {r.point, r.normal, r.force})
        for (int k = 0; k < 3; ++k) o << ',' << Shortest{v[k]};
      o << ']';
      first = false;
    }
    o << "]}";
  }
  o << "};\n";
  return o.str();
}

}  // namespace contactlab
