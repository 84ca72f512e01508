// Triangle meshes from files: Wavefront OBJ (tinyobjloader; polygons
// triangulated) and STL (binary or ASCII), as MJCF's <asset><mesh file=...>
// names them. The reader checks what a collision or mass computation would
// trust: finite coordinates, indices in range, at least one face of non-zero
// area and four vertices that are not coplanar (a volume). A bad file is an
// std::invalid_argument whose message names the file (and the line, where
// the format has lines): never a partial mesh.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "core/math.hpp"

namespace contactlab {

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> faces;  // counter-clockwise as stored
};

// The limits on what a mesh file may hold (a hostile file is refused before
// it is allocated).
struct MeshLimits {
  static constexpr size_t max_file_bytes = size_t(256) << 20;  // 256 MiB
  static constexpr size_t max_triangles = size_t(1) << 24;     // 16.8 M
};

// A file's bytes, or std::invalid_argument naming the file: missing, a
// folder, unreadable, or larger than max_bytes ("... than the N MiB `what`
// may have").
std::string read_asset_bytes(const std::string& path, size_t max_bytes, const char* what);

// By the file's extension (.obj or .stl, any case).
TriangleMesh read_mesh_file(const std::string& path);
// The readers on text or bytes already in memory; `label` names them in messages.
TriangleMesh read_obj_text(const std::string& text, const std::string& label);
TriangleMesh read_stl_bytes(const std::string& bytes, const std::string& label);

}  // namespace contactlab
