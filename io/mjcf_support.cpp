// The classification table of MJCF features the reader does not read at its
// call sites. Changing what a feature is = changing its one row here.
#include "io/mjcf_support.hpp"

#include <cctype>
#include <charconv>
#include <cstring>
#include <sstream>
#include <vector>

namespace contactlab {

namespace {

using S = MjcfSupport;

struct Row {
  const char* key;      // element: "parent/name" or "name"; attribute: "element@attr" or "*@attr"
  S support;
  const char* neutral;  // attribute value with no effect (MuJoCo's default), or null
  const char* why;
};

// ---- elements ---------------------------------------------------------------
const Row kElements[] = {
    // top level
    {"asset", S::NoEffect, nullptr, "assets matter only through the geoms that use them"},
    {"visual", S::NoEffect, nullptr, "rendering"},
    {"statistic", S::NoEffect, nullptr, "rendering"},
    {"size", S::NoEffect, nullptr, "MuJoCo memory sizes"},
    {"sensor", S::NoEffect, nullptr, "sensors do not act on the model"},
    {"include", S::Read, nullptr, "spliced before parsing (io/mjcf_include)"},
    {"tendon", S::Read, nullptr, "fixed tendons as rows (core/tendon.hpp); spatial ones refused by the tendon pass"},
    {"tendon/spatial", S::Notice, nullptr, "a spatial tendon with no limit, spring or damper exerts nothing (one with them, or driven, is refused)"},
    {"extension", S::Unsupported, nullptr, "MuJoCo plugins"},
    {"deformable", S::Unsupported, nullptr, "deformable bodies"},
    // body children
    {"site", S::Read, nullptr, "a named point: losses (final:site.NAME.px) and trajectory rows; what refers to it (spatial tendons, site actuators) is refused"},
    {"camera", S::NoEffect, nullptr, "rendering"},
    {"light", S::NoEffect, nullptr, "rendering"},
    {"frame", S::Read, nullptr, "folded into its children (io/mjcf_frames)"},
    {"replicate", S::Read, nullptr, "expanded before parsing (io/mjcf_include)"},
    {"composite", S::Unsupported, nullptr, "composite objects"},
    {"flexcomp", S::Unsupported, nullptr, "flexible objects"},
    {"plugin", S::Unsupported, nullptr, "MuJoCo plugins"},
    {"attach", S::Unsupported, nullptr, "model attachment"},
    // a default only matters where it is used, and there the element is classified
    {"default/*", S::Read, nullptr, "default classes (io/mjcf_defaults)"},
    {"compiler/lengthrange", S::NoEffect, nullptr, "actuator length ranges (muscles are refused)"},
    {"custom/text", S::NoEffect, nullptr, "user data"},
    {"custom/tuple", S::NoEffect, nullptr, "user data"},
    {"contact/pair", S::Unsupported, nullptr, "explicit contact pairs with their own parameters"},
    {"equality/joint", S::Read, nullptr, "polynomial joint coupling as a row (schemes/tendon_rows)"},
    {"equality/tendon", S::Read, nullptr, "tendon coupling as a row (schemes/tendon_rows)"},
    {"equality/distance", S::Unsupported, nullptr, "distance constraint (removed in MuJoCo 2.2.2)"},
    {"equality/flex", S::Unsupported, nullptr, "flex constraint"},
    {"actuator/general", S::Read, nullptr, "mapped onto motor/position/velocity where exact, else refused by the actuator pass"},
    {"actuator/muscle", S::Unsupported, nullptr, "muscles"},
    {"actuator/cylinder", S::Unsupported, nullptr, "pneumatic cylinders"},
    {"actuator/damper", S::Unsupported, nullptr, "active dampers"},
    {"actuator/intvelocity", S::Unsupported, nullptr, "integrated-velocity servos"},
    {"actuator/adhesion", S::Unsupported, nullptr, "adhesion actuators"},
    {"actuator/plugin", S::Unsupported, nullptr, "MuJoCo plugins"},
};

// ---- attributes -----------------------------------------------------------------
const Row kAttributes[] = {
    // any element
    {"*@class", S::Read, nullptr, "default classes (io/mjcf_defaults)"},
    {"*@childclass", S::Read, nullptr, "default classes (io/mjcf_defaults)"},
    {"*@rgba", S::NoEffect, nullptr, "rendering"},
    {"*@material", S::NoEffect, nullptr, "rendering"},
    {"*@group", S::NoEffect, nullptr, "rendering"},
    {"*@user", S::NoEffect, nullptr, "user data"},
    // compiler
    {"compiler@meshdir", S::Read, nullptr, "asset folders"},
    {"compiler@texturedir", S::NoEffect, nullptr, "textures are visual"},
    {"compiler@assetdir", S::Read, nullptr, "asset folders"},
    {"compiler@fitaabb", S::NoEffect, nullptr, "acts only on geoms fitted to meshes, which are refused"},
    {"compiler@convexhull", S::NoEffect, nullptr, "acts only on meshes, which are refused"},
    {"compiler@exactmeshinertia", S::NoEffect, nullptr, "acts only on meshes, which are refused"},
    {"compiler@strippath", S::NoEffect, nullptr, "file names"},
    {"compiler@usethread", S::NoEffect, nullptr, "MuJoCo compile threads"},
    {"compiler@saveinertial", S::NoEffect, nullptr, "MuJoCo XML output"},
    {"compiler@discardvisual", S::NoEffect, "false", "discarding visual-only geoms"},
    {"compiler@balanceinertia", S::Unsupported, "false", "changing inertias"},
    {"compiler@inertiagrouprange", S::Unsupported, "0 5", "geom groups that give no mass"},
    {"compiler@fusestatic", S::Unsupported, "false", "fusing static bodies"},
    {"compiler@alignfree", S::Unsupported, "false", "moving free bodies' frames to their inertial frames"},
    // option
    {"option@wind", S::Unsupported, "0 0 0", "fluid forces"},
    {"option@magnetic", S::NoEffect, nullptr, "magnetometer sensors only"},
    {"option@o_margin", S::NoEffect, nullptr, "used only with flag override, which is refused"},
    {"option@o_solref", S::NoEffect, nullptr, "used only with flag override, which is refused"},
    {"option@o_solimp", S::NoEffect, nullptr, "used only with flag override, which is refused"},
    {"option@o_friction", S::NoEffect, nullptr, "used only with flag override, which is refused"},
    {"option@cone", S::Notice, "pyramidal", "MuJoCo's friction cone discretisation: contactlab's contact law sets the cone"},
    {"option@impratio", S::Notice, "1", "MuJoCo soft-contact parameter: ignored by hard-contact laws"},
    {"option@jacobian", S::NoEffect, nullptr, "MuJoCo solver setting: contactlab's solver is --solver"},
    {"option@solver", S::NoEffect, nullptr, "MuJoCo solver setting: contactlab's solver is --solver"},
    {"option@iterations", S::NoEffect, nullptr, "MuJoCo solver setting: contactlab's solver is --solver"},
    {"option@tolerance", S::NoEffect, nullptr, "MuJoCo solver setting: contactlab's solver is --solver"},
    {"option@ls_iterations", S::NoEffect, nullptr, "MuJoCo solver setting"},
    {"option@ls_tolerance", S::NoEffect, nullptr, "MuJoCo solver setting"},
    {"option@noslip_iterations", S::NoEffect, nullptr, "MuJoCo solver setting"},
    {"option@noslip_tolerance", S::NoEffect, nullptr, "MuJoCo solver setting"},
    {"option@mpr_iterations", S::NoEffect, nullptr, "MuJoCo collision setting"},
    {"option@mpr_tolerance", S::NoEffect, nullptr, "MuJoCo collision setting"},
    {"option@ccd_iterations", S::NoEffect, nullptr, "MuJoCo collision setting"},
    {"option@ccd_tolerance", S::NoEffect, nullptr, "MuJoCo collision setting"},
    {"option@sdf_iterations", S::NoEffect, nullptr, "MuJoCo collision setting"},
    {"option@sdf_initpoints", S::NoEffect, nullptr, "MuJoCo collision setting"},
    {"option@actuatorgroupdisable", S::Unsupported, nullptr, "disabling actuator groups"},
    {"option@apirate", S::NoEffect, nullptr, "MuJoCo remote API"},
    {"option@collision", S::Unsupported, "all", "restricting collisions to pairs or dynamic geoms"},
    // option/flag: MuJoCo's defaults are neutral; what contactlab applies is read in io/mjcf.cpp
    {"flag@frictionloss", S::Unsupported, "enable", "frictionloss flag"},
    {"flag@passive", S::Unsupported, "enable", "passive-force flag"},
    {"flag@actuation", S::Unsupported, "enable", "actuation flag"},
    {"flag@clampctrl", S::Unsupported, "enable", "control clamping flag"},
    {"flag@warmstart", S::NoEffect, nullptr, "MuJoCo solver setting"},
    {"flag@filterparent", S::Unsupported, "enable", "parent-child contact filtering flag"},
    {"flag@refsafe", S::NoEffect, nullptr, "MuJoCo soft-contact setting"},
    {"flag@sensor", S::NoEffect, nullptr, "sensors"},
    {"flag@midphase", S::NoEffect, nullptr, "MuJoCo collision setting"},
    {"flag@eulerdamp", S::NoEffect, nullptr, "MuJoCo's Euler integrator"},
    {"flag@override", S::Unsupported, "disable", "contact parameter override"},
    {"flag@energy", S::NoEffect, nullptr, "MuJoCo energy computation"},
    {"flag@fwdinv", S::NoEffect, nullptr, "MuJoCo inverse dynamics check"},
    {"flag@invdiscrete", S::NoEffect, nullptr, "MuJoCo inverse dynamics"},
    {"flag@sensornoise", S::NoEffect, nullptr, "sensors"},
    {"flag@multiccd", S::NoEffect, nullptr, "MuJoCo collision setting"},
    {"flag@island", S::NoEffect, nullptr, "MuJoCo solver setting"},
    {"flag@nativeccd", S::NoEffect, nullptr, "MuJoCo collision setting"},
    {"flag@autoreset", S::NoEffect, nullptr, "MuJoCo simulate setting"},
    // body
    {"body@mocap", S::Unsupported, "false", "mocap bodies"},
    {"body@gravcomp", S::Unsupported, "0", "gravity compensation"},
    // inertial: nothing else
    // geom
    {"geom@solref", S::Notice, nullptr, "MuJoCo soft-contact parameter: ignored by hard-contact laws"},
    {"geom@solimp", S::Notice, nullptr, "MuJoCo soft-contact parameter: ignored by hard-contact laws"},
    {"geom@solmix", S::Notice, nullptr, "MuJoCo soft-contact parameter: ignored by hard-contact laws"},
    {"geom@fluidshape", S::Unsupported, "none", "fluid forces"},
    {"geom@fluidcoef", S::NoEffect, nullptr, "used only with fluidshape, which is refused"},
    {"geom@shellinertia", S::Unsupported, "false", "shell inertia"},
    {"geom@fitscale", S::NoEffect, nullptr, "acts only on geoms fitted to meshes, which are refused"},
    {"geom@mesh", S::Read, nullptr, "geom type mesh: its convex hull"},
    {"geom@hfield", S::Read, nullptr, "geom type hfield: static terrain (geometry/collide_hfield.cpp)"},
    // joint
    {"joint@stiffness", S::Read, nullptr, "joint springs (in the servo row)"},
    {"joint@springref", S::Read, nullptr, "joint spring reference"},
    {"joint@springdamper", S::Unsupported, "0 0", "joint spring-dampers (not implemented)"},
    {"joint@frictionloss", S::Unsupported, "0", "joint dry friction (not implemented)"},
    {"joint@margin", S::Unsupported, "0", "joint limit margin (not implemented)"},
    {"joint@actuatorfrcrange", S::Unsupported, nullptr, "actuator force clamping at the joint"},
    {"joint@actuatorfrclimited", S::Unsupported, "false", "actuator force clamping at the joint"},
    {"joint@actuatorgravcomp", S::Unsupported, "false", "gravity compensation through actuators"},
    {"joint@solreflimit", S::Notice, nullptr, "MuJoCo soft-limit parameter: ignored by hard limits"},
    {"joint@solimplimit", S::Notice, nullptr, "MuJoCo soft-limit parameter: ignored by hard limits"},
    {"joint@solreffriction", S::Notice, nullptr, "MuJoCo soft-friction parameter"},
    {"joint@solimpfriction", S::Notice, nullptr, "MuJoCo soft-friction parameter"},
    // actuators
    {"*@forcerange", S::Unsupported, nullptr, "actuator force clamping (not implemented)"},
    {"*@forcelimited", S::Unsupported, "false", "actuator force clamping (not implemented)"},
    {"*@actrange", S::Unsupported, nullptr, "actuator activation range"},
    {"*@actlimited", S::Unsupported, "false", "actuator activation range"},
    {"*@lengthrange", S::NoEffect, nullptr, "used by muscles only, which are refused"},
    {"*@cranklength", S::NoEffect, nullptr, "used only with slider-crank transmissions, which are refused"},
    {"*@dampratio", S::Unsupported, nullptr, "position-servo damping ratio (not implemented)"},
    {"*@timeconst", S::Unsupported, "0", "actuator activation dynamics"},
    {"*@inheritrange", S::Unsupported, "0", "ranges taken from the joint"},
    // equality
    {"connect@active", S::Unsupported, "true", "inactive equality constraints"},
    {"weld@active", S::Unsupported, "true", "inactive equality constraints"},
    {"connect@solref", S::Notice, nullptr, "MuJoCo soft-constraint parameter: ignored by hard constraints"},
    {"connect@solimp", S::Notice, nullptr, "MuJoCo soft-constraint parameter: ignored by hard constraints"},
    {"weld@solref", S::Notice, nullptr, "MuJoCo soft-constraint parameter: ignored by hard constraints"},
    {"weld@solimp", S::Notice, nullptr, "MuJoCo soft-constraint parameter: ignored by hard constraints"},
    {"weld@torquescale", S::Unsupported, "1", "weld torque scaling"},
    {"connect@site1", S::Unsupported, nullptr, "site-based equality constraints"},
    {"connect@site2", S::Unsupported, nullptr, "site-based equality constraints"},
    {"weld@site1", S::Unsupported, nullptr, "site-based equality constraints"},
    {"weld@site2", S::Unsupported, nullptr, "site-based equality constraints"},
    // keyframe
    {"key@time", S::Unsupported, "0", "keyframe start time"},
    {"key@ctrl", S::Unsupported, nullptr, "keyframe controls (use contactlab.ctrl schedules or --ctrl)"},
    {"key@act", S::Unsupported, nullptr, "keyframe actuator activations"},
    {"key@mpos", S::Unsupported, nullptr, "mocap bodies"},
    {"key@mquat", S::Unsupported, nullptr, "mocap bodies"},
};

// Same numbers (or same words) token by token: "0 0" equals "0.0 0".
bool same_value(const std::string& value, const char* neutral) {
  std::istringstream a(value), b(neutral);
  std::string x, y;
  while (true) {
    const bool more_a = static_cast<bool>(a >> x), more_b = static_cast<bool>(b >> y);
    if (more_a != more_b) return false;
    if (!more_a) return true;
    double u = 0, v = 0;
    const auto ru = std::from_chars(x.data(), x.data() + x.size(), u);
    const auto rv = std::from_chars(y.data(), y.data() + y.size(), v);
    const bool nu = ru.ec == std::errc() && ru.ptr == x.data() + x.size();
    const bool nv = rv.ec == std::errc() && rv.ptr == y.data() + y.size();
    if (nu && nv ? u != v : x != y) return false;
  }
}

const Row* find(const Row* begin, const Row* end, const std::string& key) {
  for (const Row* r = begin; r != end; ++r)
    if (key == r->key) return r;
  return nullptr;
}

}  // namespace

MjcfVerdict classify_mjcf_element(const std::string& parent, const std::string& name) {
  const Row* row = find(std::begin(kElements), std::end(kElements), parent + "/" + name);
  if (!row) row = find(std::begin(kElements), std::end(kElements), parent + "/*");
  if (!row) row = find(std::begin(kElements), std::end(kElements), name);
  if (!row) return {MjcfSupport::Unsupported, "not in contactlab's MJCF subset"};
  return {row->support, row->why};
}

MjcfVerdict classify_mjcf_attribute(const std::string& element, const std::string& attribute,
                                    const std::string& value) {
  const Row* row = find(std::begin(kAttributes), std::end(kAttributes), element + "@" + attribute);
  if (!row) row = find(std::begin(kAttributes), std::end(kAttributes), "*@" + attribute);
  if (!row) return {MjcfSupport::Unsupported, "not in contactlab's MJCF subset"};
  if (row->neutral && same_value(value, row->neutral)) return {MjcfSupport::NoEffect, row->why};
  return {row->support, row->why};
}

}  // namespace contactlab
