// Built-in scenes: MJCF files shipped in scenes/ (CONTACTLAB_SCENE_DIR).
#pragma once

#include <string>
#include <vector>

namespace contactlab {

// Names of the built-in scenes, e.g. "bouncing_ball" (file scenes/bouncing_ball.xml).
std::vector<std::string> builtin_scene_names();

// An existing file path is returned as is; a built-in name becomes its file path.
// Throws std::invalid_argument "unknown scene 'X' (built-in: ...)" otherwise.
std::string resolve_scene(const std::string& name_or_path);

}  // namespace contactlab
