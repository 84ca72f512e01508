// A scene read for a rollout spec (sim/rollout_setup.hpp holds the model it is given).
#pragma once

#include <memory>
#include <string>

#include "io/scene_library.hpp"

namespace contactlab {
namespace test {

inline std::shared_ptr<const Model> scene_model(const std::string& name_or_path) {
  return std::make_shared<const Model>(load_scene(name_or_path));
}

}  // namespace test
}  // namespace contactlab
