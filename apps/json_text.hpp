// JSON text the commands print (`run --json`, `grad`, `gradcheck`).
#pragma once

#include <string>

namespace contactlab {

// A JSON string literal: quotes, backslashes and control characters escaped.
std::string json_string(const std::string& s);

}  // namespace contactlab
