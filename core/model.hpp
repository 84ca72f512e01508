// Model: the immutable description of a scene, in maximal coordinates.
// Every body carries its own pose and twist; joints, limits, loop closures and
// servos become constraint rows at each step. Arrays are flat, indexed by id.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/convex_hull.hpp"
#include "core/height_field.hpp"
#include "core/math.hpp"
#include "core/tendon.hpp"

namespace contactlab {

// Mesh: the convex hull of an MJCF mesh asset (Geom::hull).
enum class GeomType { Plane, Sphere, Box, Capsule, Cylinder, Mesh, HField };
// Weld is internal: a body declared without any joint inside a moving parent
// is rigidly attached to it (MJCF semantics), which in maximal coordinates is
// a weld constraint. Bodies without joints up to the world are `fixed` instead.
enum class JointType { Free, Hinge, Slide, Ball, Weld };
enum class EqualityType { Connect, Weld };
enum class ActuatorType { Motor, Position, Velocity };

const char* to_string(GeomType t);
const char* to_string(JointType t);

struct Body {
  std::string name;
  int parent = -1;          // parent body id in the MJCF tree, -1 = world
  bool fixed = false;       // welded to the world (no joint up to the world): infinite mass
  Real mass = 0;            // kg
  Vec3 com_B = Vec3::Zero();         // centre of mass in the body frame, m
  Mat3 inertia_B = Mat3::Zero();     // inertia about the com, body axes, kg m^2
  // Initial pose of the body frame from the MJCF tree (qpos0): origin and orientation in world.
  Vec3 pos0_W = Vec3::Zero();
  Quat quat0_WB = Quat::Identity();
};

struct Geom {
  std::string name;
  GeomType type = GeomType::Sphere;
  int body = -1;                     // owning body, -1 = world
  // size: sphere (r), capsule/cylinder (r, half-length), box (half-extents),
  // mesh (half-extents of the hull's box in geom axes: informative), plane (unused)
  Vec3 size = Vec3::Zero();
  Vec3 pos_B = Vec3::Zero();         // geom frame origin in the body frame (world frame for body -1)
  Quat quat_BG = Quat::Identity();   // geom axes in body axes; capsule/cylinder axis is local z
  Real friction = 1.0;               // sliding friction coefficient (MJCF friction[0])
  int contype = 1, conaffinity = 1;  // MJCF collision bitmasks
  Real margin = 0;                   // m, contacts are generated when the gap is below it
  // GeomType::Mesh: the hull in geom coordinates. MJCF re-centres a mesh on
  // its inertial frame, so pos_B/quat_BG are that frame's (MuJoCo's rule).
  std::shared_ptr<const ConvexHull> hull;
  std::string mesh;                  // the mesh asset's name (empty for primitives)
  // GeomType::HField: the grid (static geoms only: world or fixed bodies).
  std::shared_ptr<const HeightField> hfield;
};

// A named point fixed in a body (MJCF <site>), for losses and output:
// final:site.NAME.px, trajectory rows "site.NAME" (adjoints/loss.hpp, docs/cli.md).
struct Site {
  std::string name;
  int body = -1;                     // owning body, -1 = world
  Vec3 pos_B = Vec3::Zero();         // site frame origin in the body frame (world frame for body -1)
  Quat quat_BS = Quat::Identity();   // site axes in body axes
};

struct Joint {
  std::string name;
  JointType type = JointType::Hinge;
  int body = -1;                     // child body (the body the joint is declared in)
  int parent = -1;                   // parent body, -1 = world
  Vec3 anchor_B = Vec3::Zero();      // joint position in the child body frame
  Vec3 axis_B = Vec3::UnitZ();       // unit axis in the child body frame (hinge, slide)
  bool limited = false;
  Real range_lo = 0, range_hi = 0;   // rad (hinge) or m (slide)
  Real damping = 0;                  // N m s/rad or N s/m
  Real armature = 0;                 // kg m^2 or kg
  // Spring toward springref (MJCF stiffness, springref): N m/rad or N/m; rad or m.
  Real stiffness = 0, springref = 0;
  // MJCF ref (hinge, slide): the coordinate at the model's pose (qpos0). Joint
  // coordinates (qpos, limits, springref, servo targets, tendon lengths) are
  // MuJoCo's: ref plus the motion from that pose (hinges wrapped to (-pi, pi]).
  Real ref = 0;
  int qpos_adr = 0, qvel_adr = 0;    // offsets into MJCF generalised coordinates
  // Reference configuration (qpos0): relative orientation parent->child and anchor on the parent.
  Quat rel_quat0 = Quat::Identity(); // R_parent^T R_child at qpos0
  Vec3 anchor_parent = Vec3::Zero(); // anchor in the parent body frame at qpos0 (world frame if parent = -1)
  Vec3 axis_parent = Vec3::UnitZ();  // axis in the parent body frame at qpos0
};

struct Equality {
  std::string name;
  EqualityType type = EqualityType::Connect;
  int body1 = -1, body2 = -1;        // -1 = world
  Vec3 anchor1 = Vec3::Zero();       // point in body1's frame
  Vec3 anchor2 = Vec3::Zero();       // the same point in body2's frame at qpos0
  Quat rel_quat = Quat::Identity();  // weld: R_1^T R_2 at qpos0
};

struct Actuator {
  std::string name;
  ActuatorType type = ActuatorType::Motor;
  int joint = -1;                    // hinge or slide joint (-1 with a tendon)
  // A motor on a fixed tendon (MJCF tendon=, joint = -1): its force gear[0] u
  // along the tendon acts on each of the tendon's joints times its coefficient.
  int tendon = -1;
  // gear[0] scales a hinge/slide actuator; a motor on a free joint uses all six
  // entries (force along world x,y,z; torque about body x,y,z), as MuJoCo.
  Vec6 gear = (Vec6() << 1, 0, 0, 0, 0, 0).finished();
  Real kp = 0;                       // position: stiffness; velocity: velocity gain
  Real kv = 0;                       // position servo damping (MJCF kv)
  bool ctrl_limited = false;
  Real ctrl_lo = 0, ctrl_hi = 0;
};

// Piecewise-linear control of one actuator over time (contactlab extension,
// read from <custom><numeric name="contactlab.ctrl.ACTUATOR" data="t0 u0 t1 u1 ..."/>,
// which MuJoCo ignores). Before t0 the first value holds, after the last knot the last.
struct ControlSchedule {
  int actuator = -1;
  std::vector<Real> times, values;
  Real value_at(Real t) const;
};

struct Keyframe {
  std::string name;
  std::vector<Real> qpos, qvel;      // MJCF generalised coordinates (may be empty = defaults)
};

struct ModelOptions {
  Real timestep = 0.002;             // s
  Vec3 gravity = Vec3(0, 0, -9.81);  // m/s^2
  // The medium (MJCF option density, viscosity): MuJoCo's inertia-box fluid
  // forces (schemes/fluid_forces.hpp); 0 = none.
  Real density = 0;                  // kg/m^3
  Real viscosity = 0;                // Pa s
};

struct Model {
  std::string name;
  std::string source_file;
  ModelOptions options;
  std::vector<Body> bodies;
  std::vector<Geom> geoms;
  std::vector<Site> sites;
  std::vector<Joint> joints;
  std::vector<Equality> equalities;
  std::vector<Tendon> tendons;                    // MJCF <tendon><fixed> (core/tendon.hpp)
  std::vector<ScalarEquality> scalar_equalities;  // MJCF <equality><joint|tendon>
  std::vector<Actuator> actuators;
  std::vector<Keyframe> keyframes;
  std::vector<ControlSchedule> control_schedules;
  std::vector<std::pair<int, int>> excluded_body_pairs;  // MJCF contact/exclude (sorted pair)
  // Newton restitution: default for all pairs and per geom-pair overrides (sorted pair).
  Real restitution_default = 0;
  std::vector<std::pair<std::pair<int, int>, Real>> restitution_pairs;
  // Simulated time of a run when none is given (<custom> contactlab.duration), s.
  Real default_duration = 1.0;
  int nq = 0, nv = 0;                // sizes of MJCF generalised coordinates
  // What the reader ignored under allow_unsupported ("FILE:LINE: <elem> attr"), empty otherwise.
  std::vector<std::string> ignored_features;

  int num_bodies() const { return static_cast<int>(bodies.size()); }
  // A body as constraint rows take it: -1 for the world and for a fixed (welded) body.
  int moving_body(int body) const { return (body >= 0 && !bodies[body].fixed) ? body : -1; }
  int find_body(const std::string& name) const;      // -1 if absent
  int find_geom(const std::string& name) const;
  int find_site(const std::string& name) const;
  int find_joint(const std::string& name) const;
  int find_actuator(const std::string& name) const;
  Real restitution(int geom_a, int geom_b) const;
  bool bodies_excluded(int body_a, int body_b) const;
  // Throws std::invalid_argument naming the offending element on non-physical data.
  void validate() const;
};

}  // namespace contactlab
