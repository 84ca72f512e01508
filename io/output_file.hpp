// Result files that are either complete or absent.
//
// A regular file (or a path that does not exist yet) is written under an
// unpredictable temporary name in the target's own folder (".NAME.XXXXXXXXXXXX",
// created with O_CREAT|O_EXCL|O_NOFOLLOW, so nothing planted at any name can be
// followed or reused) and renamed over the target only on commit(), after every
// write, the final flush and close() have succeeded. Special files (character
// devices such as /dev/null or /dev/full, FIFOs, and /dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N) are written in place: no temporary file, no
// rename, the node is never replaced; every write is still checked. Refused,
// with a message naming the path: a directory, a block device, a socket, a
// symbolic link that leads anywhere but to a character device or a FIFO (it is
// neither followed nor replaced), a missing folder.
//
// While a temporary file is open its name is in a fixed-size, async-signal-safe
// registry: install_output_signal_handlers() makes SIGINT, SIGTERM, SIGHUP and
// SIGPIPE unlink those files, then end the process by the same signal (exit
// status 128+signo as the shell reports it). docs/cli.md "Output files".
#pragma once

#include <initializer_list>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace contactlab {

// Thrown for every output-file failure; what() names the path.
class OutputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutputFile {
 public:
  // An empty path is "no output": open() returns nullptr, commit() does nothing.
  explicit OutputFile(std::string path);
  ~OutputFile();  // discard() unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Creates the temporary file (or opens the special file); nullptr when no
  // path was given. Throws OutputFileError naming the path.
  std::ostream* open();
  // Throws OutputFileError if a write has failed so far (a full disk): cheap,
  // for long writers that want to stop early. The stream also stays failed.
  void check() const;
  // Flushes and closes, checking each; renames the temporary file over the
  // target (which must still be a regular file or absent). On failure nothing
  // is left (the temporary file is removed, the target untouched) and
  // OutputFileError is thrown.
  void commit();
  // Removes the temporary file; the target is untouched. Never throws.
  void discard() noexcept;

  const std::string& path() const { return path_; }
  // Whether the target is written in place (a special file).
  bool direct() const;

  struct Impl;

 private:
  friend void commit_all(const std::vector<OutputFile*>& files);
  std::string path_;
  std::unique_ptr<Impl> impl_;
};

// Commits several files as one result: every file is flushed and closed
// first, and only when all of them succeeded are they renamed into place; on
// a failure every one not yet renamed is discarded and the error rethrown
// (only a failing rename(2), after the first file's, can leave a part).
// Null entries and files never opened (no path) are skipped.
void commit_all(std::initializer_list<OutputFile*> files);
void commit_all(const std::vector<OutputFile*>& files);

// The checks open() does on the target, without creating anything: throws
// OutputFileError for a directory, a refused symbolic link or special file,
// or a missing folder. For commands that open their files late (after a long
// computation) and want to fail before it.
void check_output_path(const std::string& path);

// A path on the command line and what it is ("--out", "the scene file").
struct NamedPath {
  std::string what;
  std::string path;
};

// Refuses (OutputFileError naming both) an output that is one of the inputs
// or another output: the same file (device and inode) where it exists, else
// the same normalised absolute path (symbolic links of the existing part
// resolved). Character devices may be shared (two outputs to /dev/null). An
// output that is the regular file standard output or standard error is
// redirected to (`--out x > x`) is refused too. Empty paths are ignored. Call
// it before anything is written.
void check_distinct_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

// Installs the SIGINT/SIGTERM/SIGHUP/SIGPIPE handlers that remove open temporary
// files (once; a signal that is ignored when this is called stays ignored).
void install_output_signal_handlers();
// Unlinks every registered temporary file. Async-signal-safe: for other
// signal handlers (the solve command's time limit) before they _exit().
void remove_temporary_outputs() noexcept;
// How many temporary files are registered now (tests).
int open_temporary_outputs() noexcept;

}  // namespace contactlab
