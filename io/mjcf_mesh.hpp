// A mesh asset made ready for a geom, as MuJoCo's compiler does: vertices
// moved to the asset's reference frame (refpos, refquat), the convex hull
// (the collision shape), the mass properties of the mesh's volume, and the
// re-centring on its inertial frame: the hull is stored in the frame of the
// mesh's centroid and principal axes, and the geom's pos/quat are composed
// with that frame (so a mesh geom's frame is the mesh's inertial frame).
#pragma once

#include <memory>
#include <string>

#include "core/convex_hull.hpp"
#include "core/math.hpp"
#include "io/mesh_io.hpp"

namespace contactlab {

struct CompiledMesh {
  std::shared_ptr<const ConvexHull> hull;  // inertial frame
  Vec3 pos = Vec3::Zero();                 // inertial frame origin (centroid) in the asset's frame
  Quat quat = Quat::Identity();            // principal axes in the asset's frame
  Real volume = 0;                         // m^3
  Vec3 principal_unit = Vec3::Zero();      // principal moments per unit density, m^5
  Vec3 half_extents = Vec3::Zero();        // of the hull's box in the inertial frame, m
};

// `mesh`: vertices already scaled; faces may be empty (an inline mesh: its
// volume is its hull's, as MuJoCo). Errors name `label`.
CompiledMesh compile_mesh(const TriangleMesh& mesh, const Vec3& refpos, const Quat& refquat, const std::string& label);

}  // namespace contactlab
