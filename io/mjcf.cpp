// MJCF reader: XML (tinyxml2) -> Model. See mjcf.hpp for the subset and the
// conventions. The document is read in passes so that element order does not
// matter, as in MuJoCo: compiler/option/default, then the body tree, then the
// sections that refer to bodies, joints and actuators by name.
#include "io/mjcf.hpp"
#include "io/mjcf_xml.hpp"

#include <tinyxml2.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "core/compound_joint.hpp"
#include "core/model_limits.hpp"
#include "geometry/pair_filter.hpp"
#include "io/mass_properties.hpp"
#include "io/hfield_io.hpp"
#include "io/mjcf_assets.hpp"
#include "io/mjcf_contact_params.hpp"
#include "io/mjcf_flags.hpp"
#include "io/mjcf_names.hpp"
#include "io/mjcf_support.hpp"
#include "io/mjcf_defaults.hpp"
#include "io/mjcf_frames.hpp"
#include "io/mjcf_include.hpp"

namespace contactlab {

namespace {

std::string format_error(const std::string& file, int line, const std::string& message) {
  if (line > 0) return file + ":" + std::to_string(line) + ": " + message;
  return file + ": " + message;
}

}  // namespace

MjcfError::MjcfError(const std::string& file, int line, const std::string& message)
    : std::runtime_error(format_error(file, line, message)), file_(file), line_(line), message_(message) {}

namespace {

using tinyxml2::XMLAttribute;
using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;

std::string num(Real v) {
  std::ostringstream s;
  s.precision(10);
  s << v;
  return s.str();
}

using mjcf_xml::is;

// An attribute found on an element (or on the default that supplies it).
struct Attr {
  const char* name = nullptr;
  std::string tag;              // element it was found on, for messages
  const char* value = nullptr;  // null: absent
  int line = 0;
  explicit operator bool() const { return value != nullptr; }
};

struct Frame {
  Vec3 pos = Vec3::Zero();
  Quat quat = Quat::Identity();
};

// Minimal rotation taking +z onto the unit vector v, as MuJoCo (a half turn
// about x when v = -z).
Quat z_to(const Vec3& v) {
  Vec3 axis = Vec3::UnitZ().cross(v);
  const Real s = axis.norm();
  if (s < 1e-10) {
    axis = Vec3::UnitX();
  } else {
    axis /= s;
  }
  const Real angle = std::atan2(s, v.z());
  return Quat(Eigen::AngleAxis<Real>(angle, axis));
}

const char* const kGeomTypes[] = {"plane", "sphere", "box", "capsule", "cylinder", "mesh", "hfield"};
const GeomType kGeomTypeValues[] = {GeomType::Plane,    GeomType::Sphere, GeomType::Box,   GeomType::Capsule,
                                    GeomType::Cylinder, GeomType::Mesh,   GeomType::HField};

class Parser {
 public:
  Parser(const MjcfSource& source, std::vector<std::string>* warnings, const MjcfLoadOptions& options)
      : source_(source), defaults_(source), file_(source.files[0]), warnings_(warnings), options_(options) {}

  Model parse(const std::string& xml) {
    check_text(xml);
    XMLDocument doc;
    if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) {
      // ErrorStr() repeats the id and line; keep only its detail ("XMLElement name=geom").
      const std::string full = doc.ErrorStr() ? doc.ErrorStr() : "";
      const size_t at = full.find(": ", full.find("Line number="));
      const std::string detail = at == std::string::npos ? "" : ": " + full.substr(at + 2);
      fail(doc.ErrorLineNum(), std::string("XML parse error ") + doc.ErrorName() + detail);
    }
    XMLElement* root = doc.RootElement();
    if (!root) fail(0, "no root element (expected <mujoco>)");
    if (!is(root, "mujoco"))
      fail(root->GetLineNum(), std::string("root element is <") + root->Name() + ">, expected <mujoco>");
    check_attributes(root, {"model"});
    defaults_.read(root);
    model_.source_file = file_;
    const Attr name = attr(root, "model");
    model_.name = name ? name.value : "";

    for (const XMLElement* el = root->FirstChildElement(); el; el = el->NextSiblingElement()) {
      if (is(el, "compiler"))
        parse_compiler(el);
      else if (is(el, "option"))
        parse_option(el);
    }
    for (const XMLElement* el = root->FirstChildElement("asset"); el; el = el->NextSiblingElement("asset"))
      parse_asset(el);
    // After compiler (angle, eulerseq) and the default classes: frames take both.
    fold_mjcf_frames(root, source_, [this](const XMLElement* el) {
      const Attr pos = attr(el, "pos");
      return MjcfPose{vec3(pos), orientation(el)};
    });
    for (const XMLElement* el = root->FirstChildElement("worldbody"); el; el = el->NextSiblingElement("worldbody"))
      parse_worldbody(el);
    apply_total_mass();
    // Internal welds go after the MJCF joints so that joint ids match MuJoCo's.
    model_.joints.insert(model_.joints.end(), welds_.begin(), welds_.end());
    for (const XMLElement* el = root->FirstChildElement("tendon"); el; el = el->NextSiblingElement("tendon"))
      parse_tendon_section(el);
    for (const XMLElement* el = root->FirstChildElement(); el; el = el->NextSiblingElement()) {
      if (is(el, "contact"))
        parse_contact(el);
      else if (is(el, "equality"))
        parse_equality(el);
      else if (is(el, "actuator"))
        parse_actuator_section(el);
    }
    for (const XMLElement* el = root->FirstChildElement("custom"); el; el = el->NextSiblingElement("custom"))
      parse_custom(el);
    for (const XMLElement* el = root->FirstChildElement("keyframe"); el; el = el->NextSiblingElement("keyframe"))
      parse_keyframes(el);
    static const char* const known[] = {"compiler", "option", "default", "worldbody", "contact",
                                        "equality", "actuator", "custom", "keyframe", "tendon"};
    for (const XMLElement* el = root->FirstChildElement(); el; el = el->NextSiblingElement()) {
      if (std::none_of(std::begin(known), std::end(known), [&](const char* k) { return is(el, k); }))
        ignore_element(el);
    }

    int contact_line = 0;
    const std::string contact_why = apply_condim_and_priority(model_, contact_settings_, &contact_line);
    if (!contact_why.empty())
      apply_verdict({MjcfSupport::Unsupported, contact_why.c_str()}, contact_line, "geom condim/priority",
                    "geom@condim-priority");
    apply_mjcf_flags(flags_, model_);
    name_unnamed(model_);
    try {
      model_.validate();
      check_pairs_supported(model_);
    } catch (const std::invalid_argument& e) {
      fail(root->GetLineNum(), e.what());
    }
    return std::move(model_);
  }

 private:
  // ---- messages ------------------------------------------------------------

  // `line` is a line of the merged text (includes spliced): report the file and line it came from.
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw MjcfError(source_.file_of(line), source_.line_of(line), message);
  }

  void warn(int line, const std::string& message) {
    const std::string text = format_error(source_.file_of(line), source_.line_of(line), message);
    if (warnings_) {
      warnings_->push_back(text);
    } else {
      std::cerr << "warning: " << text << "\n";
    }
  }

  // An element no parse section reads: io/mjcf_support.cpp says what it is.
  void ignore_element(const XMLElement* el) {
    const XMLElement* up = el->Parent() ? el->Parent()->ToElement() : nullptr;
    const std::string parent = up ? up->Name() : "";
    const MjcfVerdict v = classify_mjcf_element(parent, el->Name());
    const std::string what = std::string("element <") + el->Name() + ">" + (up ? " in <" + parent + ">" : "");
    apply_verdict(v, el->GetLineNum(), what, std::string("<") + parent + "/" + el->Name());
  }

  // Checks the element's own attributes and those its default classes give it;
  // attributes outside `supported` (what the caller reads) are classified by io/mjcf_support.cpp.
  void check_attributes(const XMLElement* el, std::initializer_list<const char*> supported) {
    std::vector<const XMLAttribute*> all;
    for (const XMLAttribute* a = el->FirstAttribute(); a; a = a->Next()) all.push_back(a);
    const std::vector<const XMLAttribute*> inherited = defaults_.inherited(el);
    all.insert(all.end(), inherited.begin(), inherited.end());
    const bool takes_class = !MjcfDefaults::kind_of(el).empty();
    const bool takes_childclass = is(el, "body") || is(el, "frame");
    for (const XMLAttribute* a : all) {
      const bool ok = std::any_of(supported.begin(), supported.end(),
                                  [&](const char* s) { return std::strcmp(s, a->Name()) == 0; });
      if (ok) continue;
      if (takes_class && std::strcmp(a->Name(), "class") == 0) continue;            // io/mjcf_defaults
      if (takes_childclass && std::strcmp(a->Name(), "childclass") == 0) continue;  // io/mjcf_defaults
      const MjcfVerdict v = classify_mjcf_attribute(el->Name(), a->Name(), a->Value());
      // MuJoCo's soft-constraint numbers (solref, solimp, solmix, impratio): checked to be numbers.
      const bool numeric = std::strncmp(a->Name(), "sol", 3) == 0 || std::strcmp(a->Name(), "impratio") == 0;
      if (v.support == MjcfSupport::Notice && numeric) {
        Attr read;
        read.name = a->Name();
        read.tag = el->Name();
        read.value = a->Value();
        read.line = a->GetLineNum();
        reals(read);  // read: a malformed number is an error even when the law ignores it
      }
      const std::string what = std::string("attribute '") + a->Name() + "' of <" + el->Name() + ">";
      apply_verdict(v, a->GetLineNum(), what, std::string(el->Name()) + "@" + a->Name());
    }
  }

  // Notice: one warning per feature. Unsupported: an error, or with
  // allow_unsupported one warning and one entry in Model::ignored_features per feature.
  void apply_verdict(const MjcfVerdict& v, int line, const std::string& what, const std::string& key) {
    if (v.support == MjcfSupport::Read || v.support == MjcfSupport::NoEffect) return;
    if (v.support == MjcfSupport::Notice) {
      if (warned_.insert(key).second) warn(line, what + " is read but has no effect: " + v.why);
      return;
    }
    if (!options_.allow_unsupported)
      fail(line, what + " is not supported (" + v.why +
                     "); load with allow_unsupported (--allow-unsupported) to run without it");
    if (warned_.insert(key).second) {
      warn(line, "ignoring " + what + " (" + v.why + "): the model runs without it");
      model_.ignored_features.push_back(format_error(source_.file_of(line), source_.line_of(line), what));
    }
  }

  static std::string describe(const XMLElement* el) {
    const char* name = el->Attribute("name");
    std::string s = std::string("<") + el->Name() + ">";
    if (name && *name) s += std::string(" '") + name + "'";
    return s;
  }

  // A file that is not text (NUL bytes, a binary format) or does not start
  // with '<' is not XML at all: say so instead of tinyxml2's error name.
  void check_text(const std::string& xml) const {
    size_t start = xml.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // UTF-8 byte order mark
    while (start < xml.size() && std::isspace(static_cast<unsigned char>(xml[start]))) ++start;
    if (start == xml.size()) fail(0, "empty file: not an MJCF document (expected <mujoco>)");
    if (xml.find('\0') != std::string::npos || xml[start] != '<')
      fail(0, "not an XML file (binary data, or text that does not start with '<'): expected an MJCF <mujoco> "
              "document");
  }

  // ---- attribute values ----------------------------------------------------

  // The bounds of core/model_limits.hpp, checked at the attribute that gave
  // the value (the one helper every magnitude check of this reader goes through).
  Real bounded(const Attr& a, Real v, const Range& r) const {
    const std::string why = range_violation(r, v);
    if (!why.empty()) fail(a.line, where(a) + " " + why);
    return v;
  }
  Vec3 bounded(const Attr& a, const Vec3& v, const Range& r) const {
    for (int i = 0; i < 3; ++i) bounded_entry(a, i, v[i], r);
    return v;
  }
  const std::vector<Real>& bounded(const Attr& a, const std::vector<Real>& v, const Range& r) const {
    for (size_t i = 0; i < v.size(); ++i) bounded_entry(a, static_cast<int>(i), v[i], r);
    return v;
  }
  void bounded_entry(const Attr& a, int i, Real v, const Range& r) const {
    const std::string why = range_violation(r, v);
    if (!why.empty()) fail(a.line, where(a) + " [" + std::to_string(i) + "] " + why);
  }

  // Looks the attribute up on the element, then in its default classes
  // (io/mjcf_defaults.hpp: class, childclass, nested classes, "main").
  Attr attr(const XMLElement* el, const char* name) const {
    const XMLAttribute* a = el->FindAttribute(name);
    if (!a) a = defaults_.find(el, name);
    if (a) {
      Attr out;
      out.name = name;
      out.tag = el->Name();
      out.value = a->Value();
      out.line = a->GetLineNum() > 0 ? a->GetLineNum() : el->GetLineNum();  // 0: written by frame folding
      return out;
    }
    Attr none;
    none.name = name;
    none.tag = el->Name();
    none.line = el->GetLineNum();
    return none;
  }

  std::string where(const Attr& a) const { return std::string("attribute '") + a.name + "' of <" + a.tag + ">"; }

  Attr require(const XMLElement* el, const char* name) const {
    Attr a = attr(el, name);
    if (!a) fail(el->GetLineNum(), describe(el) + " needs attribute '" + name + "'");
    return a;
  }

  std::vector<Real> reals(const Attr& a) const {
    std::vector<Real> out;
    const char* p = a.value;
    while (true) {
      while (*p && std::isspace(static_cast<unsigned char>(*p))) ++p;
      if (!*p) break;
      const char* start = p;
      while (*p && !std::isspace(static_cast<unsigned char>(*p))) ++p;
      const std::string token(start, p);
      const char* s = (*start == '+') ? start + 1 : start;
      double v = 0;
      const auto result = std::from_chars(s, p, v);
      if (result.ec == std::errc::result_out_of_range) fail(a.line, where(a) + ": '" + token + "' is out of range");
      if (result.ec != std::errc() || result.ptr != p) fail(a.line, where(a) + ": '" + token + "' is not a number");
      if (!std::isfinite(v)) fail(a.line, where(a) + ": non-finite value '" + token + "'");
      out.push_back(v);
    }
    return out;
  }

  std::vector<Real> reals(const Attr& a, size_t lo, size_t hi) const {
    std::vector<Real> v = reals(a);
    if (v.size() < lo || v.size() > hi) {
      const std::string need = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
      fail(a.line, where(a) + " needs " + need + " numbers, got " + std::to_string(v.size()));
    }
    return v;
  }

  Real real(const Attr& a) const { return reals(a, 1, 1)[0]; }
  Real real(const Attr& a, Real fallback) const { return a ? real(a) : fallback; }

  Real nonnegative(const Attr& a, Real fallback) const {
    const Real v = real(a, fallback);
    if (v < 0) fail(a.line, where(a) + " must be >= 0, got " + num(v));
    return v;
  }

  Vec3 vec3(const Attr& a, const Vec3& fallback = Vec3::Zero()) const {
    if (!a) return fallback;
    const std::vector<Real> v = reals(a, 3, 3);
    return Vec3(v[0], v[1], v[2]);
  }

  int integer(const Attr& a, int fallback) const {
    if (!a) return fallback;
    const char* s = a.value;
    while (std::isspace(static_cast<unsigned char>(*s))) ++s;
    const char* end = s + std::strlen(s);
    while (end > s && std::isspace(static_cast<unsigned char>(end[-1]))) --end;
    int v = 0;
    const auto result = std::from_chars(s, end, v);
    if (result.ec != std::errc() || result.ptr != end || s == end)
      fail(a.line, where(a) + ": '" + a.value + "' is not an integer");
    return v;
  }

  int bitmask(const Attr& a) const {
    const int v = integer(a, 1);
    if (v < 0) fail(a.line, where(a) + " must be >= 0, got " + std::to_string(v));
    return v;
  }

  int keyword(const Attr& a, std::initializer_list<const char*> choices) const {
    int i = 0;
    std::string list;
    for (const char* c : choices) {
      if (std::strcmp(a.value, c) == 0) return i;
      list += (i ? ", " : "") + std::string(c);
      ++i;
    }
    fail(a.line, where(a) + ": unknown value '" + a.value + "' (expected " + list + ")");
  }

  bool boolean(const Attr& a, bool fallback) const {
    if (!a) return fallback;
    return keyword(a, {"false", "true"}) == 1;
  }

  // limited / ctrllimited: explicit true/false wins; absent or "auto" means
  // "limited when a range is given" (compiler autolimits).
  bool limited(const Attr& flag, bool has_range) const {
    if (!flag) return compiler_autolimits_ && has_range;
    const int k = keyword(flag, {"false", "true", "auto"});
    return k == 2 ? has_range : k == 1;
  }

  Real angle_scale() const { return compiler_degrees_ ? kPi / 180.0 : 1.0; }

  // Orientation from quat | axisangle | euler | xyaxes | zaxis (at most one), as MuJoCo.
  Quat orientation(const XMLElement* el) const {
    const Attr q = attr(el, "quat"), aa = attr(el, "axisangle"), eu = attr(el, "euler"), xy = attr(el, "xyaxes"),
               za = attr(el, "zaxis");
    const int count = int(bool(q)) + int(bool(aa)) + int(bool(eu)) + int(bool(xy)) + int(bool(za));
    if (count > 1)
      fail(el->GetLineNum(), describe(el) + " has more than one orientation (quat, axisangle, euler, xyaxes, zaxis)");
    if (q) {
      const std::vector<Real> v = reals(q, 4, 4);
      Quat out(v[0], v[1], v[2], v[3]);
      if (out.norm() < 1e-10) fail(q.line, where(q) + ": zero quaternion");
      return out.normalized();
    }
    if (aa) {
      const std::vector<Real> v = reals(aa, 4, 4);
      Vec3 axis(v[0], v[1], v[2]);
      if (axis.norm() < 1e-10) fail(aa.line, where(aa) + ": zero axis");
      return Quat(Eigen::AngleAxis<Real>(v[3] * angle_scale(), axis.normalized()));
    }
    if (eu) {
      const std::vector<Real> v = reals(eu, 3, 3);
      Quat out = Quat::Identity();
      for (int i = 0; i < 3; ++i) {
        const char c = compiler_eulerseq_[i];
        const int k = std::tolower(static_cast<unsigned char>(c)) - 'x';
        const Quat r(Eigen::AngleAxis<Real>(v[i] * angle_scale(), Vec3::Unit(k)));
        // Lowercase: intrinsic (rotating axes, post-multiply); uppercase: extrinsic.
        out = std::islower(static_cast<unsigned char>(c)) ? out * r : r * out;
      }
      return out.normalized();
    }
    if (xy) {
      const std::vector<Real> v = reals(xy, 6, 6);
      Vec3 x(v[0], v[1], v[2]), y(v[3], v[4], v[5]);
      if (x.norm() < 1e-10) fail(xy.line, where(xy) + ": zero x axis");
      x.normalize();
      y -= x * x.dot(y);
      if (y.norm() < 1e-10) fail(xy.line, where(xy) + ": y axis parallel to x axis");
      y.normalize();
      Mat3 R;
      R.col(0) = x;
      R.col(1) = y;
      R.col(2) = x.cross(y);
      return Quat(R).normalized();
    }
    if (za) {
      const Vec3 z = vec3(za);
      if (z.norm() < 1e-10) fail(za.line, where(za) + ": zero axis");
      return z_to(z.normalized());
    }
    return Quat::Identity();
  }

  // ---- names ---------------------------------------------------------------

  void register_name(std::map<std::string, int>& names, const XMLElement* el, int id, const char* kind) {
    const Attr a = attr(el, "name");
    if (!a || !*a.value) return;
    const std::string name = a.value;
    if (std::strcmp(kind, "body") == 0 && name == "world")
      fail(a.line, "body name 'world' is reserved for the world body");
    const auto it = names.find(name);
    if (it != names.end()) fail(a.line, std::string("duplicate ") + kind + " name '" + name + "'");
    names[name] = id;
  }

  // Body by name; "world" is the world body (-1).
  int body_ref(const Attr& a) const {
    if (std::strcmp(a.value, "world") == 0) return -1;
    const auto it = body_names_.find(a.value);
    if (it == body_names_.end()) fail(a.line, where(a) + ": unknown body '" + a.value + "'");
    return it->second;
  }

  Frame body_frame0(int b) const {
    Frame f;
    if (b >= 0) {
      f.pos = model_.bodies[b].pos0_W;
      f.quat = model_.bodies[b].quat0_WB;
    }
    return f;
  }

  // ---- top-level settings --------------------------------------------------

  void parse_compiler(const XMLElement* el) {
    check_attributes(el, {"angle", "eulerseq", "autolimits", "inertiafromgeom", "coordinate", "boundmass",
                          "boundinertia", "meshdir", "assetdir", "settotalmass"});
    if (const Attr a = attr(el, "boundmass")) bound_mass_ = bounded(a, nonnegative(a, 0), limits::kMassValue);
    if (const Attr a = attr(el, "settotalmass")) {  // > 0: on; MuJoCo's default -1 (and any value <= 0): off
      total_mass_ = reals(a, 1, 1)[0];
      if (total_mass_ > 0) bounded(a, total_mass_, limits::kMassValue);
      total_mass_line_ = a.line;
    }
    if (const Attr a = attr(el, "boundinertia")) bound_inertia_ = bounded(a, nonnegative(a, 0), limits::kInertia);
    if (const Attr a = attr(el, "meshdir")) mesh_dir_ = a.value;
    if (const Attr a = attr(el, "assetdir")) asset_dir_ = a.value;
    if (const Attr a = attr(el, "angle")) compiler_degrees_ = keyword(a, {"radian", "degree"}) == 1;
    if (const Attr a = attr(el, "eulerseq")) {
      const std::string seq = a.value;
      const bool ok = seq.size() == 3 &&
                      std::all_of(seq.begin(), seq.end(), [](char c) { return std::strchr("xyzXYZ", c) != nullptr; });
      if (!ok) fail(a.line, where(a) + ": '" + seq + "' is not a sequence of three of x, y, z, X, Y, Z");
      compiler_eulerseq_ = seq;
    }
    compiler_autolimits_ = boolean(attr(el, "autolimits"), compiler_autolimits_);
    if (const Attr a = attr(el, "inertiafromgeom")) inertia_from_geom_ = keyword(a, {"false", "true", "auto"});
    if (const Attr a = attr(el, "coordinate")) {
      if (keyword(a, {"local", "global"}) == 1) fail(a.line, "compiler coordinate=\"global\" is not supported");
    }
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) ignore_element(c);
  }

  void parse_option(const XMLElement* el) {
    check_attributes(el, {"timestep", "gravity", "integrator", "density", "viscosity"});
    // The medium of MuJoCo's inertia-box fluid model (schemes/fluid_forces.hpp).
    if (const Attr a = attr(el, "density"))
      model_.options.density = bounded(a, nonnegative(a, 0), Range{0, 1e6, false, "kg/m^3"});
    if (const Attr a = attr(el, "viscosity"))
      model_.options.viscosity = bounded(a, nonnegative(a, 0), Range{0, 1e6, false, "Pa s"});
    // MuJoCo's integrator is MuJoCo's (the peer engine uses it); contactlab's
    // scheme is chosen with --scheme. Validated so a typo is not silently MuJoCo's Euler.
    if (const Attr a = attr(el, "integrator")) keyword(a, {"Euler", "RK4", "implicit", "implicitfast"});
    if (const Attr a = attr(el, "timestep")) {
      const Real h = real(a);
      if (!(h > 0)) fail(a.line, where(a) + " must be > 0, got " + num(h));
      model_.options.timestep = bounded(a, h, limits::kTimeStep);
    }
    if (const Attr g = attr(el, "gravity")) model_.options.gravity = bounded(g, vec3(g), limits::kGravity);
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (is(c, "flag"))
        parse_flag(c);
      else
        ignore_element(c);
    }
  }

  // The flags contactlab applies (io/mjcf_flags.hpp); the others are classified by io/mjcf_support.cpp.
  void parse_flag(const XMLElement* el) {
    check_attributes(el, {"contact", "constraint", "gravity", "limit", "equality"});
    const auto enabled = [&](const char* name, bool fallback) {
      const Attr a = attr(el, name);
      return a ? keyword(a, {"disable", "enable"}) == 1 : fallback;
    };
    flags_.contact = enabled("contact", flags_.contact);
    flags_.constraint = enabled("constraint", flags_.constraint);
    flags_.gravity = enabled("gravity", flags_.gravity);
    flags_.limit = enabled("limit", flags_.limit);
    flags_.equality = enabled("equality", flags_.equality);
  }

  // ---- body tree -----------------------------------------------------------

  void parse_worldbody(const XMLElement* el) {
    check_attributes(el, {});
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (is(c, "geom"))
        parse_geom(c, -1, nullptr);
      else if (is(c, "site"))
        parse_site(c, -1);
      else if (is(c, "joint") || is(c, "freejoint") || is(c, "inertial"))
        fail(c->GetLineNum(), std::string("<") + c->Name() + "> is not allowed in <worldbody>");
      else if (!is(c, "body"))
        ignore_element(c);
    }
    for (const XMLElement* c = el->FirstChildElement("body"); c; c = c->NextSiblingElement("body"))
      parse_body(c, -1, Frame(), true);
  }

  void parse_body(const XMLElement* el, int parent, const Frame& parent_W, bool parent_fixed) {
    check_attributes(el, {"name", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis"});
    const int id = static_cast<int>(model_.bodies.size());
    register_name(body_names_, el, id, "body");
    Body body;
    body.name = attr(el, "name") ? attr(el, "name").value : "";
    body.parent = parent;
    const Attr pos = attr(el, "pos");
    body.pos0_W = parent_W.pos + parent_W.quat * bounded(pos, vec3(pos), limits::kPosition);
    body.quat0_WB = (parent_W.quat * orientation(el)).normalized();
    model_.bodies.push_back(body);
    const Frame self{body.pos0_W, body.quat0_WB};
    const std::string label = describe(el);

    std::vector<const XMLElement*> joints, geoms, sites, inertials, children;
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (is(c, "joint") || is(c, "freejoint"))
        joints.push_back(c);
      else if (is(c, "geom"))
        geoms.push_back(c);
      else if (is(c, "site"))
        sites.push_back(c);
      else if (is(c, "inertial"))
        inertials.push_back(c);
      else if (is(c, "body"))
        children.push_back(c);
      else
        ignore_element(c);
    }
    if (inertials.size() > 1) fail(inertials[1]->GetLineNum(), label + " has more than one <inertial>");
    bool fixed = false;
    if (!joints.empty()) {
      // Several joints: a compound joint in MuJoCo's order (core/compound_joint.hpp).
      for (const XMLElement* jel : joints) parse_joint(jel, id, parent, parent_W, self);
      if (joints.size() > 1) {
        const int first = static_cast<int>(model_.joints.size() - joints.size());
        const std::string why = compound_unsupported(model_, {first, static_cast<int>(joints.size())});
        if (!why.empty()) fail(joints[1]->GetLineNum(), label + ": " + why);
      }
    } else if (parent_fixed) {
      fixed = true;
    } else {
      // Rigidly attached to a moving parent: an internal weld.
      Joint w;
      w.type = JointType::Weld;
      w.body = id;
      w.parent = parent;
      w.qpos_adr = w.qvel_adr = -1;
      set_reference(w, parent_W, self);
      welds_.push_back(w);
    }
    model_.bodies[id].fixed = fixed;

    MassAccumulator from_geoms;
    for (const XMLElement* g : geoms) parse_geom(g, id, &from_geoms);
    for (const XMLElement* c : sites) parse_site(c, id);

    MassProperties mp;
    int mass_line = el->GetLineNum();
    const bool use_inertial = !inertials.empty() && inertia_from_geom_ != 1;  // 1: compiler inertiafromgeom="true"
    if (use_inertial) {
      mp = parse_inertial(inertials[0]);
      mass_line = inertials[0]->GetLineNum();
    } else if (inertia_from_geom_ != 0) {
      mp = from_geoms.result();
    }
    apply_compiler_bounds(mp);
    if (!fixed) {
      // Maximal coordinates need an invertible mass matrix for every moving body,
      // including a joint-less body welded to a moving parent (MuJoCo would fold it).
      if (!(mp.mass > 0))
        fail(mass_line, label + (joints.empty() ? " is welded to a moving parent" : " has a joint") +
                            " but its mass is " + num(mp.mass) +
                            "; give it an <inertial> or geoms with volume (contactlab simulates every moving "
                            "body, massless frames included)");
      const Real min_eig = Eigen::SelfAdjointEigenSolver<Mat3>(mp.inertia).eigenvalues().minCoeff();
      if (!(min_eig > 0))
        fail(mass_line,
             label + " moves but its inertia is not positive definite (smallest eigenvalue " + num(min_eig) + ")");
      const std::string why = range_violation(limits::kMass, mp.mass);
      if (!why.empty()) fail(mass_line, label + ": mass " + why);
      const std::string triangle = inertia_triangle_violation(mp.inertia);
      if (!triangle.empty()) fail(mass_line, label + ": " + triangle);
    }
    Body& b = model_.bodies[id];
    b.mass = mp.mass;
    b.com_B = mp.com;
    b.inertia_B = mp.inertia;

    for (const XMLElement* c : children) parse_body(c, id, self, fixed);
  }

  // compiler settotalmass, as MuJoCo: after every body's mass is known (and
  // boundmass applied), all masses and inertias are scaled by one factor so
  // that their sum, over every body (fixed ones too, as MuJoCo counts them),
  // is the value given.
  void apply_total_mass() {
    if (!(total_mass_ > 0)) return;
    Real sum = 0;
    for (const Body& b : model_.bodies) sum += b.mass;
    if (!(sum > 0)) fail(total_mass_line_, "compiler settotalmass=" + num(total_mass_) + ": the bodies have no mass to scale");
    const Real scale = total_mass_ / sum;
    for (Body& b : model_.bodies) {
      b.mass *= scale;
      b.inertia_B *= scale;
    }
  }

  // compiler boundmass / boundinertia, as MuJoCo: a lower bound on the mass
  // and on each principal moment (the inertia's axes are kept).
  void apply_compiler_bounds(MassProperties& mp) const {
    if (bound_mass_ > 0) mp.mass = std::max(mp.mass, bound_mass_);
    if (bound_inertia_ > 0) {
      const Eigen::SelfAdjointEigenSolver<Mat3> eig(mp.inertia);
      const Vec3 moments = eig.eigenvalues().cwiseMax(bound_inertia_);
      mp.inertia = eig.eigenvectors() * moments.asDiagonal() * eig.eigenvectors().transpose();
    }
  }

  static void set_reference(Joint& j, const Frame& parent_W, const Frame& child_W) {
    j.rel_quat0 = (parent_W.quat.conjugate() * child_W.quat).normalized();
    const Vec3 anchor_W = child_W.pos + child_W.quat * j.anchor_B;
    j.anchor_parent = parent_W.quat.conjugate() * (anchor_W - parent_W.pos);
    j.axis_parent = j.rel_quat0 * j.axis_B;
  }

  void parse_joint(const XMLElement* el, int body, int parent, const Frame& parent_W, const Frame& self) {
    Joint j;
    j.body = body;
    j.parent = parent;
    if (is(el, "freejoint")) {
      check_attributes(el, {"name"});
      j.type = JointType::Free;
    } else {
      check_attributes(el, {"name", "type", "pos", "axis", "range", "limited", "damping", "armature", "stiffness",
                            "springref", "frictionloss", "ref"});
      if (const Attr t = attr(el, "type")) {
        static const JointType types[] = {JointType::Hinge, JointType::Slide, JointType::Ball, JointType::Free};
        j.type = types[keyword(t, {"hinge", "slide", "ball", "free"})];
      }
    }
    const int id = static_cast<int>(model_.joints.size());
    register_name(joint_names_, el, id, "joint");
    j.name = attr(el, "name") ? attr(el, "name").value : "";
    const std::string label = describe(el);

    if (j.type == JointType::Free && parent != -1)
      fail(el->GetLineNum(),
           "a free joint (" + label + ") is only allowed in a top-level body (a direct child of <worldbody>)");
    if (j.type == JointType::Free) {
      if (attr(el, "pos")) warn(attr(el, "pos").line, "pos of free joint " + label + " is ignored");
    } else {
      const Attr pos = attr(el, "pos");
      j.anchor_B = bounded(pos, vec3(pos), limits::kPosition);
    }
    if (j.type == JointType::Hinge || j.type == JointType::Slide) {
      const Attr a = attr(el, "axis");
      const Vec3 axis = vec3(a, Vec3::UnitZ());
      if (axis.norm() < 1e-10) fail(a.line, where(a) + ": joint axis must not be zero");
      j.axis_B = axis.normalized();
    }

    const Attr range = attr(el, "range");
    j.limited = limited(attr(el, "limited"), bool(range));
    std::vector<Real> r;
    if (range) {
      r = reals(range, 2, 2);
      const Real scale = (j.type == JointType::Hinge || j.type == JointType::Ball) ? angle_scale() : 1.0;
      j.range_lo = bounded(range, r[0] * scale, limits::kJointRange);
      j.range_hi = bounded(range, r[1] * scale, limits::kJointRange);
    }
    if (j.limited) {
      if (j.type == JointType::Free) fail(el->GetLineNum(), label + " cannot be limited");
      if (!range) fail(el->GetLineNum(), label + " is limited but has no range");
      // A ball joint's range is (0, max angle).
      if (j.type == JointType::Ball ? !(j.range_hi > 0) : !(j.range_lo < j.range_hi))
        fail(range.line, label + ": invalid range " + num(r[0]) + " " + num(r[1]));
    }
    j.damping = bounded(attr(el, "damping"), nonnegative(attr(el, "damping"), 0), limits::kGain);
    j.armature = bounded(attr(el, "armature"), nonnegative(attr(el, "armature"), 0), limits::kArmature);
    parse_joint_spring(el, j);

    j.qpos_adr = model_.nq;
    j.qvel_adr = model_.nv;
    switch (j.type) {
      case JointType::Free:
        model_.nq += 7;
        model_.nv += 6;
        break;
      case JointType::Ball:
        model_.nq += 4;
        model_.nv += 3;
        break;
      default:
        model_.nq += 1;
        model_.nv += 1;
        break;
    }
    set_reference(j, parent_W, self);
    model_.joints.push_back(j);
  }

  // stiffness/springref (a spring row, schemes/assembly.cpp) and frictionloss
  // (refused: docs/mjcf.md). MuJoCo converts a hinge's springref from degrees.
  void parse_joint_spring(const XMLElement* el, Joint& j) {
    const std::string label = describe(el);
    const Attr k = attr(el, "stiffness"), ref = attr(el, "springref");
    const Attr fl = attr(el, "frictionloss");
    if (fl && real(fl) != 0)
      fail(fl.line, label + ": frictionloss is not supported (it needs a box-bounded row |f| <= frictionloss, "
                            "which contactlab's solvers do not have); remove it or set it to 0");
    j.stiffness = bounded(k, nonnegative(k, 0), limits::kGain);
    if (j.stiffness > 0 && !(j.type == JointType::Hinge || j.type == JointType::Slide))
      fail(k.line, label + ": stiffness is supported on hinge and slide joints only");
    const Real scale = j.type == JointType::Hinge ? angle_scale() : 1.0;
    j.springref = bounded(ref, real(ref, 0) * scale, limits::kJointRange);
    // ref: the coordinate at the model's pose; MuJoCo uses it on hinges and slides only.
    if (const Attr r = attr(el, "ref"); r && (j.type == JointType::Hinge || j.type == JointType::Slide))
      j.ref = bounded(r, real(r, 0) * scale, limits::kJointRange);
  }

  // A site is a named point with axes (its type and size are visual). With
  // fromto, MuJoCo puts it at the midpoint with z along the segment.
  void parse_site(const XMLElement* el, int body) {
    check_attributes(el, {"name", "type", "size", "fromto", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis"});
    register_name(site_names_, el, static_cast<int>(model_.sites.size()), "site");
    Site site;
    site.name = attr(el, "name") ? attr(el, "name").value : "";
    site.body = body;
    if (const Attr size = attr(el, "size")) bounded(size, reals(size, 1, 3), limits::kMargin);
    if (const Attr fromto = attr(el, "fromto")) {
      const std::vector<Real> v = bounded(fromto, reals(fromto, 6, 6), limits::kPosition);
      const Vec3 a(v[0], v[1], v[2]), b(v[3], v[4], v[5]);
      if ((b - a).norm() < 1e-10) fail(fromto.line, describe(el) + ": fromto has zero length");
      site.pos_B = 0.5 * (a + b);
      site.quat_BS = z_to((a - b).normalized());
    } else {
      const Attr pos = attr(el, "pos");
      site.pos_B = bounded(pos, vec3(pos), limits::kPosition);
      site.quat_BS = orientation(el);
    }
    model_.sites.push_back(site);
  }

  void parse_geom(const XMLElement* el, int body, MassAccumulator* acc) {
    if (mass_only_ellipsoid(el, acc)) return;
    if (const Attr n = attr(el, "name"); n && ellipsoid_names_.count(n.value))
      fail(n.line, std::string("duplicate geom name '") + n.value + "'");
    check_attributes(el, {"name", "type", "size", "fromto", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis",
                          "mass", "density", "friction", "contype", "conaffinity", "margin", "gap", "condim",
                          "priority", "mesh", "hfield"});
    const int id = static_cast<int>(model_.geoms.size());
    register_name(geom_names_, el, id, "geom");
    Geom g;
    g.name = attr(el, "name") ? attr(el, "name").value : "";
    g.body = body;
    const std::string label = describe(el);

    if (const Attr t = attr(el, "type")) {
      static const char* const other[] = {"ellipsoid", "sdf"};
      if (std::any_of(std::begin(other), std::end(other), [&](const char* o) { return std::strcmp(o, t.value) == 0; }))
        refuse_unsimulated_geom(el, t);
      g.type = kGeomTypeValues[keyword(t, {kGeomTypes[0], kGeomTypes[1], kGeomTypes[2], kGeomTypes[3], kGeomTypes[4],
                                           kGeomTypes[5], kGeomTypes[6]})];
    }

    const Attr size_attr = attr(el, "size");
    std::vector<Real> size;
    if (size_attr) size = reals(size_attr, 0, 3);
    const Attr fromto = attr(el, "fromto");
    if (fromto && g.type != GeomType::Capsule && g.type != GeomType::Cylinder && g.type != GeomType::Box)
      fail(fromto.line, label + ": fromto is only valid for capsule, cylinder and box");
    size_t needed = 0;
    switch (g.type) {
      case GeomType::Sphere:
        needed = 1;
        break;
      case GeomType::Capsule:
      case GeomType::Cylinder:
        needed = fromto ? 1 : 2;
        break;
      case GeomType::Box:
        needed = fromto ? 1 : 3;
        break;
      case GeomType::Plane:
      case GeomType::Mesh:    // the mesh gives the shape
      case GeomType::HField:  // the asset gives the shape (MuJoCo ignores the geom's size)
        needed = 0;
        break;
    }
    const int size_line = size_attr ? size_attr.line : el->GetLineNum();
    if (size.size() < needed)
      fail(size_line, label + " of type " + kGeomTypes[int(g.type)] + " needs " + std::to_string(needed) +
                          " size value(s), got " + std::to_string(size.size()));
    for (size_t i = 0; i < needed; ++i)
      if (!(size[i] > 0)) fail(size_line, label + ": size[" + std::to_string(i) + "] must be > 0, got " + num(size[i]));
    if (size_attr) bounded(size_attr, size, limits::kMargin);  // >= 0 where unused, > 0 where needed (above)
    for (size_t i = 0; i < size.size(); ++i) g.size[i] = size[i];

    if (fromto) {
      const std::vector<Real> v = bounded(fromto, reals(fromto, 6, 6), limits::kPosition);
      const Vec3 a(v[0], v[1], v[2]), b(v[3], v[4], v[5]);
      const Real length = (b - a).norm();
      if (length < 1e-10) fail(fromto.line, label + ": fromto has zero length");
      for (const char* o : {"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis"})
        if (const Attr x = attr(el, o)) warn(x.line, label + ": '" + o + "' is ignored because fromto is given");
      g.pos_B = 0.5 * (a + b);
      g.quat_BG = z_to((a - b) / length);  // MuJoCo points the geom z axis from `to` to `from`
      if (g.type == GeomType::Box) {
        g.size[1] = g.size[0];  // MuJoCo 2.2: a fromto box is square in section
        g.size[2] = 0.5 * length;
      } else {
        g.size[1] = 0.5 * length;
      }
    } else {
      const Attr pos = attr(el, "pos");
      g.pos_B = bounded(pos, vec3(pos), limits::kPosition);
      g.quat_BG = orientation(el);
    }
    const CompiledMesh* mesh = g.type == GeomType::Mesh ? &mesh_of_geom(el, g) : nullptr;
    if (!mesh && attr(el, "mesh") && g.type != GeomType::Mesh)
      warn(attr(el, "mesh").line, label + ": 'mesh' is ignored by a geom of type " + kGeomTypes[int(g.type)]);
    if (g.type == GeomType::HField) {
      // MuJoCo's rule: height fields are static (worldbody or bodies fixed to it).
      if (body >= 0 && !model_.bodies[body].fixed)
        fail(el->GetLineNum(), label + ": a height field geom must be static (in worldbody or a body without "
                                       "joints up to it); this one is in moving body '" +
                                       model_.bodies[body].name + "'");
      g.hfield = hfield_of_geom(el);
    } else if (const Attr hf = attr(el, "hfield")) {
      warn(hf.line, label + ": 'hfield' is ignored by a geom of type " + kGeomTypes[int(g.type)]);
    }

    if (const Attr f = attr(el, "friction")) {
      g.friction = reals(f, 1, 3)[0];
      if (g.friction < 0) fail(f.line, where(f) + " must be >= 0, got " + num(g.friction));
      bounded(f, g.friction, limits::kFriction);
    }
    g.contype = bitmask(attr(el, "contype"));
    g.conaffinity = bitmask(attr(el, "conaffinity"));
    g.margin = bounded(attr(el, "margin"), nonnegative(attr(el, "margin"), 0), limits::kMargin);
    parse_geom_contact(el, g);

    const Attr mass_attr = attr(el, "mass");
    const Real density = nonnegative(attr(el, "density"), 1000.0);
    const Real volume = mesh ? mesh->volume : geom_volume(g.type, g.size);
    const Real mass = mass_attr ? bounded(mass_attr, nonnegative(mass_attr, 0), limits::kMassValue)
                                : density * volume;
    const Vec3 principal = mesh ? Vec3(mesh->principal_unit * (mass / volume))
                                : geom_principal_inertia(g.type, g.size, mass);
    if (acc && g.type != GeomType::Plane && g.type != GeomType::HField)
      acc->add(mass, g.pos_B, g.quat_BG.toRotationMatrix(), principal);
    model_.geoms.push_back(g);
  }

  // An hfield geom's grid, built on first use: the inline elevation (or
  // zeros for nrow/ncol alone, as MuJoCo leaves them) or MuJoCo's binary
  // file, normalised as MuJoCo's compiler does (io/hfield_io.hpp).
  std::shared_ptr<const HeightField> hfield_of_geom(const XMLElement* el) {
    const Attr ref = require(el, "hfield");
    auto it = assets_.hfields.find(ref.value);
    if (it == assets_.hfields.end()) fail(ref.line, where(ref) + ": unknown hfield '" + ref.value + "'");
    HfieldAsset& asset = it->second;
    if (!asset.compiled) {
      const std::string label = "hfield '" + it->first + "' (asset line " + std::to_string(asset.line) + ")";
      HeightField h;
      h.sx = asset.size[0];
      h.sy = asset.size[1];
      h.top = asset.size[2];
      h.base = asset.size[3];
      try {
        std::vector<Real> raw;
        if (!asset.file.empty()) {
          HeightFieldData d = read_hfield_file(asset.file);
          h.nrow = d.nrow;
          h.ncol = d.ncol;
          raw = std::move(d.values);
        } else {
          h.nrow = asset.nrow;
          h.ncol = asset.ncol;
          raw = asset.elevation.empty() ? std::vector<Real>(static_cast<size_t>(h.nrow) * h.ncol, 0) : asset.elevation;
        }
        h.elevation = normalized_elevation(raw, label);
      } catch (const std::invalid_argument& e) {
        fail(ref.line, where(ref) + ": " + label + ": " + e.what());
      }
      asset.compiled = std::make_shared<const HeightField>(std::move(h));
    }
    return asset.compiled;
  }

  // A mesh geom's asset, compiled on first use (hull, mass properties;
  // io/mjcf_mesh.hpp), and the geom moved to the mesh's inertial frame.
  const CompiledMesh& mesh_of_geom(const XMLElement* el, Geom& g) {
    const Attr ref = require(el, "mesh");
    auto it = assets_.meshes.find(ref.value);
    if (it == assets_.meshes.end()) fail(ref.line, where(ref) + ": unknown mesh '" + ref.value + "'");
    MeshAsset& asset = it->second;
    if (!asset.compiled) {
      // The geom's line says who asked; the label names the asset and its file.
      const std::string label = "mesh '" + it->first + "' (asset line " + std::to_string(asset.line) +
                                (asset.file.empty() ? std::string(", inline vertices)") : ", file " + asset.file + ")");
      try {
        asset.compiled = std::make_shared<CompiledMesh>(compile_mesh(asset.mesh, asset.refpos, asset.refquat, label));
      } catch (const std::invalid_argument& e) {
        fail(ref.line, where(ref) + ": " + e.what());
      }
    }
    const CompiledMesh& m = *asset.compiled;
    g.pos_B = g.pos_B + g.quat_BG * m.pos;
    g.quat_BG = (g.quat_BG * m.quat).normalized();
    g.hull = m.hull;
    g.mesh = it->first;
    g.size = m.half_extents;
    return m;
  }

  // ---- assets (io/mjcf_assets.hpp) ----------------------------------------------

  void parse_asset(const XMLElement* sec) {
    check_attributes(sec, {});
    for (const XMLElement* el = sec->FirstChildElement(); el; el = el->NextSiblingElement()) {
      if (is(el, "mesh"))
        parse_mesh_asset(el);
      else if (is(el, "hfield"))
        parse_hfield_asset(el);
      else if (!is(el, "texture") && !is(el, "material") && !is(el, "skin"))  // visual
        ignore_element(el);
    }
  }

  // A file attribute resolved against the main file's folder and meshdir/assetdir, checked to exist.
  std::string asset_file(const Attr& f) const {
    const std::string path = resolve_asset_path(file_, mesh_dir_.empty() ? asset_dir_ : mesh_dir_, f.value);
    if (!asset_file_exists(path)) fail(f.line, where(f) + ": file '" + path + "' not found");
    return path;
  }

  std::string asset_name(const XMLElement* el, const Attr& file, std::map<std::string, int>& names) {
    const Attr n = attr(el, "name");
    const std::string name = n && *n.value ? n.value : file ? asset_name_from_file(file.value) : "";
    if (name.empty()) fail(el->GetLineNum(), describe(el) + " needs a name or a file");
    if (!names.emplace(name, static_cast<int>(names.size())).second)
      fail(el->GetLineNum(), std::string("duplicate ") + el->Name() + " name '" + name + "'");
    return name;
  }

  void parse_mesh_asset(const XMLElement* el) {
    check_attributes(el, {"name", "file", "scale", "vertex", "face", "normal", "texcoord", "content_type",
                          "smoothnormal", "maxhullvert", "inertia", "refpos", "refquat"});
    MeshAsset m;
    m.line = el->GetLineNum();
    const Attr file = attr(el, "file"), vertex = attr(el, "vertex");
    if (!file && !vertex) fail(el->GetLineNum(), describe(el) + " needs file or vertex");
    if (file) m.file = asset_file(file);
    if (vertex && reals(vertex).size() % 3 != 0) fail(vertex.line, where(vertex) + " needs a multiple of 3 numbers");
    if (const Attr sc = attr(el, "scale")) {
      m.scale = bounded(sc, vec3(sc), limits::kPosition);
      if (m.scale.cwiseAbs().minCoeff() == 0) fail(sc.line, where(sc) + " must not be 0");
    }
    if (file) {
      // The file's own errors name it and its line; the asset's line says who asked for it.
      try {
        m.mesh = read_mesh_file(m.file);
      } catch (const std::invalid_argument& e) {
        fail(file.line, where(file) + ": " + e.what());
      }
    } else {
      const std::vector<Real> v = bounded(vertex, reals(vertex), limits::kPosition);
      if (v.size() < 12) fail(vertex.line, where(vertex) + " needs at least 4 vertices (12 numbers)");
      for (size_t i = 0; i + 2 < v.size(); i += 3) m.mesh.vertices.emplace_back(v[i], v[i + 1], v[i + 2]);
    }
    for (Vec3& p : m.mesh.vertices) p = p.cwiseProduct(m.scale);
    if (const Attr rp = attr(el, "refpos")) m.refpos = bounded(rp, vec3(rp), limits::kPosition);
    if (const Attr rq = attr(el, "refquat")) {
      const std::vector<Real> q = reals(rq, 4, 4);
      m.refquat = Quat(q[0], q[1], q[2], q[3]);
      if (m.refquat.norm() < 1e-10) fail(rq.line, where(rq) + ": zero quaternion");
      m.refquat.normalize();
    }
    assets_.meshes[asset_name(el, file, mesh_names_)] = m;
  }

  void parse_hfield_asset(const XMLElement* el) {
    check_attributes(el, {"name", "file", "nrow", "ncol", "size", "elevation", "content_type"});
    HfieldAsset h;
    h.line = el->GetLineNum();
    const Attr file = attr(el, "file"), elevation = attr(el, "elevation");
    const Attr size = require(el, "size");
    const std::vector<Real> sz = bounded(size, reals(size, 4, 4), limits::kMargin);
    for (int i = 0; i < 4; ++i) {
      if (!(sz[i] > 0) && i != 3) fail(size.line, where(size) + " [" + std::to_string(i) + "] must be > 0");
      h.size[i] = sz[i];
    }
    const auto count = [&](const char* name) {
      const Attr a = attr(el, name);
      const Real v = real(a, 0);
      if (v < 0 || v != std::floor(v) || v > 1e5) fail(a.line, where(a) + " must be an integer in [0, 1e5]");
      return static_cast<int>(v);
    };
    h.nrow = count("nrow");
    h.ncol = count("ncol");
    if (file && (h.nrow || h.ncol || elevation))
      fail(el->GetLineNum(), describe(el) + ": give either file or nrow/ncol (with elevation), not both");
    if (file) {
      h.file = asset_file(file);
    } else {
      if (h.nrow < 2 || h.ncol < 2) fail(el->GetLineNum(), describe(el) + " needs a file, or nrow and ncol >= 2");
      if (static_cast<long>(h.nrow) * h.ncol > kMaxHeightFieldPoints)
        fail(el->GetLineNum(), describe(el) + ": nrow * ncol = " + std::to_string(static_cast<long>(h.nrow) * h.ncol) +
                                   " is more than the " + std::to_string(kMaxHeightFieldPoints) +
                                   " points contactlab accepts");
      if (elevation) {
        h.elevation = reals(elevation);
        if (h.elevation.size() != static_cast<size_t>(h.nrow) * h.ncol)
          fail(elevation.line, where(elevation) + " needs nrow * ncol = " + std::to_string(h.nrow * h.ncol) +
                                   " numbers, got " + std::to_string(h.elevation.size()));
      }
    }
    assets_.hfields[asset_name(el, file, hfield_names_)] = h;
  }

  // Ellipsoid and sdf geoms are read and checked (sizes), then refused even
  // under allow_unsupported: dropping them would change the mass and the
  // contacts. Their collision is the geometry issue's (issue 15).
  // An ellipsoid geom that cannot collide (contacts disabled by the option
  // flag, or contype and conaffinity both 0) acts on the dynamics through its
  // mass and inertia only, exact in closed form: they are added to its body
  // and no collision geom is kept (so geom ids after it are one lower than
  // MuJoCo's). One that may collide is refused until its collision exists
  // (issue 15). Returns false for other geoms.
  bool mass_only_ellipsoid(const XMLElement* el, MassAccumulator* acc) {
    const Attr t = attr(el, "type");
    if (!t || std::strcmp(t.value, "ellipsoid") != 0) return false;
    if (flags_.contact && (bitmask(attr(el, "contype")) != 0 || bitmask(attr(el, "conaffinity")) != 0))
      refuse_unsimulated_geom(el, t);
    check_attributes(el, {"name", "type", "size", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mass",
                          "density", "friction", "contype", "conaffinity", "margin", "gap", "condim", "priority"});
    const std::string label = describe(el);
    if (const Attr n = attr(el, "name"); n && (geom_names_.count(n.value) || !ellipsoid_names_.insert(n.value).second))
      fail(n.line, std::string("duplicate geom name '") + n.value + "'");
    const Attr size = attr(el, "size");
    if (!size) fail(el->GetLineNum(), label + " of type ellipsoid needs 3 size values, got 0");
    const std::vector<Real> v = bounded(size, reals(size, 3, 3), limits::kMargin);
    for (int i = 0; i < 3; ++i)
      if (!(v[i] > 0)) fail(size.line, label + ": size[" + std::to_string(i) + "] must be > 0, got " + num(v[i]));
    const Vec3 semi(v[0], v[1], v[2]);
    const Attr pos = attr(el, "pos");
    const Vec3 pos_B = bounded(pos, vec3(pos), limits::kPosition);
    const Quat quat_BG = orientation(el);
    const Attr mass_attr = attr(el, "mass");
    const Real density = nonnegative(attr(el, "density"), 1000.0);
    const Real mass = mass_attr ? bounded(mass_attr, nonnegative(mass_attr, 0), limits::kMassValue)
                                : density * ellipsoid_volume(semi);
    if (acc) acc->add(mass, pos_B, quat_BG.toRotationMatrix(), ellipsoid_principal_inertia(semi, mass));
    return true;
  }

  [[noreturn]] void refuse_unsimulated_geom(const XMLElement* el, const Attr& t) {
    const std::string type = t.value, label = describe(el);
    std::string detail;
    if (type == "ellipsoid") {
      const Attr size = attr(el, "size");
      if (!size) fail(el->GetLineNum(), label + " of type ellipsoid needs 3 size values, got 0");
      const std::vector<Real> v = bounded(size, reals(size, 3, 3), limits::kMargin);
      for (int i = 0; i < 3; ++i)
        if (!(v[i] > 0)) fail(size.line, label + ": size[" + std::to_string(i) + "] must be > 0");
      detail = "semi-axes " + num(v[0]) + " " + num(v[1]) + " " + num(v[2]);
    } else {
      detail = "sdf geoms need MuJoCo plugins";
    }
    fail(t.line, label + ": geom type '" + type + "' (" + detail +
                     ") is not simulated yet: its collision is the geometry issue's (issue 15); contactlab "
                     "simulates plane, sphere, box, capsule, cylinder, mesh and hfield geoms");
  }

  // condim, priority and gap (io/mjcf_contact_params.hpp; docs/mjcf.md "Contact parameters").
  void parse_geom_contact(const XMLElement* el, const Geom& g) {
    GeomContactSettings s;
    s.line = el->GetLineNum();
    if (const Attr c = attr(el, "condim")) {
      const Real v = real(c);
      if (v == 4 || v == 6) {
        apply_verdict({MjcfSupport::Unsupported, "torsional and rolling friction (condim 4 and 6); read as condim 3"},
                      c.line, "condim " + num(v) + " of " + describe(el), "condim" + num(v));
      } else if (v != 1 && v != 3) {
        fail(c.line, where(c) + " must be 1, 3, 4 or 6, got " + num(v));
      }
      s.condim = v == 1 ? 1 : 3;
    }
    if (const Attr p = attr(el, "priority")) s.priority = static_cast<int>(bounded(p, real(p), Range{-1e6, 1e6, false, ""}));
    const Attr gap = attr(el, "gap");
    const Real gap_value = bounded(gap, nonnegative(gap, 0), limits::kMargin);
    // MuJoCo's constraint acts from distance margin - gap, contactlab's hard contact from 0.
    if (g.margin - gap_value > 0 && warned_.insert("geom@margin-gap").second)
      warn(s.line, describe(el) + ": margin - gap = " + num(g.margin - gap_value) +
                       " m: contactlab detects contacts within the margin but its hard contact holds the surfaces at "
                       "distance 0, MuJoCo's at margin - gap");
    contact_settings_.push_back(s);
  }

  MassProperties parse_inertial(const XMLElement* el) {
    check_attributes(el,
                     {"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mass", "diaginertia", "fullinertia"});
    MassProperties mp;
    const Attr pos = require(el, "pos");
    mp.com = bounded(pos, vec3(pos), limits::kPosition);
    const Attr m = require(el, "mass");
    mp.mass = real(m);
    if (mp.mass < 0) fail(m.line, where(m) + " must be >= 0, got " + num(mp.mass));
    bounded(m, mp.mass, limits::kMassValue);
    const Attr diag = attr(el, "diaginertia"), full = attr(el, "fullinertia");
    if (diag && full) fail(el->GetLineNum(), "<inertial> has both diaginertia and fullinertia");
    const Quat q = orientation(el);
    if (diag) {
      const Vec3 d = vec3(diag);
      if (d.minCoeff() < 0) fail(diag.line, where(diag) + " must be >= 0");
      bounded(diag, d, limits::kInertiaDiagonal);
      const Mat3 R = q.toRotationMatrix();
      mp.inertia = R * d.asDiagonal() * R.transpose();
    } else if (full) {
      for (const char* o : {"quat", "axisangle", "euler", "xyaxes", "zaxis"})
        if (attr(el, o)) fail(el->GetLineNum(), "<inertial> with fullinertia cannot also have an orientation");
      const std::vector<Real> v = bounded(full, reals(full, 6, 6), limits::kInertia);  // Ixx Iyy Izz Ixy Ixz Iyz
      mp.inertia << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
    }
    return mp;
  }

  // ---- sections that refer to the tree -------------------------------------

  void parse_contact(const XMLElement* sec) {
    check_attributes(sec, {});
    for (const XMLElement* el = sec->FirstChildElement(); el; el = el->NextSiblingElement()) {
      if (!is(el, "exclude")) {
        ignore_element(el);
        continue;
      }
      check_attributes(el, {"name", "body1", "body2"});
      int a = body_ref(require(el, "body1")), b = body_ref(require(el, "body2"));
      if (a == b) fail(el->GetLineNum(), describe(el) + " excludes a body from itself");
      if (a > b) std::swap(a, b);
      const std::pair<int, int> pair(a, b);
      auto& list = model_.excluded_body_pairs;
      if (std::find(list.begin(), list.end(), pair) == list.end()) list.push_back(pair);
    }
  }

  void parse_equality(const XMLElement* sec) {
    check_attributes(sec, {});
    for (const XMLElement* el = sec->FirstChildElement(); el; el = el->NextSiblingElement()) {
      const bool connect = is(el, "connect");
      if (is(el, "joint") || is(el, "tendon")) {
        parse_scalar_equality(el);
        continue;
      }
      if (!connect && !is(el, "weld")) {
        ignore_element(el);
        continue;
      }
      if (connect)
        check_attributes(el, {"name", "body1", "body2", "anchor"});
      else
        check_attributes(el, {"name", "body1", "body2", "relpose"});
      Equality e;
      e.type = connect ? EqualityType::Connect : EqualityType::Weld;
      register_name(equality_names_, el, static_cast<int>(model_.equalities.size()), "equality");
      e.name = attr(el, "name") ? attr(el, "name").value : "";
      e.body1 = body_ref(require(el, "body1"));
      const Attr b2 = attr(el, "body2");
      e.body2 = b2 ? body_ref(b2) : -1;
      if (e.body1 == e.body2) fail(el->GetLineNum(), describe(el) + " connects a body to itself");
      const Frame f1 = body_frame0(e.body1), f2 = body_frame0(e.body2);
      if (connect) {
        const Attr anchor = require(el, "anchor");
        e.anchor1 = bounded(anchor, vec3(anchor), limits::kPosition);
        const Vec3 p_W = f1.pos + f1.quat * e.anchor1;
        e.anchor2 = f2.quat.conjugate() * (p_W - f2.pos);
      } else {
        e.rel_quat = (f1.quat.conjugate() * f2.quat).normalized();
        e.anchor1 = f1.quat.conjugate() * (f2.pos - f1.pos);
        if (const Attr rp = attr(el, "relpose")) {
          // MuJoCo: a zero quaternion in relpose means "take it from qpos0".
          const std::vector<Real> v = reals(rp, 7, 7);
          for (int i = 0; i < 3; ++i) bounded_entry(rp, i, v[i], limits::kPosition);
          const Quat q(v[3], v[4], v[5], v[6]);
          if (q.norm() > 1e-10) {
            e.anchor1 = Vec3(v[0], v[1], v[2]);
            e.rel_quat = q.normalized();
          }
        }
      }
      model_.equalities.push_back(e);
    }
  }

  void parse_actuator_section(const XMLElement* sec) {
    check_attributes(sec, {});
    for (const XMLElement* el = sec->FirstChildElement(); el; el = el->NextSiblingElement()) {
      if (is(el, "motor") || is(el, "position") || is(el, "velocity") || is(el, "general"))
        parse_actuator(el);
      else
        refuse_actuator(el);
    }
  }

  void parse_actuator(const XMLElement* el) {
    Actuator a;
    Real force_gain = 1;  // actuator force per unit control of a motor (a <general>'s gainprm[0])
    const std::string label = describe(el);
    for (const char* t : {"site", "jointinparent", "body", "cranksite", "slidersite"})
      if (attr(el, t))
        fail(el->GetLineNum(), label + ": only joint and fixed-tendon transmissions are supported (found '" + t + "')");
    if (attr(el, "tendon") && !is(el, "motor") && !is(el, "general"))
      fail(el->GetLineNum(), label + ": only a motor (or a motor-like <general>) can act on a tendon");
    if (is(el, "motor")) {
      check_attributes(el, {"name", "joint", "tendon", "gear", "ctrlrange", "ctrllimited", "forcerange",
                            "forcelimited"});
      a.type = ActuatorType::Motor;
    } else if (is(el, "position")) {
      check_attributes(el, {"name", "joint", "gear", "ctrlrange", "ctrllimited", "forcerange", "forcelimited", "kp",
                            "kv"});
      a.type = ActuatorType::Position;
      a.kp = bounded(attr(el, "kp"), real(attr(el, "kp"), 1.0), limits::kGain);
      a.kv = bounded(attr(el, "kv"), nonnegative(attr(el, "kv"), 0.0), limits::kGain);
    } else if (is(el, "velocity")) {
      check_attributes(el, {"name", "joint", "gear", "ctrlrange", "ctrllimited", "forcerange", "forcelimited", "kv"});
      a.type = ActuatorType::Velocity;
      a.kp = bounded(attr(el, "kv"), real(attr(el, "kv"), 1.0), limits::kGain);  // Actuator::kp holds the velocity gain
    } else {  // <general> (parse_actuator_section)
      check_attributes(el, {"name", "joint", "tendon", "gear", "ctrlrange", "ctrllimited", "forcerange",
                            "forcelimited", "dyntype", "gaintype", "biastype", "dynprm", "gainprm", "biasprm"});
      force_gain = general_as_servo(el, a);
    }
    if (attr(el, "tendon") && a.type != ActuatorType::Motor)
      fail(el->GetLineNum(), label + ": only a motor (or a motor-like <general>) can act on a tendon");
    const int id = static_cast<int>(model_.actuators.size());
    register_name(actuator_names_, el, id, "actuator");
    a.name = attr(el, "name") ? attr(el, "name").value : "";

    if (const Attr ta = attr(el, "tendon")) {
      if (attr(el, "joint")) fail(ta.line, label + " names both a joint and a tendon");
      const auto t = tendon_names_.find(ta.value);
      if (t == tendon_names_.end()) fail(ta.line, where(ta) + ": unknown tendon '" + ta.value + "'");
      if (t->second < 0)
        fail(ta.line, label + ": tendon '" + ta.value + "' is spatial; only fixed tendons can carry an actuator");
      a.tendon = t->second;
      a.joint = -1;
      finish_actuator(el, a, force_gain);
      return;
    }
    const Attr ja = require(el, "joint");
    const auto it = joint_names_.find(ja.value);
    if (it == joint_names_.end()) fail(ja.line, where(ja) + ": unknown joint '" + ja.value + "'");
    a.joint = it->second;
    const JointType jt = model_.joints[a.joint].type;
    if (jt == JointType::Ball) fail(el->GetLineNum(), label + ": actuators on ball joints are not supported");
    if (jt == JointType::Free && a.type != ActuatorType::Motor)
      fail(el->GetLineNum(), label + ": only a <motor> (6-number gear) can drive a free joint");
    finish_actuator(el, a, force_gain);
  }

  // gear, ctrlrange, forcerange; then the actuator is added.
  void finish_actuator(const XMLElement* el, Actuator& a, Real force_gain) {
    const std::string label = describe(el);
    if (const Attr g = attr(el, "gear")) {
      const std::vector<Real> v = bounded(g, reals(g, 1, 6), limits::kGear);
      a.gear.setZero();
      for (size_t i = 0; i < v.size(); ++i) a.gear[i] = v[i];
    }
    const Attr range = attr(el, "ctrlrange");
    a.ctrl_limited = limited(attr(el, "ctrllimited"), bool(range));
    if (range) {
      const std::vector<Real> r = bounded(range, reals(range, 2, 2), limits::kControl);
      a.ctrl_lo = r[0];
      a.ctrl_hi = r[1];
    }
    if (a.ctrl_limited) {
      if (!range) fail(el->GetLineNum(), label + " is ctrllimited but has no ctrlrange");
      if (!(a.ctrl_lo < a.ctrl_hi)) fail(range.line, label + ": invalid ctrlrange");
    }
    if (a.type == ActuatorType::Motor) a.gear *= force_gain;
    apply_force_range(el, a, force_gain);
    model_.actuators.push_back(a);
  }

  // ---- tendons and joint/tendon equalities (core/tendon.hpp) --------------

  void parse_tendon_section(const XMLElement* sec) {
    check_attributes(sec, {});
    for (const XMLElement* el = sec->FirstChildElement(); el; el = el->NextSiblingElement()) {
      if (is(el, "fixed")) {
        parse_fixed_tendon(el);
        continue;
      }
      // A spatial tendon without limit, spring or damper exerts nothing: ignoring it is exact.
      std::string sets = limited(attr(el, "limited"), bool(attr(el, "range"))) ? "range" : "";
      for (const char* a : {"stiffness", "damping", "frictionloss"})
        if (const Attr x = attr(el, a); x && real(x) != 0) sets = a;
      if (!sets.empty())
        fail(el->GetLineNum(), "tendon " + describe(el) + ": only <fixed> tendons are supported (this one sets '" +
                                   sets + "')");
      const int id = -1 - static_cast<int>(ignored_tendons_.size());  // never a valid tendon id
      register_name(tendon_names_, el, id, "tendon");
      ignored_tendons_.insert(id);
      ignore_element(el);
    }
  }

  void parse_fixed_tendon(const XMLElement* el) {
    check_attributes(el, {"name", "limited", "range", "stiffness", "springlength", "damping", "frictionloss",
                          "width", "rgba", "material"});
    const std::string label = "tendon " + describe(el);
    Tendon t;
    const int id = static_cast<int>(model_.tendons.size());
    register_name(tendon_names_, el, id, "tendon");
    t.name = attr(el, "name") ? attr(el, "name").value : "";
    if (const Attr fl = attr(el, "frictionloss"); fl && real(fl) != 0)
      fail(fl.line, label + ": frictionloss is not supported (it needs a box-bounded row, which contactlab's "
                            "solvers do not have)");
    std::vector<int> bodies;
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (!is(c, "joint")) fail(c->GetLineNum(), label + ": a fixed tendon holds <joint> elements only");
      check_attributes(c, {"joint", "coef"});
      const Attr ja = require(c, "joint");
      const auto it = joint_names_.find(ja.value);
      if (it == joint_names_.end()) fail(ja.line, where(ja) + ": unknown joint '" + ja.value + "'");
      const JointType jt = model_.joints[it->second].type;
      if (jt != JointType::Hinge && jt != JointType::Slide)
        fail(ja.line, label + ": joint '" + ja.value + "' is not a hinge or slide joint");
      const Attr coef = require(c, "coef");
      t.terms.push_back({it->second, bounded(coef, real(coef), Range{-limits::kGear.hi, limits::kGear.hi, false, ""})});
      add_joint_bodies(it->second, bodies);
    }
    if (t.terms.empty()) fail(el->GetLineNum(), label + " has no <joint>");
    const Attr range = attr(el, "range");
    t.limited = limited(attr(el, "limited"), bool(range));
    if (range) {
      const std::vector<Real> r = bounded(range, reals(range, 2, 2), limits::kJointRange);
      t.range_lo = r[0];
      t.range_hi = r[1];
    }
    if (t.limited) {
      if (!range) fail(el->GetLineNum(), label + " is limited but has no range");
      if (!(t.range_lo < t.range_hi)) fail(range.line, label + ": invalid range");
    }
    t.stiffness = bounded(attr(el, "stiffness"), nonnegative(attr(el, "stiffness"), 0), limits::kGain);
    t.damping = bounded(attr(el, "damping"), nonnegative(attr(el, "damping"), 0), limits::kGain);
    // Only a tendon with a limit, spring or damper is a constraint row (an
    // actuator's force on it, or an equality, is not this tendon's row).
    if (t.limited || t.stiffness > 0 || t.damping > 0) check_two_bodies(el, label, bodies);
    // MuJoCo: a negative springlength (the default -1) is the length at the joints' springref.
    const Attr sl = attr(el, "springlength");
    t.springlength = bounded(sl, real(sl, -1), limits::kJointRange);
    if (t.springlength < 0) {
      t.springlength = 0;
      for (const TendonTerm& term : t.terms) t.springlength += term.coef * model_.joints[term.joint].springref;
    }
    model_.tendons.push_back(t);
  }

  // The moving bodies (child, parent) a joint coordinate's rate involves, without repeats.
  void add_joint_bodies(int joint, std::vector<int>& bodies) const {
    const Joint& j = model_.joints[joint];
    for (int b : {j.body, j.parent})
      if (b >= 0 && !model_.bodies[b].fixed && std::find(bodies.begin(), bodies.end(), b) == bodies.end())
        bodies.push_back(b);
  }

  // A row has two body slots (schemes/tendon_rows.hpp).
  void check_two_bodies(const XMLElement* el, const std::string& label, const std::vector<int>& bodies) const {
    if (bodies.size() > 2)
      fail(el->GetLineNum(), label + " couples joints of " + std::to_string(bodies.size()) +
                                 " moving bodies; contactlab supports at most 2 (one constraint row)");
  }

  void parse_scalar_equality(const XMLElement* el) {
    const bool tendons = is(el, "tendon");
    const char* first = tendons ? "tendon1" : "joint1";
    const char* second = tendons ? "tendon2" : "joint2";
    check_attributes(el, {"name", first, second, "polycoef", "active", "solref", "solimp"});
    const std::string label = "equality " + describe(el);
    if (const Attr a = attr(el, "active"); a && !boolean(a, true))
      fail(a.line, label + ": inactive equalities are not supported");
    ScalarEquality e;
    e.tendons = tendons;
    e.name = attr(el, "name") ? attr(el, "name").value : "";
    register_name(equality_names_, el, static_cast<int>(model_.equalities.size() + model_.scalar_equalities.size()),
                  "equality");
    std::vector<int> bodies;
    const auto ref = [&](const Attr& a) {
      if (tendons) {
        const auto it = tendon_names_.find(a.value);
        if (it == tendon_names_.end()) fail(a.line, where(a) + ": unknown tendon '" + a.value + "'");
        if (it->second < 0) fail(a.line, label + ": tendon '" + a.value + "' is not a <fixed> tendon");
        for (const TendonTerm& t : model_.tendons[it->second].terms) add_joint_bodies(t.joint, bodies);
        return it->second;
      }
      const auto it = joint_names_.find(a.value);
      if (it == joint_names_.end()) fail(a.line, where(a) + ": unknown joint '" + a.value + "'");
      const JointType jt = model_.joints[it->second].type;
      if (jt != JointType::Hinge && jt != JointType::Slide)
        fail(a.line, label + ": joint '" + a.value + "' is not a hinge or slide joint");
      add_joint_bodies(it->second, bodies);
      return it->second;
    };
    e.first = ref(require(el, first));
    if (const Attr b = attr(el, second)) e.second = ref(b);
    if (e.first == e.second) fail(el->GetLineNum(), label + " couples an element to itself");
    if (const Attr p = attr(el, "polycoef")) {
      const std::vector<Real> v = bounded(p, reals(p, 1, 5), Range{-limits::kGain.hi, limits::kGain.hi, false, ""});
      e.polycoef = {0, 0, 0, 0, 0};
      for (size_t i = 0; i < v.size(); ++i) e.polycoef[i] = v[i];
    }
    check_two_bodies(el, label, bodies);
    model_.scalar_equalities.push_back(e);
  }

  // An actuator kind contactlab does not simulate: refused, since dropping it
  // would run a driven model as if it were passive.
  void refuse_actuator(const XMLElement* el) const {
    fail(el->GetLineNum(), "actuator " + describe(el) +
                               " is not supported (supported: motor, position, velocity, and general with "
                               "dyntype none, gaintype fixed, biastype none or affine)");
  }

  // <general> with dyntype none and gaintype fixed: force = g0 u + b0 + b1 L + b2 dL/dt
  // (L = gear q). Mapped exactly onto a motor (b = 0), a position servo
  // (b0 = 0, b1 = -g0, b2 = -kv) or a velocity servo (b0 = b1 = 0, b2 = -g0);
  // other affine biases are refused. Returns g0 (a motor's gear takes it).
  Real general_as_servo(const XMLElement* el, Actuator& a) const {
    const std::string label = describe(el);
    const auto only = [&](const char* name, std::initializer_list<const char*> supported) {
      const Attr k = attr(el, name);
      if (!k) return;
      for (const char* o : supported)
        if (std::strcmp(k.value, o) == 0) return;
      fail(k.line, label + ": " + name + "=\"" + k.value +
                       "\" is not supported (supported: dyntype none, gaintype fixed, biastype none or affine)");
    };
    only("dyntype", {"none"});
    only("gaintype", {"fixed"});
    only("biastype", {"none", "affine"});
    const bool affine = attr(el, "biastype") && std::strcmp(attr(el, "biastype").value, "affine") == 0;
    const auto params = [&](const char* name) {
      std::vector<Real> v(3, 0.0);
      if (std::strcmp(name, "gainprm") == 0) v[0] = 1;  // MuJoCo's default gain
      if (const Attr p = attr(el, name)) {
        const std::vector<Real> given = bounded(p, reals(p, 1, 10), Range{-limits::kGain.hi, limits::kGain.hi, false, ""});
        for (size_t i = 0; i < given.size(); ++i) {
          if (i < 3) v[i] = given[i];
          else if (given[i] != 0) fail(p.line, where(p) + ": entries after the third must be 0 for this actuator");
        }
      }
      return v;
    };
    const std::vector<Real> gain = params("gainprm");
    if (gain[1] != 0 || gain[2] != 0) fail(el->GetLineNum(), label + ": a fixed gain uses gainprm[0] only");
    std::vector<Real> b(3, 0.0);
    if (affine) b = params("biasprm");
    const Real g0 = gain[0];
    if (b[0] == 0 && b[1] == 0 && b[2] == 0) {
      a.type = ActuatorType::Motor;
      return g0;
    }
    if (b[0] == 0 && b[1] == -g0 && g0 > 0 && b[2] <= 0) {
      a.type = ActuatorType::Position;
      a.kp = g0;
      a.kv = -b[2];
      return 1;
    }
    if (b[0] == 0 && b[1] == 0 && b[2] == -g0 && g0 > 0) {
      a.type = ActuatorType::Velocity;
      a.kp = g0;  // Actuator::kp holds the velocity gain
      return 1;
    }
    fail(el->GetLineNum(), label + ": biasprm " + num(b[0]) + " " + num(b[1]) + " " + num(b[2]) + " with gain " +
                               num(g0) +
                               " is neither a motor (bias 0), a position servo (0, -gain, -kv <= 0) nor a "
                               "velocity servo (0, 0, -gain): not supported");
  }

  // forcerange/forcelimited: exact for a motor (force = gain u, so the force
  // clamp is a tighter control clamp); refused on servos, whose force is an
  // implicit row that a clamp would make a box-bounded row.
  void apply_force_range(const XMLElement* el, Actuator& a, Real gain) const {
    const Attr range = attr(el, "forcerange");
    if (!limited(attr(el, "forcelimited"), bool(range))) return;
    const std::string label = describe(el);
    if (!range) fail(el->GetLineNum(), label + " is forcelimited but has no forcerange");
    const std::vector<Real> r = bounded(range, reals(range, 2, 2), limits::kControl);
    if (!(r[0] < r[1])) fail(range.line, label + ": invalid forcerange");
    if (a.type != ActuatorType::Motor)
      fail(range.line, label + ": a force limit on a position or velocity servo is not supported (the servo is an "
                               "implicit row; its clamp would need a box-bounded row)");
    if (gain == 0) return;  // no force at all
    Real lo = r[0] / gain, hi = r[1] / gain;
    if (lo > hi) std::swap(lo, hi);
    if (a.ctrl_limited) {
      lo = std::max(lo, a.ctrl_lo);
      hi = std::min(hi, a.ctrl_hi);
      if (!(lo < hi)) fail(range.line, label + ": forcerange and ctrlrange leave no control");
    }
    a.ctrl_limited = true;
    a.ctrl_lo = lo;
    a.ctrl_hi = hi;
  }

  void parse_custom(const XMLElement* sec) {
    check_attributes(sec, {});
    for (const XMLElement* el = sec->FirstChildElement(); el; el = el->NextSiblingElement()) {
      if (is(el, "text") || is(el, "tuple")) continue;  // valid MJCF, nothing for us
      if (!is(el, "numeric")) {
        ignore_element(el);
        continue;
      }
      check_attributes(el, {"name", "size", "data"});
      const std::string name = require(el, "name").value;
      const Attr data = attr(el, "data");
      const std::vector<Real> v = data ? reals(data) : std::vector<Real>();
      const int line = data ? data.line : el->GetLineNum();
      if (name.rfind("contactlab.", 0) != 0) continue;  // other numerics are not ours
      const std::string restitution = "contactlab.restitution", ctrl = "contactlab.ctrl.";
      if (name == "contactlab.duration") {
        if (v.size() != 1 || !(v[0] > 0)) fail(line, name + " needs one number > 0");
        if (const std::string why = range_violation(limits::kDuration, v[0]); !why.empty()) fail(line, name + " " + why);
        model_.default_duration = v[0];
      } else if (name == restitution) {
        model_.restitution_default = restitution_value(v, name, line);
      } else if (name.rfind(restitution + ".", 0) == 0) {
        parse_restitution_pair(name, name.substr(restitution.size() + 1), restitution_value(v, name, line), line);
      } else if (name.rfind(ctrl, 0) == 0) {
        parse_schedule(name, name.substr(ctrl.size()), v, line);
      } else {
        warn(el->GetLineNum(), "ignoring unknown contactlab extension '" + name + "'");
      }
    }
  }

  Real restitution_value(const std::vector<Real>& v, const std::string& name, int line) const {
    if (v.size() != 1) fail(line, name + " needs one number, got " + std::to_string(v.size()));
    if (v[0] < 0 || v[0] > 1) fail(line, name + ": restitution must be in [0, 1], got " + num(v[0]));
    return v[0];
  }

  // GEOM1.GEOM2 where geom names may themselves contain dots: exactly one split must name two geoms.
  void parse_restitution_pair(const std::string& name, const std::string& pair, Real e, int line) {
    std::vector<std::pair<int, int>> found;
    for (size_t p = pair.find('.'); p != std::string::npos; p = pair.find('.', p + 1)) {
      const auto a = geom_names_.find(pair.substr(0, p)), b = geom_names_.find(pair.substr(p + 1));
      if (a != geom_names_.end() && b != geom_names_.end())
        found.emplace_back(std::min(a->second, b->second), std::max(a->second, b->second));
    }
    if (found.empty()) fail(line, name + ": expected contactlab.restitution.GEOM1.GEOM2 with two named geoms");
    if (found.size() > 1) fail(line, name + ": ambiguous geom names");
    for (const auto& entry : model_.restitution_pairs)
      if (entry.first == found[0]) fail(line, name + ": restitution of this geom pair is given twice");
    model_.restitution_pairs.emplace_back(found[0], e);
  }

  void parse_schedule(const std::string& name, const std::string& actuator, const std::vector<Real>& v, int line) {
    const auto it = actuator_names_.find(actuator);
    if (it == actuator_names_.end()) fail(line, name + ": unknown actuator '" + actuator + "'");
    if (v.size() < 2 || v.size() % 2 != 0)
      fail(line, name + ": data must be pairs 't0 u0 t1 u1 ...', got " + std::to_string(v.size()) + " numbers");
    ControlSchedule s;
    s.actuator = it->second;
    for (size_t i = 0; i < v.size(); i += 2) {
      if (!s.times.empty() && !(v[i] > s.times.back()))
        fail(line, name + ": times must strictly increase (" + num(s.times.back()) + " then " + num(v[i]) + ")");
      if (const std::string why = range_violation(limits::kControl, v[i + 1]); !why.empty())
        fail(line, name + ": value " + why);
      s.times.push_back(v[i]);
      s.values.push_back(v[i + 1]);
    }
    for (const ControlSchedule& other : model_.control_schedules)
      if (other.actuator == s.actuator) fail(line, name + ": actuator '" + actuator + "' already has a schedule");
    model_.control_schedules.push_back(s);
  }

  void parse_keyframes(const XMLElement* sec) {
    check_attributes(sec, {});
    for (const XMLElement* el = sec->FirstChildElement(); el; el = el->NextSiblingElement()) {
      if (!is(el, "key")) {
        ignore_element(el);
        continue;
      }
      check_attributes(el, {"name", "qpos", "qvel"});
      register_name(key_names_, el, static_cast<int>(model_.keyframes.size()), "keyframe");
      Keyframe k;
      k.name = attr(el, "name") ? attr(el, "name").value : "";
      if (const Attr q = attr(el, "qpos")) {
        k.qpos = bounded(q, reals(q), limits::kPosition);
        if (static_cast<int>(k.qpos.size()) != model_.nq)
          fail(q.line, "keyframe " + describe(el) + ": qpos has " + std::to_string(k.qpos.size()) +
                           " numbers, the model has nq = " + std::to_string(model_.nq));
      }
      if (const Attr q = attr(el, "qvel")) {
        k.qvel = bounded(q, reals(q), limits::kSpeed);
        if (static_cast<int>(k.qvel.size()) != model_.nv)
          fail(q.line, "keyframe " + describe(el) + ": qvel has " + std::to_string(k.qvel.size()) +
                           " numbers, the model has nv = " + std::to_string(model_.nv));
      }
      model_.keyframes.push_back(k);
    }
  }

  const MjcfSource& source_;
  MjcfDefaults defaults_;
  std::string file_;
  std::vector<std::string>* warnings_;
  MjcfLoadOptions options_;
  std::set<std::string> warned_;
  Model model_;
  std::vector<Joint> welds_;
  std::map<std::string, int> body_names_, geom_names_, site_names_, joint_names_, actuator_names_, equality_names_, key_names_;
  MjcfFlags flags_;
  std::vector<GeomContactSettings> contact_settings_;  // one per geom
  MjcfAssets assets_;
  std::map<std::string, int> mesh_names_, hfield_names_;
  Real bound_mass_ = 0, bound_inertia_ = 0;  // compiler boundmass / boundinertia
  Real total_mass_ = -1;                      // compiler settotalmass (> 0: on)
  int total_mass_line_ = 0;
  std::string mesh_dir_, asset_dir_;         // compiler meshdir / assetdir
  std::map<std::string, int> tendon_names_;  // ignored (spatial) tendons have negative ids
  std::set<std::string> ellipsoid_names_;    // mass-only ellipsoids (no geom id)
  std::set<int> ignored_tendons_;
  bool compiler_degrees_ = true;
  std::string compiler_eulerseq_ = "xyz";
  bool compiler_autolimits_ = true;
  int inertia_from_geom_ = 2;  // 0 false, 1 true, 2 auto (index into the keyword list)
};

}  // namespace

Model load_mjcf_string(const std::string& xml, const std::string& label, const MjcfLoadOptions& options,
                       std::vector<std::string>* warnings) {
  // Includes are relative to the directory of the main file (MuJoCo), here the label's.
  const std::string name = label.empty() ? "<string>" : label;
  const std::string dir = label.empty() ? "" : std::filesystem::path(label).parent_path().string();
  const MjcfSource source = expand_mjcf_includes(xml, name, dir, options.max_expanded_bytes);
  Parser parser(source, warnings, options);
  return parser.parse(source.text);
}

Model load_mjcf_string(const std::string& xml, const std::string& label, std::vector<std::string>* warnings) {
  return load_mjcf_string(xml, label, MjcfLoadOptions(), warnings);
}

Model load_mjcf_file(const std::string& path, const MjcfLoadOptions& options, std::vector<std::string>* warnings) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MjcfError(path, 0, "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return load_mjcf_string(text.str(), path, options, warnings);
}

Model load_mjcf_file(const std::string& path, std::vector<std::string>* warnings) {
  return load_mjcf_file(path, MjcfLoadOptions(), warnings);
}

}  // namespace contactlab
