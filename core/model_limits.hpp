// The magnitudes a contactlab model may hold, written once: io/mjcf.cpp checks
// each attribute against them at load (naming file, line and attribute),
// Model::validate checks every model against them (any reader, the Python
// module), and sim/settings.cpp checks --set body.NAME.mass and the servo
// gains against them (naming the key). sim/run_parameters.hpp takes the time
// step and duration bounds from here so `--dt` and `option timestep` share
// one rule. docs/reliability.md lists each bound and why.
//
// The bounds are not physical limits but the range in which a simulation in
// double precision stays meaningful: positions resolved to well below a
// micrometre, squares of velocities and forces (energies, Delassus entries)
// far from overflow, and values that no real scene needs beyond them, so a
// value outside is a typo or a unit error and is refused before any step.
#pragma once

#include <string>

#include "core/math.hpp"

namespace contactlab {

// A closed interval [lo, hi], or (lo, hi] when lo_open; values must also be finite.
struct Range {
  Real lo, hi;
  bool lo_open = false;
  const char* unit = "";
};

// "" when v is finite and in r, else why not: "must be finite and in (0, 1e+09] kg, got 1e+308".
std::string range_violation(const Range& r, Real v);
// The first component out of range, as "[i] must be ...", or "".
std::string range_violation(const Range& r, const Vec3& v);
// "(0, 1e+09] kg"
std::string describe(const Range& r);

namespace limits {

// |position| per component, m: body and geom positions, anchors, centres of
// mass, keyframe qpos. At 1e6 m a double still resolves 1.2e-10 m, so a
// micrometre-scale contact gap is computed with ~1e4 ulps to spare.
inline constexpr Range kPosition{-1e6, 1e6, false, "m"};
// Geom sizes (radii, half-lengths) and contact margins, m: same scale as positions.
inline constexpr Range kSize{0, 1e6, true, "m"};
inline constexpr Range kMargin{0, 1e6, false, "m"};
// Mass of a moving body, kg: 1e9 kg is a 100 m steel cube, 1e-9 kg a
// 0.1 mm grain of sand. 1/m enters the Delassus matrix and the velocity
// update: at 1e-9 kg a bounded force (kControl x kGear) still changes a
// velocity by a finite amount, while a mass like 1e-300 overflows 1/m.
inline constexpr Range kMass{1e-9, 1e9, false, "kg"};
// An explicit mass attribute (a geom's or an inertial's), kg: the same upper
// bound, zero allowed (a massless geom). A fixed body's computed mass (a big
// static box's density times volume) is never used and not bounded.
inline constexpr Range kMassValue{0, 1e9, false, "kg"};
// Inertia entries, kg m^2: kMass times (1e3 m)^2.
inline constexpr Range kInertia{-1e15, 1e15, false, "kg m^2"};
inline constexpr Range kInertiaDiagonal{0, 1e15, false, "kg m^2"};
// |gravity| per component, m/s^2: 1e4 is about 1000 g; a larger value is a
// unit error (mm/s^2) or a typo, and 1e308 overflows the first step.
inline constexpr Range kGravity{-1e4, 1e4, false, "m/s^2"};
// Time step, s: below 1e-9 s the time t += h of a run of kMaxDuration no
// longer advances by h exactly (spacing of 1e6 is 1.2e-10); above 1 s a
// contact step is no longer a time discretisation of anything.
inline constexpr Range kTimeStep{1e-9, 1.0, false, "s"};
// Simulated time of a run, s (11.6 days of simulated time).
inline constexpr Range kDuration{0, 1e6, false, "s"};
// Keyframe qvel per component, m/s or rad/s: 1e6 m/s crosses the position
// bound in one second; larger speeds overflow kinetic energy checks' squares
// long before they mean anything (1e300 gave inf in the output).
inline constexpr Range kSpeed{-1e6, 1e6, false, "m/s or rad/s"};
// Servo gains kp (N/m, N m/rad), kv (N s/m, N m s/rad) and joint damping:
// >= 0 (a negative gain pumps energy in) and <= 1e12, which with the
// smallest masses still gives a step matrix whose condition a double holds.
inline constexpr Range kGain{0, 1e12, false, ""};
// Joint armature, kg m^2 or kg: as an inertia.
inline constexpr Range kArmature{0, 1e15, false, "kg m^2 or kg"};
// Actuator gear per component (dimensionless ratio, or m/rad for a slider
// crank in MuJoCo terms): 1e6 is a harmonic drive times a thousand.
inline constexpr Range kGear{-1e6, 1e6, false, ""};
// Control values (--ctrl, --ctrl-file, ctrlrange, schedules), N, N m, m, rad
// or m/s: 1e9 times a gear of 1e6 still leaves forces 1e290 below overflow;
// no actuator of a real scene commands more than 1e9 of any of these units.
inline constexpr Range kControl{-1e9, 1e9, false, ""};
// Friction coefficient: >= 0; 1e3 already makes the cone a ray (no slip at any angle).
inline constexpr Range kFriction{0, 1e3, false, ""};
// Joint range ends, rad or m: as positions.
inline constexpr Range kJointRange{-1e6, 1e6, false, "rad or m"};

}  // namespace limits

// The principal moments of a symmetric inertia satisfy the triangle
// inequality (I1 + I2 >= I3 for every ordering) up to a relative 1e-6
// (rounding of MJCF values); "" when they do, else why not.
std::string inertia_triangle_violation(const Mat3& inertia);

}  // namespace contactlab
