#include "io/mass_properties.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

namespace contactlab {

Real geom_volume(GeomType type, const Vec3& s) {
  switch (type) {
    case GeomType::Sphere:
      return 4.0 / 3.0 * kPi * s[0] * s[0] * s[0];
    case GeomType::Capsule:
      return kPi * s[0] * s[0] * (2.0 * s[1] + 4.0 / 3.0 * s[0]);
    case GeomType::Cylinder:
      return kPi * s[0] * s[0] * 2.0 * s[1];
    case GeomType::Box:
      return 8.0 * s[0] * s[1] * s[2];
    case GeomType::Plane:
    case GeomType::Mesh:  // from its triangles: mesh_volume_properties
    case GeomType::HField:  // static terrain: no mass
      return 0;
  }
  return 0;
}

Real ellipsoid_volume(const Vec3& a) { return 4.0 / 3.0 * kPi * a[0] * a[1] * a[2]; }

Vec3 ellipsoid_principal_inertia(const Vec3& a, Real m) {
  const Vec3 sq = a.cwiseProduct(a);
  return m / 5.0 * Vec3(sq[1] + sq[2], sq[0] + sq[2], sq[0] + sq[1]);
}

Vec3 geom_principal_inertia(GeomType type, const Vec3& s, Real m) {
  switch (type) {
    case GeomType::Sphere: {
      const Real i = 0.4 * m * s[0] * s[0];
      return Vec3(i, i, i);
    }
    case GeomType::Box:
      return Vec3(m / 3.0 * (s[1] * s[1] + s[2] * s[2]), m / 3.0 * (s[0] * s[0] + s[2] * s[2]),
                  m / 3.0 * (s[0] * s[0] + s[1] * s[1]));
    case GeomType::Cylinder: {
      const Real r = s[0], h = 2.0 * s[1];
      const Real ixx = m * (3.0 * r * r + h * h) / 12.0;
      return Vec3(ixx, ixx, 0.5 * m * r * r);
    }
    case GeomType::Capsule: {
      const Real r = s[0], h = 2.0 * s[1];
      // Mass splits by volume: the two caps form one sphere of volume 4/3 pi r^3.
      const Real m_caps = m * 4.0 * r / (4.0 * r + 3.0 * h);
      const Real m_cyl = m - m_caps;
      Real ixx = m_cyl * (3.0 * r * r + h * h) / 12.0;
      Real izz = 0.5 * m_cyl * r * r;
      // Each cap: 2/5 m r^2 about the sphere centre, whose flat face sits h/2 from
      // the capsule centre; the shift of its com (3r/8) gives h (2h + 3r) / 8.
      ixx += 0.4 * m_caps * r * r + m_caps * h * (2.0 * h + 3.0 * r) / 8.0;
      izz += 0.4 * m_caps * r * r;
      return Vec3(ixx, ixx, izz);
    }
    case GeomType::Plane:
    case GeomType::Mesh:  // from its triangles: mesh_volume_properties
    case GeomType::HField:  // static terrain: no mass
      return Vec3::Zero();
  }
  return Vec3::Zero();
}

void MassAccumulator::add(Real mass, const Vec3& p, const Mat3& R, const Vec3& principal) {
  ++parts_;
  mass_ += mass;
  first_moment_ += mass * p;
  second_moment_ +=
      R * principal.asDiagonal() * R.transpose() + mass * (p.squaredNorm() * Mat3::Identity() - p * p.transpose());
}

MassProperties MassAccumulator::result() const {
  MassProperties out;
  out.mass = mass_;
  if (mass_ <= 0) return out;
  out.com = first_moment_ / mass_;
  const Vec3& c = out.com;
  // Back from F's origin to the com (parallel-axis theorem in reverse).
  out.inertia = second_moment_ - mass_ * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  out.inertia = 0.5 * (out.inertia + out.inertia.transpose());
  return out;
}

MeshVolumeProperties mesh_volume_properties(const std::vector<Vec3>& v, const std::vector<std::array<int, 3>>& faces,
                                            const std::string& label) {
  if (faces.empty()) throw std::invalid_argument(label + ": mesh has no faces for its volume");
  const int nv = static_cast<int>(v.size());
  // Integrals over the tetrahedra (o, a, b, c) of each triangle, with o the
  // vertex centroid (a closed mesh's result does not depend on o; near its
  // points the sums lose the least to rounding).
  Vec3 o = Vec3::Zero();
  for (const Vec3& p : v) o += p;
  o /= static_cast<Real>(std::max(nv, 1));
  Real vol = 0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();  // integral of x x^T about o
  Real extent = 0;
  for (const Vec3& p : v) extent = std::max(extent, (p - o).norm());
  for (const auto& f : faces) {
    for (int k = 0; k < 3; ++k)
      if (f[k] < 0 || f[k] >= nv) throw std::invalid_argument(label + ": face index out of range");
    const Vec3 a = v[f[0]] - o, b = v[f[1]] - o, c = v[f[2]] - o;
    const Real det = a.dot(b.cross(c));  // 6 x the signed volume
    const Vec3 s = a + b + c;
    vol += det / 6;
    first += det / 24 * s;
    second += det / 120 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  // Faces wound clockwise give the same solid with every sign flipped.
  if (vol < 0) vol = -vol, first = -first, second = -second;
  if (!(vol > 1e-12 * extent * extent * extent) || !std::isfinite(vol))
    throw std::invalid_argument(label + ": mesh volume " + std::to_string(vol) +
                                " m^3 is not positive (open or inconsistently wound faces?)");
  MeshVolumeProperties out;
  out.volume = vol;
  const Vec3 c = first / vol;  // centroid relative to o
  out.com = o + c;
  const Mat3 cov = second - vol * c * c.transpose();  // about the centroid
  out.inertia = cov.trace() * Mat3::Identity() - cov;
  out.inertia = 0.5 * (out.inertia + out.inertia.transpose());
  return out;
}

void principal_frame(const Mat3& inertia, Mat3& R, Vec3& principal) {
  Eigen::SelfAdjointEigenSolver<Mat3> es(inertia);
  R = es.eigenvectors();
  principal = es.eigenvalues();
  if (R.determinant() < 0) R.col(2) = -R.col(2);
}

}  // namespace contactlab
