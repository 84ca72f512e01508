// MJCF (MuJoCo XML) reader for the subset contactlab simulates.
//
// Supported, with MuJoCo 2.2 semantics:
//   <mujoco model>, <compiler angle eulerseq autolimits inertiafromgeom coordinate="local">,
//   <option timestep gravity>, <include file> anywhere (io/mjcf_include.hpp), nested
//   <default> classes with class/childclass (io/mjcf_defaults.hpp), <frame> (io/mjcf_frames.hpp),
//   <worldbody>, nested <body pos quat|euler|axisangle|xyaxes|zaxis childclass>,
//   <inertial pos mass diaginertia|fullinertia quat...>, <geom type=plane|sphere|box|capsule|cylinder
//   size fromto pos quat... mass density friction contype conaffinity margin>,
//   <joint type=hinge|slide|ball|free pos axis range limited damping armature>, <freejoint>,
//   (fromto, as MuJoCo 2.2: geom z axis from `to` towards `from`; a box gets size[1] = size[0]),
//   <equality><connect|weld>, <contact><exclude>, <actuator><motor|position|velocity> on joints,
//   <keyframe><key qpos qvel>, and contactlab extensions in <custom><numeric>:
//     contactlab.restitution              default Newton restitution (one number in [0, 1])
//     contactlab.restitution.GEOM1.GEOM2  restitution of one geom pair
//     contactlab.ctrl.ACTUATOR            control schedule "t0 u0 t1 u1 ..." (strictly increasing t)
//     contactlab.duration                 default simulated time of a run, s (> 0)
//
// How MJCF maps onto the Model (core/model.hpp):
//   - One joint per body at most (a <freejoint> counts). A body without a joint
//     under a moving parent gets an internal JointType::Weld joint (name "",
//     qpos_adr = qvel_adr = -1); these come after all MJCF joints, so joint ids
//     0..n-1 are MuJoCo's.
//   - Body and geom ids are MuJoCo's (depth-first document order; a body's geoms
//     before its children's). MuJoCo's world body is not stored; "world" names it
//     in references (id -1).
//   - Mass properties come from <inertial>, else from the body's geoms; inertia
//     is stored as a full matrix in body axes about the com (MuJoCo diagonalises it).
//   - connect: anchor1 = anchor in body1's frame, anchor2 = the same point at qpos0
//     in body2's frame (world if body2 is absent).
//   - weld: rel_quat = R_1^T R_2 and anchor1 = body2's origin in body1's frame, both
//     at qpos0 (or from relpose when given), anchor2 = 0.
//   - Hinge and ball ranges are angles (degrees unless compiler angle="radian");
//     `limited` absent + `range` present means limited (compiler autolimits).
//   - Velocity actuators store their gain (MJCF kv) in Actuator::kp. A position
//     actuator's kv is a contactlab extension (MuJoCo 2.2 has none).
//
// Anything else is classified by io/mjcf_support.cpp: visual and sensor
// features (rgba, camera, light, sensor, site, ...) are accepted silently,
// MuJoCo soft-constraint parameters (solref, solimp) give one notice, and a
// feature that changes dynamics and is not implemented stops the load with
// "FILE:LINE: ... is not supported" (or, with MjcfLoadOptions::allow_unsupported,
// is ignored, warned about and listed in Model::ignored_features).
// <option><flag> contact/constraint/gravity/limit/equality="disable" take effect
// at load (contact: no geom collides; limit: joint limits off; equality: the
// equalities dropped; constraint: all three; gravity: zero gravity); the joints
// of maximal coordinates always stay.
// Unnamed bodies, geoms, MJCF joints, actuators and equalities get the implicit
// names body_ID, geom_ID, joint_ID, actuator_ID, equality_ID (a '_' appended
// until unique); file references cannot use them. Structural problems throw MjcfError.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/model.hpp"

namespace contactlab {

// what() is "FILE:LINE: message" (FILE is the path, or the label of a string).
class MjcfError : public std::runtime_error {
 public:
  MjcfError(const std::string& file, int line, const std::string& message);
  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 0 when no line applies
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

struct MjcfLoadOptions {
  // false (the default): a feature that changes dynamics and is not implemented
  // stops the load (MjcfError). true: it is ignored, warned about and listed in
  // Model::ignored_features (io/mjcf_support.cpp classifies every feature).
  bool allow_unsupported = false;
  // The most XML that <include> and <replicate> may expand the model to; a
  // larger expansion is refused at the <replicate>. The fuzz target lowers it
  // so that one input's time stays bounded (docs/testing.md, Fuzzing).
  size_t max_expanded_bytes = size_t(1) << 28;  // 256 MiB
};

// Loads and validates a model. Warnings go to `warnings` when given, else to stderr.
Model load_mjcf_file(const std::string& path, std::vector<std::string>* warnings = nullptr);
Model load_mjcf_file(const std::string& path, const MjcfLoadOptions& options,
                     std::vector<std::string>* warnings = nullptr);
// `label` names the text in messages ("<string>" when empty).
Model load_mjcf_string(const std::string& xml, const std::string& label, std::vector<std::string>* warnings = nullptr);
Model load_mjcf_string(const std::string& xml, const std::string& label, const MjcfLoadOptions& options,
                       std::vector<std::string>* warnings = nullptr);

}  // namespace contactlab
