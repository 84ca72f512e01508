#include "io/mjcf_mesh.hpp"

#include "geometry/convex_hull.hpp"
#include "io/mass_properties.hpp"

namespace contactlab {

CompiledMesh compile_mesh(const TriangleMesh& mesh, const Vec3& refpos, const Quat& refquat, const std::string& label) {
  // MuJoCo: refpos is subtracted, then the conjugate of refquat rotates.
  const Mat3 R_ref_T = refquat.normalized().toRotationMatrix().transpose();
  std::vector<Vec3> v;
  v.reserve(mesh.vertices.size());
  for (const Vec3& p : mesh.vertices) v.push_back(R_ref_T * (p - refpos));
  const ConvexHull hull0 = build_convex_hull(v, label);

  MeshVolumeProperties mp;
  if (!mesh.faces.empty()) {
    mp = mesh_volume_properties(v, mesh.faces, label);
  } else {  // the hull's faces, as triangle fans
    std::vector<std::array<int, 3>> tris;
    for (int f = 0; f < hull0.num_faces(); ++f)
      for (int k = 1; k + 1 < hull0.face_size(f); ++k)
        tris.push_back({hull0.face_loop[hull0.face_begin[f]], hull0.face_loop[hull0.face_begin[f] + k],
                        hull0.face_loop[hull0.face_begin[f] + k + 1]});
    mp = mesh_volume_properties(hull0.vertices, tris, label);
  }
  Mat3 R;
  Vec3 principal;
  principal_frame(mp.inertia, R, principal);

  CompiledMesh out;
  out.pos = mp.com;
  out.quat = Quat(R).normalized();
  out.volume = mp.volume;
  out.principal_unit = principal;
  // Asset frame -> inertial frame: x_I = R^T (x - com).
  auto hull = std::make_shared<ConvexHull>(transformed_hull(hull0, R.transpose(), -(R.transpose() * mp.com)));
  for (const Vec3& p : hull->vertices) out.half_extents = out.half_extents.cwiseMax(p.cwiseAbs());
  out.hull = std::move(hull);
  return out;
}

}  // namespace contactlab
