// What the MJCF reader's files share about tinyxml2's elements.
#pragma once

#include <tinyxml2.h>

#include <cstring>

namespace contactlab {
namespace mjcf_xml {

// Whether `el` is a <tag> element (false for none).
inline bool is(const tinyxml2::XMLElement* el, const char* tag) {
  return el && std::strcmp(el->Name(), tag) == 0;
}

}  // namespace mjcf_xml
}  // namespace contactlab
