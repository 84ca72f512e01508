#include "io/scene_library.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "io/mjcf.hpp"

#ifndef CONTACTLAB_SCENE_DIR
#define CONTACTLAB_SCENE_DIR "scenes"
#endif

namespace contactlab {

std::string builtin_scene_dir() {
  // An installed library may run where its source tree is gone: the
  // environment names the installed scenes then (share/contactlab/scenes).
  if (const char* dir = std::getenv("CONTACTLAB_SCENE_DIR"); dir && *dir) return dir;
  return CONTACTLAB_SCENE_DIR;
}

std::vector<std::string> builtin_scene_names() {
  // One line per scene file in scenes/.
  return {"bouncing_ball", "box_ramp", "stacked_boxes", "pendulum",   "cart_pole",
          "four_bar",      "wheeled_pallet", "incline_box", "incline_sphere", "sliding_box", "terrain_drive"};
}

std::string resolve_scene(const std::string& name_or_path) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(name_or_path, ec)) return name_or_path;
  const std::vector<std::string> names = builtin_scene_names();
  std::string list;
  for (const std::string& n : names) {
    if (n == name_or_path) return builtin_scene_dir() + "/" + n + ".xml";
    list += (list.empty() ? "" : ", ") + n;
  }
  throw std::invalid_argument("unknown scene '" + name_or_path + "' (built-in: " + list + ")");
}

Model load_scene(const std::string& name_or_path, std::vector<std::string>* warnings) {
  return load_mjcf_file(resolve_scene(name_or_path), warnings);
}

Model load_scene(const std::string& name_or_path, const MjcfLoadOptions& options, std::vector<std::string>* warnings) {
  return load_mjcf_file(resolve_scene(name_or_path), options, warnings);
}

}  // namespace contactlab
