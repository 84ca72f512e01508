// MJCF default classes: <default class> nested to any depth, `class=` on an
// element, `childclass=` on <body> and <frame>, with MuJoCo's rules (XML
// reference, "default"):
//   - the top-level <default> is the class "main" (its class attribute, if
//     any, is also accepted as its name);
//   - a nested class starts from a copy of its parent's values and overrides
//     them, so a lookup walks class -> parent -> ... -> main;
//   - an element uses its own `class`, else the `childclass` of the nearest
//     enclosing body or frame, else "main";
//   - an attribute written on the element wins over every default;
//   - an unknown class is an error naming it.
// Which default element supplies an element's attributes depends on the
// element and its section: <geom>, <joint> (in a body), <site>, <camera>,
// <light>, <mesh>, <material>, <hfield>, <pair>; every child of <equality>
// takes <equality>; every child of <tendon> takes <tendon>; every actuator
// (motor, position, velocity, general, ...) takes the actuator elements of the
// class, the last one written first (MuJoCo keeps one actuator per class that
// each shortcut writes into).
#pragma once

#include <tinyxml2.h>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/mjcf_include.hpp"

namespace contactlab {

class MjcfDefaults {
 public:
  explicit MjcfDefaults(const MjcfSource& source) : source_(source) {}

  // Reads the <default> children of the <mujoco> root and checks every
  // class/childclass reference in the document. Throws MjcfError.
  void read(const tinyxml2::XMLElement* root);

  // The attribute `name` that the classes give `el`, nearest class first;
  // null when no class sets it or `el` takes no defaults.
  const tinyxml2::XMLAttribute* find(const tinyxml2::XMLElement* el, const char* name) const;

  // Every attribute the classes give `el` that it does not set itself (for
  // warnings about unsupported attributes coming from a default).
  std::vector<const tinyxml2::XMLAttribute*> inherited(const tinyxml2::XMLElement* el) const;

  // The default-element kind of `el` ("geom", "equality", "actuator", ...), or "" when it takes no defaults.
  static std::string kind_of(const tinyxml2::XMLElement* el);

 private:
  struct Class {
    std::string name;
    int parent = -1;
    std::vector<const tinyxml2::XMLElement*> elements;  // default elements, document order
  };

  void read_class(const tinyxml2::XMLElement* el, int parent);
  int class_of(const tinyxml2::XMLElement* el) const;
  int lookup(const tinyxml2::XMLAttribute* a) const;
  [[noreturn]] void fail(int line, const std::string& message) const;

  const MjcfSource& source_;
  std::vector<Class> classes_;  // classes_[0] is "main"
  std::map<std::string, int> by_name_;
  mutable std::unordered_map<const tinyxml2::XMLElement*, int> class_cache_;
};

}  // namespace contactlab
