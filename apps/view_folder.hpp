// The page's folder, written whole or not at all: every file goes to a hidden
// staging folder beside DIR, renamed to DIR at the end (or, when DIR already
// exists as a folder, each file renamed into it). A failure removes the
// staging folder and leaves DIR as it was.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace contactlab {

struct FolderFile {
  std::string name;      // a plain file name inside the folder
  std::string contents;  // the bytes
};

void write_folder(const std::string& dir, const std::vector<FolderFile>& files);
// Reads a whole file; throws naming it when it cannot be read.
std::string read_whole_file(const std::string& path);

}  // namespace contactlab
