#include "io/mass_properties.hpp"

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

}  // namespace contactlab
