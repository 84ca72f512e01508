#include "apps/view_folder.hpp"

#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace contactlab {

namespace fs = std::filesystem;

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read '" + path + "'");
  return s.str();
}

void write_folder(const std::string& dir, const std::vector<FolderFile>& files) {
  if (dir.empty()) throw std::runtime_error("--out: empty folder name");
  const fs::path target = fs::path(dir).lexically_normal();
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(target, ec);
  const bool exists = fs::exists(st);
  if (exists && !fs::is_directory(st))
    throw std::runtime_error("--out '" + dir + "' exists and is not a folder");
  fs::path parent = target.parent_path();
  if (parent.empty()) parent = ".";
  if (!fs::is_directory(parent)) throw std::runtime_error("--out: folder '" + parent.string() + "' does not exist");
  // Staging folder: beside DIR when it is new (one rename publishes it), inside it otherwise.
  std::string tmpl = ((exists ? target : parent) / ".contactlab_view.XXXXXX").string();
  if (!mkdtemp(tmpl.data()))
    throw std::runtime_error("cannot create a folder in '" + (exists ? target : parent).string() +
                             "': " + std::strerror(errno));
  const fs::path staging = tmpl;
  // mkdtemp makes it 0700; the published folder gets a new folder's mode (0777 less the umask).
  const mode_t mask = umask(0);
  umask(mask);
  fs::permissions(staging, static_cast<fs::perms>(0777 & ~mask), ec);
  try {
    for (const FolderFile& f : files) {
      const fs::path p = staging / f.name;
      std::ofstream out(p, std::ios::binary);
      out.write(f.contents.data(), static_cast<std::streamsize>(f.contents.size()));
      out.close();
      if (!out) throw std::runtime_error("cannot write '" + (target / f.name).string() + "'");
    }
    if (!exists) {
      fs::rename(staging, target);
    } else {
      for (const FolderFile& f : files) fs::rename(staging / f.name, target / f.name);
      fs::remove(staging);
    }
  } catch (const std::exception&) {
    fs::remove_all(staging, ec);
    throw;
  }
}

}  // namespace contactlab
