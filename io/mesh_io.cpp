#include "io/mesh_io.hpp"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace contactlab {

namespace {

[[noreturn]] void fail(const std::string& label, const std::string& why) {
  throw std::invalid_argument(label + ": " + why);
}

// What every reader's result must satisfy.
void check_mesh(const TriangleMesh& m, const std::string& label) {
  if (m.faces.empty()) fail(label, "no faces (a mesh needs triangles)");
  const int n = static_cast<int>(m.vertices.size());
  for (int i = 0; i < n; ++i)
    if (!m.vertices[i].allFinite()) fail(label, "vertex " + std::to_string(i + 1) + " is not finite");
  bool some_area = false;
  for (size_t f = 0; f < m.faces.size(); ++f) {
    for (int k = 0; k < 3; ++k)
      if (m.faces[f][k] < 0 || m.faces[f][k] >= n)
        fail(label, "face " + std::to_string(f + 1) + " refers to vertex " + std::to_string(m.faces[f][k] + 1) +
                        ", the mesh has " + std::to_string(n));
    const Vec3 &a = m.vertices[m.faces[f][0]], &b = m.vertices[m.faces[f][1]], &c = m.vertices[m.faces[f][2]];
    some_area = some_area || (b - a).cross(c - a).norm() > 0;
  }
  if (!some_area) fail(label, "degenerate mesh: every face has zero area");
  // A volume: some vertex off the plane of a non-degenerate face.
  Real extent = 0;
  for (const Vec3& v : m.vertices) extent = std::max(extent, (v - m.vertices[0]).norm());
  bool volume = false;
  for (size_t f = 0; f < m.faces.size() && !volume; ++f) {
    const Vec3 &a = m.vertices[m.faces[f][0]], &b = m.vertices[m.faces[f][1]], &c = m.vertices[m.faces[f][2]];
    const Vec3 normal = (b - a).cross(c - a);
    if (!(normal.norm() > 0)) continue;
    const Vec3 unit = normal.normalized();
    for (const Vec3& v : m.vertices)
      if (std::abs(unit.dot(v - a)) > 1e-9 * extent) {
        volume = true;
        break;
      }
    break;  // one non-degenerate face's plane decides
  }
  if (!volume) fail(label, "degenerate mesh: all vertices are coplanar (no volume)");
}

// STL stores every triangle's own corners: equal corners become one vertex.
struct VertexIndex {
  std::map<std::tuple<Real, Real, Real>, int> index;
  int of(TriangleMesh& m, const Vec3& v) {
    const auto key = std::make_tuple(v.x(), v.y(), v.z());
    const auto it = index.find(key);
    if (it != index.end()) return it->second;
    m.vertices.push_back(v);
    return index[key] = static_cast<int>(m.vertices.size()) - 1;
  }
};

TriangleMesh read_binary_stl(const std::string& bytes, const std::string& label, uint32_t count) {
  TriangleMesh m;
  VertexIndex vi;
  m.faces.reserve(count);
  for (uint32_t t = 0; t < count; ++t) {
    const char* p = bytes.data() + 84 + 50 * static_cast<size_t>(t) + 12;  // after the normal
    std::array<int, 3> face;
    for (int k = 0; k < 3; ++k) {
      float xyz[3];
      std::memcpy(xyz, p + 12 * k, 12);
      const Vec3 v(xyz[0], xyz[1], xyz[2]);
      if (!v.allFinite()) fail(label, "triangle " + std::to_string(t + 1) + " has a non-finite corner");
      face[k] = vi.of(m, v);
    }
    m.faces.push_back(face);
  }
  return m;
}

TriangleMesh read_ascii_stl(const std::string& text, const std::string& label) {
  TriangleMesh m;
  VertexIndex vi;
  std::istringstream in(text);
  std::string line;
  int line_no = 0, corners = 0;
  std::array<int, 3> face{};
  bool solid = false, ended = false;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    const std::string at = label + ":" + std::to_string(line_no);
    if (!solid) {
      if (word != "solid") fail(at, "expected 'solid' (an ASCII STL file)");
      solid = true;
    } else if (word == "vertex") {
      Vec3 v;
      if (!(words >> v.x() >> v.y() >> v.z())) fail(at, "'vertex' needs three numbers");
      if (!v.allFinite()) fail(at, "vertex is not finite");
      if (corners == 3) fail(at, "a facet with more than three vertices");
      face[corners++] = vi.of(m, v);
    } else if (word == "endloop") {
      if (corners != 3) fail(at, "a facet needs exactly three vertices, got " + std::to_string(corners));
      if (m.faces.size() >= MeshLimits::max_triangles) fail(at, "more triangles than a mesh may have (16.8 M)");
      m.faces.push_back(face);
      corners = 0;
    } else if (word == "endsolid") {
      ended = true;
      break;
    } else if (word != "facet" && word != "outer" && word != "endfacet") {
      fail(at, "unexpected '" + word + "' in an ASCII STL file");
    }
  }
  if (!solid) fail(label, "empty file");
  if (!ended) fail(label, "no 'endsolid': the file is truncated");
  return m;
}

}  // namespace

std::string read_asset_bytes(const std::string& path, size_t max_bytes, const char* what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(path, "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) fail(path, "cannot read the file");
  if (static_cast<size_t>(size) > max_bytes)
    fail(path, "file of " + std::to_string(size) + " bytes is larger than the " + std::to_string(max_bytes >> 20) +
                   " MiB " + what + " may have");
  in.seekg(0);
  std::string bytes(static_cast<size_t>(size), '\0');
  in.read(bytes.data(), size);
  if (!in) fail(path, "cannot read the file");
  return bytes;
}

TriangleMesh read_stl_bytes(const std::string& bytes, const std::string& label) {
  if (bytes.empty()) fail(label, "empty file");
  // Binary: an 80-byte header, a little-endian triangle count, 50 bytes per
  // triangle. A file of exactly that size is binary even when its header
  // starts with "solid" (many exporters write that).
  if (bytes.size() >= 84) {
    uint32_t count = 0;
    std::memcpy(&count, bytes.data() + 80, 4);
    if (bytes.size() == 84 + 50 * static_cast<size_t>(count)) {
      if (count > MeshLimits::max_triangles) fail(label, "more triangles than a mesh may have (16.8 M)");
      TriangleMesh m = read_binary_stl(bytes, label, count);
      check_mesh(m, label);
      return m;
    }
  }
  size_t first = 0;
  while (first < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[first]))) ++first;
  if (bytes.compare(first, 5, "solid") != 0)
    fail(label, "neither a binary STL file (84 + 50 n bytes for n triangles) nor an ASCII one ('solid ...')");
  TriangleMesh m = read_ascii_stl(bytes, label);
  check_mesh(m, label);
  return m;
}

// tinyobjloader reads a coordinate it cannot parse ("nan", "1e999", "x") as
// 0: every `v` line is checked here first, so such a file is refused at its line.
void check_obj_vertices(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] != 'v' || i + 1 >= line.size() || !std::isspace(static_cast<unsigned char>(line[i + 1])))
      continue;
    std::istringstream words(line.substr(i + 1));
    std::string word;
    int count = 0;
    while (words >> word && count < 3) {
      char* end = nullptr;
      const double v = std::strtod(word.c_str(), &end);
      if (*end != '\0' || !std::isfinite(v))
        fail(label + ":" + std::to_string(line_no), "vertex coordinate '" + word + "' is not a finite number");
      ++count;
    }
    if (count < 3) fail(label + ":" + std::to_string(line_no), "a vertex needs three coordinates");
  }
}

TriangleMesh read_obj_text(const std::string& text, const std::string& label) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) fail(label, "empty file");
  check_obj_vertices(text, label);
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromString(text, "", config)) {
    std::string why = reader.Error();
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    fail(label, "not a valid OBJ file: " + (why.empty() ? std::string("tinyobjloader refused it") : why));
  }
  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  TriangleMesh m;
  if (attrib.vertices.size() % 3 != 0) fail(label, "vertex coordinates are not in threes");
  m.vertices.reserve(attrib.vertices.size() / 3);
  for (size_t i = 0; i + 2 < attrib.vertices.size(); i += 3)
    m.vertices.emplace_back(attrib.vertices[i], attrib.vertices[i + 1], attrib.vertices[i + 2]);
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    size_t offset = 0;
    for (size_t f = 0; f < shape.mesh.num_face_vertices.size(); ++f) {
      const size_t n = shape.mesh.num_face_vertices[f];
      if (offset + n > shape.mesh.indices.size()) fail(label, "a face refers past the index list");
      // Triangulated by tinyobjloader; a face of other arity is a fan.
      for (size_t k = 1; k + 1 < n; ++k) {
        if (m.faces.size() >= MeshLimits::max_triangles) fail(label, "more triangles than a mesh may have (16.8 M)");
        m.faces.push_back({shape.mesh.indices[offset].vertex_index, shape.mesh.indices[offset + k].vertex_index,
                           shape.mesh.indices[offset + k + 1].vertex_index});
      }
      offset += n;
    }
  }
  check_mesh(m, label);
  return m;
}

TriangleMesh read_mesh_file(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext != ".obj" && ext != ".stl") fail(path, "unknown mesh format '" + ext + "' (supported: .obj, .stl)");
  const std::string bytes = read_asset_bytes(path, MeshLimits::max_file_bytes, "a mesh");
  return ext == ".obj" ? read_obj_text(bytes, path) : read_stl_bytes(bytes, path);
}

}  // namespace contactlab
