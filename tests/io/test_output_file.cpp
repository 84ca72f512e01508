// OutputFile (io/output_file.hpp): a regular target is written under a hidden,
// unpredictable temporary name and appears only on commit; special files are
// written in place; every failure (a full device, a refused target) throws
// naming the path and leaves nothing; the path checks refuse an output that is
// an input or another output.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/output_file.hpp"
#include "support/temp_dir.hpp"

using namespace contactlab;

namespace {

namespace fs = std::filesystem;

// Each case's folder (tests/support/temp_dir.hpp).
struct TempDir : contactlab::test::TempDir {
  TempDir() : contactlab::test::TempDir("contactlab_output_file_") {}
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The message of the OutputFileError that f throws ("" if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const OutputFileError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("output file: a new regular file appears only on commit, under a hidden temporary name until then") {
  const TempDir d;
  const int registered = open_temporary_outputs();
  OutputFile f(d / "a.csv");
  std::ostream* out = f.open();
  REQUIRE(out != nullptr);
  CHECK_FALSE(f.direct());
  *out << "x,y\n1,2\n";
  const std::vector<std::string> during = d.names();
  REQUIRE(during.size() == 1);
  CHECK(during[0].rfind(".a.csv.", 0) == 0);
  CHECK(during[0].size() == std::string(".a.csv.").size() + 12);
  CHECK(open_temporary_outputs() == registered + 1);
  f.commit();
  CHECK(open_temporary_outputs() == registered);
  CHECK(d.names() == std::vector<std::string>{"a.csv"});
  CHECK(read_file(d / "a.csv") == "x,y\n1,2\n");
  f.commit();  // a second commit does nothing
  CHECK(read_file(d / "a.csv") == "x,y\n1,2\n");
}

TEST_CASE("output file: an existing regular file is replaced on commit and untouched until then") {
  const TempDir d;
  std::ofstream(d / "a.csv") << "old\n";
  OutputFile f(d / "a.csv");
  *f.open() << "new\n";
  CHECK(read_file(d / "a.csv") == "old\n");
  f.commit();
  CHECK(read_file(d / "a.csv") == "new\n");
  CHECK(d.names().size() == 1);
}

TEST_CASE("output file: failure leaves nothing, and the target untouched") {
  const TempDir d;
  {
    OutputFile f(d / "gone.csv");
    *f.open() << "partial\n";
  }  // destroyed without commit
  CHECK(d.names().empty());
  std::ofstream(d / "kept.csv") << "old\n";
  {
    OutputFile f(d / "kept.csv");
    *f.open() << "partial\n";
    f.discard();
  }
  CHECK(d.names() == std::vector<std::string>{"kept.csv"});
  CHECK(read_file(d / "kept.csv") == "old\n");
  // One of several files fails: none of them is written.
  OutputFile good(d / "good.csv"), full("/dev/full");
  *good.open() << "fine\n";
  *full.open() << "lost\n";
  const std::string why = error_of([&] { commit_all({&good, &full}); });
  CHECK(contains(why, "'/dev/full': No space left on device"));
  CHECK(d.names() == std::vector<std::string>{"kept.csv"});
}

TEST_CASE("output file: devices are written in place with every write checked") {
  OutputFile null("/dev/null");
  std::ostream* out = null.open();
  REQUIRE(out != nullptr);
  CHECK(null.direct());
  for (int i = 0; i < 100000; ++i) *out << i << '\n';
  null.commit();

  OutputFile full("/dev/full");
  out = full.open();
  CHECK(full.direct());
  for (int i = 0; i < 100000; ++i) *out << i << '\n';  // over the 64 KiB buffer: a write failed already
  CHECK_FALSE(out->good());
  CHECK(contains(error_of([&] { full.check(); }), "'/dev/full': No space left on device"));
  CHECK(contains(error_of([&] { full.commit(); }), "'/dev/full'"));

  OutputFile small("/dev/full");  // the failure shows at the final flush
  *small.open() << "x\n";
  CHECK(contains(error_of([&] { small.commit(); }), "No space left on device"));
  CHECK(OutputFile("").open() == nullptr);
}

TEST_CASE("output file: directories symbolic links and missing folders are refused naming the path") {
  const TempDir d;
  fs::create_directory(d / "sub");
  std::ofstream(d / "victim") << "precious\n";
  fs::create_symlink(d / "victim", d / "link");
  fs::create_symlink(d / "nowhere", d / "dangling");
  fs::create_symlink("/dev/null", d / "to_null");
  CHECK(contains(error_of([&] { OutputFile(d / "sub").open(); }), "'" + (d / "sub") + "': it is a directory"));
  CHECK(contains(error_of([&] { OutputFile(d / "link").open(); }), "'" + (d / "link") + "': it is a symbolic link"));
  CHECK(contains(error_of([&] { OutputFile(d / "dangling").open(); }), "symbolic link"));
  CHECK(contains(error_of([&] { OutputFile(d / "no/x.csv").open(); }), "folder '" + (d / "no") + "' does not exist"));
  CHECK(contains(error_of([&] { check_output_path(d / "sub"); }), "directory"));
  CHECK(contains(error_of([&] { check_output_path(d / "no/x.csv"); }), "does not exist"));
  CHECK(error_of([&] { check_output_path(d / "new.csv"); }).empty());
  CHECK(read_file(d / "victim") == "precious\n");
  CHECK(fs::is_symlink(fs::symlink_status(d / "link")));
  // A link to a character device is written through (nothing is replaced).
  OutputFile to_null(d / "to_null");
  *to_null.open() << "x\n";
  CHECK(to_null.direct());
  to_null.commit();
  CHECK(fs::is_symlink(fs::symlink_status(d / "to_null")));
  // Anything planted at the old predictable name is irrelevant.
  fs::create_symlink(d / "victim", d / "out.csv.partial");
  OutputFile out(d / "out.csv");
  *out.open() << "data\n";
  out.commit();
  CHECK(read_file(d / "out.csv") == "data\n");
  CHECK(read_file(d / "victim") == "precious\n");
}

TEST_CASE("output file: an output that is an input or another output is refused before anything is written") {
  const TempDir d;
  std::ofstream(d / "in.xml") << "<mujoco/>\n";
  fs::create_hard_link(d / "in.xml", d / "hard.xml");
  fs::create_directory(d / "sub");
  auto refusal = [&](const std::vector<NamedPath>& in, const std::vector<NamedPath>& out) {
    return error_of([&] { check_distinct_paths(in, out); });
  };
  const std::vector<NamedPath> scene = {{"the scene file", d / "in.xml"}};
  CHECK(contains(refusal(scene, {{"--out", d / "in.xml"}}),
                 "--out '" + (d / "in.xml") + "' is the same file as the scene file"));
  CHECK(contains(refusal(scene, {{"--out", d / "sub/../in.xml"}}), "same file"));
  CHECK(contains(refusal(scene, {{"--out", d / "hard.xml"}}), "same file"));
  CHECK(contains(refusal(scene, {{"--out", d / "a.csv"}, {"--stats", d / "sub/../a.csv"}}),
                 "--out '" + (d / "a.csv") + "' and --stats"));
  CHECK(refusal(scene, {{"--out", d / "a.csv"}, {"--stats", d / "b.csv"}}).empty());
  CHECK(refusal(scene, {{"--out", "/dev/null"}, {"--stats", "/dev/null"}}).empty());
  CHECK(refusal(scene, {{"--out", ""}, {"--stats", ""}}).empty());
  CHECK(refusal({{"--ctrl-file", ""}}, {{"--out", d / "a.csv"}}).empty());
  const std::string cwd = fs::current_path().string();
  fs::current_path(d.path);
  CHECK(contains(refusal(scene, {{"--out", "in.xml"}}), "same file"));
  CHECK(contains(refusal({}, {{"--out", "new.csv"}, {"--stats", "./new.csv"}}), "same file"));
  fs::current_path(cwd);
}

TEST_CASE("output file: a FIFO is written in place and stays a FIFO") {
  const TempDir d;
  const std::string fifo = d / "pipe";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char buf[256];
    ssize_t n;
    while (fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0) got.append(buf, static_cast<size_t>(n));
    if (fd >= 0) ::close(fd);
  });
  OutputFile f(fifo);
  *f.open() << "through the pipe\n";
  CHECK(f.direct());
  f.commit();
  reader.join();
  CHECK(got == "through the pipe\n");
  struct stat st;
  REQUIRE(lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(d.names() == std::vector<std::string>{"pipe"});
}
