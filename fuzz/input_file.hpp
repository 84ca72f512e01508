// The fuzz input as a file the readers open by path. The .dat and .hdf5
// readers take a path; this keeps them unchanged. One file per process, in
// /dev/shm (memory) where it exists, else $TMPDIR or /tmp, rewritten for each
// input and removed at exit (a crash leaves it behind; it is the input
// libFuzzer saves as well). Not a memfd (/proc/self/fd/N): HDF5 resolves the
// path to the file's real name first, which a memfd does not have.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace contactlab::fuzz {

class InputFile {
 public:
  // `suffix` is the file name's extension, e.g. ".hdf5".
  explicit InputFile(const std::string& suffix) {
    struct stat st;
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir = stat("/dev/shm", &st) == 0 ? "/dev/shm" : (tmp && *tmp ? tmp : "/tmp");
    std::string name = dir + "/contactlab-fuzz-XXXXXX" + suffix;
    std::vector<char> buffer(name.begin(), name.end());
    buffer.push_back('\0');
    fd_ = mkstemps(buffer.data(), static_cast<int>(suffix.size()));
    if (fd_ < 0) {
      std::perror(("mkstemps " + name).c_str());
      std::abort();
    }
    path_ = buffer.data();
  }
  ~InputFile() {
    close(fd_);
    unlink(path_.c_str());
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Replaces the contents; a reader opening path() then sees exactly these bytes.
  void assign(const uint8_t* data, size_t size) {
    if (ftruncate(fd_, 0) != 0) std::abort();
    size_t done = 0;
    while (done < size) {
      const ssize_t n = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<size_t>(n);
    }
  }

  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace contactlab::fuzz
