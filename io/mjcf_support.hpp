// What the MJCF reader does with each element and attribute it meets: the one
// table (io/mjcf_support.cpp) that docs/mjcf.md's lists come from. The parser
// reads what its call sites list; everything else it finds is classified here.
#pragma once

#include <string>

namespace contactlab {

enum class MjcfSupport {
  Read,         // handled by the reader (here or in a parse section)
  NoEffect,     // visual, sensor or bookkeeping: accepted silently
  Notice,       // read, has no effect on contactlab's laws: one warning
  Unsupported,  // changes dynamics, not implemented: refused (or ignored and listed under allow_unsupported)
};

struct MjcfVerdict {
  MjcfSupport support = MjcfSupport::Unsupported;
  const char* why = "";  // for messages: what the feature does / why it is refused
};

// An element `name` met inside `parent` (e.g. "equality", "joint").
MjcfVerdict classify_mjcf_element(const std::string& parent, const std::string& name);

// An attribute of `element` with its text. An attribute whose value is the
// MuJoCo default that has no effect (stiffness="0", mocap="false") is NoEffect.
MjcfVerdict classify_mjcf_attribute(const std::string& element, const std::string& attribute, const std::string& value);

}  // namespace contactlab
