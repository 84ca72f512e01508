// Built-in scenes: MJCF files shipped in scenes/ (CONTACTLAB_SCENE_DIR).
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"
#include "io/mjcf.hpp"

namespace contactlab {

// The folder of the built-in scenes: $CONTACTLAB_SCENE_DIR when set, else the
// source tree's scenes/ this library was built from.
std::string builtin_scene_dir();

// Names of the built-in scenes, e.g. "bouncing_ball" (file scenes/bouncing_ball.xml).
std::vector<std::string> builtin_scene_names();

// An existing file path is returned as is; a built-in name becomes its file path.
// Throws std::invalid_argument "unknown scene 'X' (built-in: ...)" otherwise.
std::string resolve_scene(const std::string& name_or_path);

// Reads a built-in scene or an MJCF file (resolve_scene, then the MJCF reader,
// io/mjcf.hpp); the reader's warnings go to `warnings` when given.
Model load_scene(const std::string& name_or_path, std::vector<std::string>* warnings = nullptr);
Model load_scene(const std::string& name_or_path, const MjcfLoadOptions& options,
                 std::vector<std::string>* warnings = nullptr);

}  // namespace contactlab
