// MJCF default classes: see mjcf_defaults.hpp.
#include "io/mjcf_defaults.hpp"

#include <algorithm>
#include <cstring>

#include "io/mjcf.hpp"
#include "io/mjcf_xml.hpp"

namespace contactlab {

namespace {

using tinyxml2::XMLAttribute;
using tinyxml2::XMLElement;

using mjcf_xml::is;

bool is_actuator_tag(const char* tag) {
  static const char* const tags[] = {"general",  "motor",    "position", "velocity", "intvelocity",
                                     "damper",   "cylinder", "muscle",   "adhesion", "dcmotor"};
  return std::any_of(std::begin(tags), std::end(tags), [&](const char* t) { return std::strcmp(t, tag) == 0; });
}

const XMLElement* parent_element(const XMLElement* el) {
  return el->Parent() ? el->Parent()->ToElement() : nullptr;
}

// Names, classes and the element kind itself are never inherited.
bool inheritable(const char* name) { return std::strcmp(name, "name") != 0 && std::strcmp(name, "class") != 0; }

}  // namespace

void MjcfDefaults::fail(int line, const std::string& message) const {
  throw MjcfError(source_.file_of(line), source_.line_of(line), message);
}

std::string MjcfDefaults::kind_of(const XMLElement* el) {
  const XMLElement* parent = parent_element(el);
  const char* tag = el->Name();
  if (is(parent, "default")) {
    if (is(el, "default")) return "";
    return is_actuator_tag(tag) ? "actuator" : tag;
  }
  if (is(parent, "equality")) return "equality";
  if (is(parent, "tendon")) return "tendon";
  if (is(parent, "actuator")) return is_actuator_tag(tag) ? "actuator" : "";
  if (is(parent, "contact")) return is(el, "pair") ? "pair" : "";
  if (is(parent, "asset")) return (is(el, "mesh") || is(el, "material") || is(el, "hfield")) ? tag : "";
  // A tendon's path (<fixed><joint joint=.../>, <spatial><site site=.../>) names
  // elements; it is not one, and takes no joint, site or geom defaults.
  if (is(parent, "fixed") || is(parent, "spatial")) return "";
  static const char* const tree[] = {"geom", "joint", "site", "camera", "light"};
  if (std::any_of(std::begin(tree), std::end(tree), [&](const char* t) { return std::strcmp(t, tag) == 0; }))
    return tag;
  return "";
}

void MjcfDefaults::read(const XMLElement* root) {
  classes_.push_back(Class{"main", -1, {}});
  by_name_["main"] = 0;
  for (const XMLElement* el = root->FirstChildElement("default"); el; el = el->NextSiblingElement("default")) {
    const char* name = el->Attribute("class");
    if (name && std::strcmp(name, "main") != 0) {
      if (by_name_.count(name)) fail(el->GetLineNum(), std::string("duplicate default class '") + name + "'");
      by_name_[name] = 0;  // the top-level class is "main" whatever it is called
    }
    for (const XMLAttribute* a = el->FirstAttribute(); a; a = a->Next())
      if (std::strcmp(a->Name(), "class") != 0)
        fail(a->GetLineNum(), std::string("<default> has unknown attribute '") + a->Name() + "'");
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (is(c, "default"))
        read_class(c, 0);
      else
        classes_[0].elements.push_back(c);
    }
  }

  // Every class / childclass reference must name a class (checked here, not
  // when first used, so that an element nobody reads is checked too). Iterative:
  // the document may be deep.
  std::vector<const XMLElement*> stack{root};
  while (!stack.empty()) {
    const XMLElement* el = stack.back();
    stack.pop_back();
    if (is(el, "default")) continue;
    for (const char* attr : {"class", "childclass"}) {
      const XMLAttribute* a = el->FindAttribute(attr);
      if (a && !by_name_.count(a->Value()))
        fail(a->GetLineNum(), std::string("<") + el->Name() + "> " + attr + "=\"" + a->Value() +
                                  "\": unknown default class '" + a->Value() + "'");
    }
    for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) stack.push_back(c);
  }
}

void MjcfDefaults::read_class(const XMLElement* el, int parent) {
  const char* name = el->Attribute("class");
  if (!name || !*name) fail(el->GetLineNum(), "a nested <default> needs attribute 'class'");
  if (by_name_.count(name)) fail(el->GetLineNum(), std::string("duplicate default class '") + name + "'");
  for (const XMLAttribute* a = el->FirstAttribute(); a; a = a->Next())
    if (std::strcmp(a->Name(), "class") != 0)
      fail(a->GetLineNum(), std::string("<default> has unknown attribute '") + a->Name() + "'");
  const int id = static_cast<int>(classes_.size());
  classes_.push_back(Class{name, parent, {}});
  by_name_[name] = id;
  // Recursion depth is bounded by tinyxml2's element depth limit.
  for (const XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (is(c, "default"))
      read_class(c, id);
    else
      classes_[id].elements.push_back(c);
  }
}

int MjcfDefaults::lookup(const XMLAttribute* a) const { return by_name_.at(a->Value()); }  // checked in read()

int MjcfDefaults::class_of(const XMLElement* el) const {
  if (const XMLAttribute* a = el->FindAttribute("class")) return lookup(a);
  const auto cached = class_cache_.find(el);
  if (cached != class_cache_.end()) return cached->second;
  int id = 0;
  for (const XMLElement* p = parent_element(el); p; p = parent_element(p)) {
    if (!is(p, "body") && !is(p, "frame")) continue;
    if (const XMLAttribute* a = p->FindAttribute("childclass")) {
      id = lookup(a);
      break;
    }
  }
  class_cache_[el] = id;
  return id;
}

const XMLAttribute* MjcfDefaults::find(const XMLElement* el, const char* name) const {
  if (classes_.empty() || !inheritable(name)) return nullptr;
  const std::string kind = kind_of(el);
  if (kind.empty() || is(parent_element(el), "default")) return nullptr;
  for (int c = class_of(el); c >= 0; c = classes_[c].parent) {
    const auto& elements = classes_[c].elements;
    for (auto it = elements.rbegin(); it != elements.rend(); ++it) {
      if (kind_of(*it) != kind) continue;
      if (const XMLAttribute* a = (*it)->FindAttribute(name)) return a;
    }
  }
  return nullptr;
}

std::vector<const XMLAttribute*> MjcfDefaults::inherited(const XMLElement* el) const {
  std::vector<const XMLAttribute*> out;
  if (classes_.empty()) return out;
  const std::string kind = kind_of(el);
  if (kind.empty() || is(parent_element(el), "default")) return out;
  const auto known = [&](const char* name) {
    return el->FindAttribute(name) ||
           std::any_of(out.begin(), out.end(), [&](const XMLAttribute* a) { return std::strcmp(a->Name(), name) == 0; });
  };
  for (int c = class_of(el); c >= 0; c = classes_[c].parent)
    for (const XMLElement* d : classes_[c].elements)
      if (kind_of(d) == kind)
        for (const XMLAttribute* a = d->FirstAttribute(); a; a = a->Next())
          if (inheritable(a->Name()) && !known(a->Name())) out.push_back(a);
  return out;
}

}  // namespace contactlab
