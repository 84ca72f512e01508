#include "io/mjcf_assets.hpp"

#include <filesystem>

namespace contactlab {

namespace fs = std::filesystem;

std::string resolve_asset_path(const std::string& main_file, const std::string& dir, const std::string& file) {
  const fs::path f(file);
  if (f.is_absolute()) return f.string();
  const fs::path d(dir);
  if (d.is_absolute()) return (d / f).lexically_normal().string();
  const fs::path base = fs::path(main_file).parent_path();
  return (base / d / f).lexically_normal().string();
}

std::string asset_name_from_file(const std::string& file) { return fs::path(file).stem().string(); }

bool asset_file_exists(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

}  // namespace contactlab
