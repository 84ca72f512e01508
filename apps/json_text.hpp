// JSON text the commands print (`run --json`, `grad`, `gradcheck`) and the
// viewer's page embeds (`view`).
#pragma once

#include <string>

namespace contactlab {

// A JSON string literal: quotes, backslashes and control characters escaped.
std::string json_string(const std::string& s);
// As json_string, with '<' escaped too (as \u003c): a literal inside a
// <script> element (the viewer's data.js) can then never close it.
std::string script_json_string(const std::string& s);

}  // namespace contactlab
