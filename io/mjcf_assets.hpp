// <asset><mesh> and <asset><hfield> as read by the MJCF reader: names, files
// resolved and checked, meshes read (OBJ, STL), sizes. A mesh geom collides as
// the mesh's convex hull (io/mjcf_mesh.hpp); an hfield geom as the height
// field's prisms (core/height_field.hpp, geometry/collide_hfield.cpp).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/height_field.hpp"
#include "core/math.hpp"
#include "io/mesh_io.hpp"
#include "io/mjcf_mesh.hpp"

namespace contactlab {

struct MeshAsset {
  std::string file;  // resolved path (checked to exist), empty for an inline mesh
  Vec3 scale = Vec3::Ones();
  int line = 0;
  // The file's triangles (io/mesh_io.hpp), scaled; an inline mesh's vertices
  // (MuJoCo takes their convex hull) with no faces.
  TriangleMesh mesh;
  Vec3 refpos = Vec3::Zero();        // MJCF refpos, refquat: the frame the vertices are given in
  Quat refquat = Quat::Identity();
  // Hull and mass properties, built when a geom first uses the mesh.
  std::shared_ptr<const CompiledMesh> compiled;
};

struct HfieldAsset {
  std::string file;            // resolved path, empty when elevation= or nrow/ncol give the data
  int nrow = 0, ncol = 0;
  Real size[4] = {0, 0, 0, 0};  // radius x, radius y, elevation z, base z (MJCF order)
  std::vector<Real> elevation;  // nrow * ncol, row-major, when given inline
  int line = 0;
  // The grid (normalised, io/hfield_io.hpp), built when a geom first uses it.
  std::shared_ptr<const HeightField> compiled;
};

struct MjcfAssets {
  std::map<std::string, MeshAsset> meshes;
  std::map<std::string, HfieldAsset> hfields;
};

// MuJoCo's asset path rule: an absolute file as is; else relative to the
// main file's folder joined with `dir` (compiler meshdir, else assetdir).
std::string resolve_asset_path(const std::string& main_file, const std::string& dir, const std::string& file);

// MuJoCo's implicit mesh name: the file name without folder and extension.
std::string asset_name_from_file(const std::string& file);

bool asset_file_exists(const std::string& path);

}  // namespace contactlab
