// Mass properties of primitive geoms and of a body made of several geoms, as
// MuJoCo's compiler computes them when a body has no <inertial>
// (compiler inertiafromgeom="auto"). Planes have no volume and no mass.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/math.hpp"
#include "core/model.hpp"

namespace contactlab {

// Volume of a geom from its size (sphere r; capsule/cylinder r, half-length; box half-extents), m^3.
Real geom_volume(GeomType type, const Vec3& size);

// Principal moments of a solid geom of mass m about its centre, geom axes, kg m^2.
// Capsule: a cylinder plus two hemispherical caps (exact, as MuJoCo).
Vec3 geom_principal_inertia(GeomType type, const Vec3& size, Real mass);

// A solid ellipsoid with semi-axes a (x, y, z): volume 4/3 pi a0 a1 a2, and
// principal moments m/5 (a1^2 + a2^2, a0^2 + a2^2, a0^2 + a1^2) about its centre.
Real ellipsoid_volume(const Vec3& semi_axes);
Vec3 ellipsoid_principal_inertia(const Vec3& semi_axes, Real mass);

// Volume, centroid and inertia (unit density, about the centroid, mesh axes)
// of the solid a closed triangle mesh bounds: exact polyhedral integrals (a
// signed tetrahedron per triangle). Either winding is accepted; a volume that
// is not positive (an open or inconsistently wound mesh) is refused with an
// std::invalid_argument naming `label`.
struct MeshVolumeProperties {
  Real volume = 0;              // m^3
  Vec3 com = Vec3::Zero();      // mesh frame, m
  Mat3 inertia = Mat3::Zero();  // per unit density (kg/m^3), m^5
};
MeshVolumeProperties mesh_volume_properties(const std::vector<Vec3>& vertices,
                                            const std::vector<std::array<int, 3>>& faces, const std::string& label);
// Principal axes (columns of a rotation R) and moments of a symmetric inertia.
void principal_frame(const Mat3& inertia, Mat3& R, Vec3& principal);

// Mass, centre of mass and inertia about the centre of mass of a set of parts.
struct MassProperties {
  Real mass = 0;                // kg
  Vec3 com = Vec3::Zero();      // frame F
  Mat3 inertia = Mat3::Zero();  // about com, axes of F
};

// Sums parts given in a common frame F (parallel-axis theorem to the joint com).
class MassAccumulator {
 public:
  // A part of mass m whose centre is at pos_F with principal moments `principal`
  // along the axes R_FP (columns).
  void add(Real mass, const Vec3& pos_F, const Mat3& R_FP, const Vec3& principal);
  MassProperties result() const;
  bool empty() const { return parts_ == 0; }

 private:
  int parts_ = 0;
  Real mass_ = 0;
  Vec3 first_moment_ = Vec3::Zero();   // sum m p
  Mat3 second_moment_ = Mat3::Zero();  // sum (R I R^T + m (|p|^2 E - p p^T)) about F's origin
};

}  // namespace contactlab
