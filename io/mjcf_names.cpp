#include "io/mjcf_names.hpp"

#include <set>
#include <string>
#include <vector>

namespace contactlab {

namespace {

template <class T, class Skip>
void name_items(std::vector<T>& items, const std::string& kind, Skip skip) {
  std::set<std::string> taken;
  for (const T& item : items)
    if (!item.name.empty()) taken.insert(item.name);
  for (size_t i = 0; i < items.size(); ++i) {
    if (!items[i].name.empty() || skip(items[i])) continue;
    std::string name = kind + "_" + std::to_string(i);
    while (taken.count(name)) name += "_";
    taken.insert(name);
    items[i].name = name;
  }
}

}  // namespace

void name_unnamed(Model& model) {
  const auto never = [](const auto&) { return false; };
  name_items(model.bodies, "body", never);
  name_items(model.geoms, "geom", never);
  name_items(model.sites, "site", never);
  name_items(model.joints, "joint", [](const Joint& j) { return j.type == JointType::Weld; });
  name_items(model.actuators, "actuator", never);
  name_items(model.equalities, "equality", never);
}

}  // namespace contactlab
