#include "io/output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <streambuf>

namespace contactlab {

namespace {

// ---------------------------------------------------------------------------
// The registry of open temporary files, read by signal handlers: a fixed
// array of path buffers, each guarded by an atomic state. A slot is filled
// while "Filling" and published as "Ready" (release); a handler claims a Ready
// slot ("Claimed", never given back: the process is ending) before reading
// its path, so a slot being refilled is never read half-written.
// ---------------------------------------------------------------------------
static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal handler needs lock-free atomics");

enum SlotState : int { Free = 0, Filling = 1, Ready = 2, Claimed = 3 };
constexpr int kSlots = 256;
constexpr size_t kPathBytes = 4096;

struct Slot {
  std::atomic<int> state{Free};
  char path[kPathBytes];
};
Slot g_slots[kSlots];

// -1 when the registry is full or the path too long: the file is then not
// removed by a signal (it is still removed on every other failure).
int register_temporary(const std::string& path) {
  if (path.size() >= kPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = Free;
    if (g_slots[i].state.compare_exchange_strong(expected, Filling, std::memory_order_acquire)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state.store(Ready, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void unregister_temporary(int slot) {
  if (slot < 0) return;
  int expected = Ready;
  // Fails only when a handler claimed the slot: the process is ending.
  g_slots[slot].state.compare_exchange_strong(expected, Free, std::memory_order_acq_rel);
}

// The signals that remove the temporary files: SIGINT, SIGTERM, SIGHUP, and
// SIGPIPE (a table printed into a closed pipe while a file is being written,
// `contactlab bench-problems DIR | head -1`).
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

void add_cleanup_signals(sigset_t* set) {
  for (int signo : kCleanupSignals) sigaddset(set, signo);
}

// These signals are held back while a temporary file is created
// and registered, renamed or removed and unregistered, so a handler never
// sees a file that exists but is not registered, nor a registered name that
// is someone else's.
class BlockCleanupSignals {
 public:
  BlockCleanupSignals() {
    sigset_t set;
    sigemptyset(&set);
    add_cleanup_signals(&set);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~BlockCleanupSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  BlockCleanupSignals(const BlockCleanupSignals&) = delete;
  BlockCleanupSignals& operator=(const BlockCleanupSignals&) = delete;

 private:
  sigset_t old_;
};

extern "C" void on_cleanup_signal(int signo) {
  const int saved_errno = errno;
  remove_temporary_outputs();
  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(signo, &dfl, nullptr);
  // Pending while this handler runs (the signal is blocked in it), delivered
  // with the default action as it returns: the process ends by this signal.
  raise(signo);
  errno = saved_errno;
}

// ---------------------------------------------------------------------------
// Writing: a stream buffer over a file descriptor that checks every write(2).
// ---------------------------------------------------------------------------
class FdStreamBuf : public std::streambuf {
 public:
  explicit FdStreamBuf(int fd) : fd_(fd), buffer_(new char[kBytes]) { setp(buffer_.get(), buffer_.get() + kBytes); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  static constexpr size_t kBytes = size_t(1) << 16;
  bool drain() {
    if (error_) return false;
    const char* p = pbase();
    size_t n = static_cast<size_t>(pptr() - pbase());
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return false;
      }
      if (w == 0) {
        error_ = EIO;
        return false;
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
    setp(buffer_.get(), buffer_.get() + kBytes);
    return true;
  }

  int fd_;
  std::unique_ptr<char[]> buffer_;
  int error_ = 0;
};

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw OutputFileError("cannot write '" + path + "': " + why);
}
[[noreturn]] void fail_errno(const std::string& path, int err) { fail(path, std::strerror(err)); }

std::string folder_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor itself
// (-1 for other paths), whatever it is open on (a terminal, a pipe, a file).
int stream_alias(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const size_t n = std::strlen(prefix);
    if (path.compare(0, n, prefix) != 0 || path.size() == n || path.size() > n + 9) continue;
    int fd = 0;
    for (size_t i = n; i < path.size(); ++i) {
      if (path[i] < '0' || path[i] > '9') return -1;
      fd = 10 * fd + (path[i] - '0');
    }
    return fd;
  }
  return -1;
}

enum class Kind { Missing, Regular, Special, Alias };

// What the target is, or OutputFileError for what is refused.
Kind classify(const std::string& path, int* alias_fd) {
  if (path.empty()) fail(path, "empty path");
  if (path.back() == '/') fail(path, "a folder name, not a file");
  const int alias = stream_alias(path);
  if (alias >= 0) {
    if (fcntl(alias, F_GETFL) < 0) fail(path, "file descriptor " + std::to_string(alias) + " is not open");
    if (alias_fd) *alias_fd = alias;
    return Kind::Alias;
  }
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err != ENOENT) fail_errno(path, err);
    const std::string dir = folder_of(path);
    struct stat ds;
    if (stat(dir.c_str(), &ds) != 0) fail(path, "folder '" + dir + "' does not exist");
    if (!S_ISDIR(ds.st_mode)) fail(path, "'" + dir + "' is not a folder");
    return Kind::Missing;
  }
  if (S_ISREG(st.st_mode)) return Kind::Regular;
  if (S_ISDIR(st.st_mode)) fail(path, "it is a directory (give a file name)");
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return Kind::Special;
  if (S_ISLNK(st.st_mode)) {
    struct stat target;
    if (stat(path.c_str(), &target) == 0 && (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode)))
      return Kind::Special;
    char link[4096];
    const ssize_t n = readlink(path.c_str(), link, sizeof link - 1);
    const std::string to = n > 0 ? std::string(link, static_cast<size_t>(n)) : "?";
    fail(path, "it is a symbolic link (to '" + to +
                   "'); contactlab neither follows nor replaces a link to a file: give the link's target instead");
  }
  if (S_ISBLK(st.st_mode)) fail(path, "it is a block device");
  if (S_ISSOCK(st.st_mode)) fail(path, "it is a socket");
  fail(path, "not a regular file");
}

// ".NAME." + 12 random characters from [0-9A-Za-z] (71 bits).
std::string temporary_name(const std::string& path) {
  static const char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  unsigned char random[12];
  size_t got = 0;
  while (got < sizeof random) {
    const ssize_t n = getrandom(random + got, sizeof random - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_errno(path, errno);
    }
    got += static_cast<size_t>(n);
  }
  std::string base = name_of(path);
  if (base.size() > 200) base.resize(200);  // the temporary name stays under NAME_MAX
  std::string name = "." + base + ".";
  for (unsigned char c : random) name += kAlphabet[c % 62];
  const std::string dir = folder_of(path);
  return (path.find('/') == std::string::npos ? "" : (dir == "/" ? std::string("/") : dir + "/")) + name;
}

}  // namespace

// ---------------------------------------------------------------------------

struct OutputFile::Impl {
  explicit Impl(int fd_) : fd(fd_), buf(fd_), stream(&buf) {}
  int fd;
  bool direct = false;
  bool closed = false;
  std::string tmp;  // the temporary file; empty when direct
  int slot = -1;
  FdStreamBuf buf;
  std::ostream stream;

  // Flush, check and close; throws naming `path` (the file is then still to
  // be discarded by the caller).
  void finish(const std::string& path) {
    stream.flush();
    if (buf.error()) fail_errno(path, buf.error());
    if (!stream) fail(path, "write failed");
    closed = true;
    if (::close(fd) != 0 && errno != EINTR) fail_errno(path, errno);
  }
  void publish(const std::string& path) {
    if (direct) return;
    BlockCleanupSignals block;
    struct stat st;
    if (lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      fail(path, "it is no longer a regular file (something replaced it during the run)");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) fail_errno(path, errno);
    unregister_temporary(slot);
    slot = -1;
    tmp.clear();
  }
  void drop() noexcept {
    if (!closed) {
      closed = true;
      ::close(fd);
    }
    if (!tmp.empty()) {
      BlockCleanupSignals block;
      ::unlink(tmp.c_str());
      unregister_temporary(slot);
      slot = -1;
      tmp.clear();
    }
  }
};

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {}

OutputFile::~OutputFile() { discard(); }

bool OutputFile::direct() const { return impl_ && impl_->direct; }

std::ostream* OutputFile::open() {
  if (path_.empty()) return nullptr;
  if (impl_) return &impl_->stream;
  int alias = -1;
  const Kind kind = classify(path_, &alias);
  if (kind == Kind::Alias || kind == Kind::Special) {
    const int fd = kind == Kind::Alias ? fcntl(alias, F_DUPFD_CLOEXEC, 3)
                                       : ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) fail_errno(path_, errno);
    struct stat st;
    if (kind == Kind::Special && (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))) {
      ::close(fd);
      fail(path_, "it is no longer a special file");
    }
    try {
      impl_ = std::make_unique<Impl>(fd);
    } catch (...) {
      ::close(fd);
      throw;
    }
    impl_->direct = true;
    return &impl_->stream;
  }
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string tmp = temporary_name(path_);
    BlockCleanupSignals block;
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      const int err = errno;
      if (err == ENOENT) fail(path_, "folder '" + folder_of(path_) + "' does not exist");
      fail_errno(path_, err);
    }
    const int slot = register_temporary(tmp);
    try {
      impl_ = std::make_unique<Impl>(fd);
    } catch (...) {  // out of memory: nothing is left behind either
      ::close(fd);
      ::unlink(tmp.c_str());
      unregister_temporary(slot);
      throw;
    }
    impl_->tmp = tmp;
    impl_->slot = slot;
    return &impl_->stream;
  }
  fail(path_, "no unused temporary name in its folder after 100 tries");
}

void OutputFile::check() const {
  if (!impl_) return;
  if (impl_->buf.error()) fail_errno(path_, impl_->buf.error());
  if (!impl_->stream) fail(path_, "write failed");
}

void OutputFile::commit() { commit_all({this}); }

void OutputFile::discard() noexcept {
  if (!impl_) return;
  impl_->drop();
  impl_.reset();
}

void commit_all(std::initializer_list<OutputFile*> files) { commit_all(std::vector<OutputFile*>(files)); }

void commit_all(const std::vector<OutputFile*>& files) {
  try {
    for (OutputFile* f : files)
      if (f && f->impl_) f->impl_->finish(f->path_);
    for (OutputFile* f : files)
      if (f && f->impl_) {
        f->impl_->publish(f->path_);
        f->impl_.reset();
      }
  } catch (...) {
    for (OutputFile* f : files)
      if (f) f->discard();
    throw;
  }
}

void check_output_path(const std::string& path) {
  int alias = -1;
  const Kind kind = classify(path, &alias);
  if (kind == Kind::Missing || kind == Kind::Regular) {
    const std::string dir = folder_of(path);
    if (access(dir.c_str(), W_OK | X_OK) != 0) fail(path, "folder '" + dir + "' is not writable");
  }
}

namespace {

struct PathKey {
  bool exists = false;
  bool character_device = false;
  dev_t dev = 0;
  ino_t ino = 0;
  std::string normal;
};

PathKey key_of(const std::string& path) {
  namespace fs = std::filesystem;
  PathKey k;
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    k.exists = true;
    k.character_device = S_ISCHR(st.st_mode);
    k.dev = st.st_dev;
    k.ino = st.st_ino;
  }
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) p = path;
  const fs::path canonical = fs::weakly_canonical(p, ec);
  k.normal = (ec ? p.lexically_normal() : canonical.lexically_normal()).string();
  return k;
}

bool same_file(const PathKey& a, const PathKey& b) {
  if (a.exists && b.exists) return a.dev == b.dev && a.ino == b.ino && !a.character_device;
  return a.normal == b.normal;
}

}  // namespace

void check_distinct_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  std::vector<PathKey> in_keys, out_keys;
  for (const NamedPath& p : inputs) in_keys.push_back(p.path.empty() ? PathKey{} : key_of(p.path));
  for (const NamedPath& p : outputs) out_keys.push_back(p.path.empty() ? PathKey{} : key_of(p.path));
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (outputs[o].path.empty()) continue;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (!inputs[i].path.empty() && same_file(out_keys[o], in_keys[i]))
        throw OutputFileError(outputs[o].what + " '" + outputs[o].path + "' is the same file as " + inputs[i].what +
                              " '" + inputs[i].path + "': refusing to overwrite an input (nothing written)");
    for (size_t p = 0; p < o; ++p)
      if (!outputs[p].path.empty() && same_file(out_keys[o], out_keys[p]))
        throw OutputFileError(outputs[p].what + " '" + outputs[p].path + "' and " + outputs[o].what + " '" +
                              outputs[o].path + "' are the same file: give each output its own path (nothing written)");
    // `--out x > x`: the rename would take the file away from the messages
    // and the JSON written to it. (Writing through /dev/stdout itself is fine.)
    if (stream_alias(outputs[o].path) >= 0 || !out_keys[o].exists) continue;
    for (const int fd : {1, 2}) {
      struct stat st;
      if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == out_keys[o].dev && st.st_ino == out_keys[o].ino)
        throw OutputFileError(outputs[o].what + " '" + outputs[o].path + "' is the file standard " +
                              (fd == 1 ? "output" : "error") + " is redirected to (nothing written)");
    }
  }
}

void install_output_signal_handlers() {
  static std::atomic<bool> installed{false};
  if (installed.exchange(true)) return;
  for (int signo : kCleanupSignals) {
    struct sigaction old;
    if (sigaction(signo, nullptr, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;  // nohup: stays ignored
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_cleanup_signal;
    sigemptyset(&sa.sa_mask);
    add_cleanup_signals(&sa.sa_mask);
    sigaction(signo, &sa, nullptr);
  }
}

void remove_temporary_outputs() noexcept {
  for (int i = 0; i < kSlots; ++i) {
    int expected = Ready;
    if (g_slots[i].state.compare_exchange_strong(expected, Claimed, std::memory_order_acq_rel))
      ::unlink(g_slots[i].path);
  }
}

int open_temporary_outputs() noexcept {
  int n = 0;
  for (int i = 0; i < kSlots; ++i) n += g_slots[i].state.load(std::memory_order_acquire) == Ready;
  return n;
}

}  // namespace contactlab
