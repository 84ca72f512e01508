#include "apps/json_text.hpp"

#include <cstdio>

namespace contactlab {

namespace {

std::string quoted_json(const std::string& s, bool escape_lt) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || (escape_lt && c == '<')) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + '"';
}

}  // namespace

std::string json_string(const std::string& s) { return quoted_json(s, false); }
std::string script_json_string(const std::string& s) { return quoted_json(s, true); }

}  // namespace contactlab
