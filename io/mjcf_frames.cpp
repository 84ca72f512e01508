// MJCF <frame> folding: see mjcf_frames.hpp.
#include "io/mjcf_frames.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "io/mjcf.hpp"
#include "io/mjcf_xml.hpp"
#include "io/number_text.hpp"

namespace contactlab {

namespace {

using tinyxml2::XMLAttribute;
using tinyxml2::XMLElement;

using mjcf_xml::is;


const char* const kOrientations[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};

void set_pose(XMLElement* el, const MjcfPose& p) {
  el->SetAttribute("pos", round_trip_list(p.pos.data(), 3).c_str());
  for (const char* o : kOrientations)
    if (std::strcmp(o, "quat") != 0) el->DeleteAttribute(o);
  const Real q[4] = {p.quat.w(), p.quat.x(), p.quat.y(), p.quat.z()};
  el->SetAttribute("quat", round_trip_list(q, 4).c_str());
}

}  // namespace

void fold_mjcf_frames(XMLElement* root, const MjcfSource& source,
                      const std::function<MjcfPose(const XMLElement*)>& pose_of) {
  const auto fail = [&](int line, const std::string& message) {
    throw MjcfError(source.file_of(line), source.line_of(line), message);
  };
  // Frames in preorder (outer first), so an inner frame is folded after its
  // outer frame has composed the inner frame's pose. Iterative: the document may be deep.
  std::vector<XMLElement*> frames, stack{root};
  while (!stack.empty()) {
    XMLElement* el = stack.back();
    stack.pop_back();
    if (is(el, "frame")) frames.push_back(el);
    std::vector<XMLElement*> children;
    for (XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) children.push_back(c);
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
  // Replica frames (io/mjcf_include.cpp) suffix the names inside them, inner
  // replicas first, as MuJoCo ("Alice" -> "Alice-10" for inner 1, outer 0).
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    const char* suffix = (*it)->Attribute("contactlab_replicate");
    if (!suffix) continue;
    const std::string add = suffix;
    std::vector<XMLElement*> inside;
    for (XMLElement* c = (*it)->FirstChildElement(); c; c = c->NextSiblingElement()) inside.push_back(c);
    while (!inside.empty()) {
      XMLElement* el = inside.back();
      inside.pop_back();
      if (const char* name = el->Attribute("name"); name && *name) el->SetAttribute("name", (name + add).c_str());
      for (XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) inside.push_back(c);
    }
  }
  for (XMLElement* frame : frames) {
    tinyxml2::XMLNode* parent = frame->Parent();
    const XMLElement* parent_el = parent ? parent->ToElement() : nullptr;
    if (!parent_el || !(is(parent_el, "body") || is(parent_el, "worldbody")))
      fail(frame->GetLineNum(), "<frame> is only allowed in <worldbody>, <body> or another <frame>");
    for (const XMLAttribute* a = frame->FirstAttribute(); a; a = a->Next()) {
      const char* n = a->Name();
      const bool known = std::strcmp(n, "name") == 0 || std::strcmp(n, "pos") == 0 ||
                         std::strcmp(n, "contactlab_replicate") == 0 ||
                         std::strcmp(n, "childclass") == 0 ||
                         std::any_of(std::begin(kOrientations), std::end(kOrientations),
                                     [&](const char* o) { return std::strcmp(o, n) == 0; });
      if (!known) fail(a->GetLineNum(), std::string("<frame> has unknown attribute '") + n + "'");
    }
    const MjcfPose f = pose_of(frame);
    const char* childclass = frame->Attribute("childclass");
    std::vector<XMLElement*> children;
    for (XMLElement* c = frame->FirstChildElement(); c; c = c->NextSiblingElement()) children.push_back(c);
    tinyxml2::XMLNode* after = frame;
    for (XMLElement* c : children) {
      if (is(c, "joint") || is(c, "freejoint") || is(c, "inertial"))
        fail(c->GetLineNum(), std::string("<") + c->Name() + "> is not allowed in <frame> (put it in the body)");
      if (const char* fromto = c->Attribute("fromto")) {
        double v[6];
        if (std::sscanf(fromto, "%lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) == 6) {
          Real out[6];
          for (int k = 0; k < 2; ++k) {
            const Vec3 p = f.pos + f.quat * Vec3(v[3 * k], v[3 * k + 1], v[3 * k + 2]);
            for (int i = 0; i < 3; ++i) out[3 * k + i] = p[i];
          }
          c->SetAttribute("fromto", round_trip_list(out, 6).c_str());
        }  // else left as is: the reader reports the malformed fromto at its line
      } else if (is(c, "body") || is(c, "geom") || is(c, "site") || is(c, "camera") || is(c, "light") ||
                 is(c, "frame")) {
        const MjcfPose p = pose_of(c);
        set_pose(c, MjcfPose{f.pos + f.quat * p.pos, (f.quat * p.quat).normalized()});
      }
      if (childclass) {
        const char* slot = (is(c, "body") || is(c, "frame")) ? "childclass" : "class";
        if (!c->Attribute(slot)) c->SetAttribute(slot, childclass);
      }
      parent->InsertAfterChild(after, c);
      after = c;
    }
    parent->DeleteChild(frame);
  }
}

}  // namespace contactlab
