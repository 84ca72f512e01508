// Issue 12, output files and --time-limit, as a user meets them: a result file
// is complete or absent, whatever the target (a full device, a symbolic link,
// a directory, an input of the same command) and however the command ends (an
// error, a signal, the time limit). One row per case: the command, its exit
// status, what its message must name, and the files that must not exist (or
// must be unchanged) afterwards. Every case runs in a fresh mkdtemp folder,
// which must hold no temporary file afterwards.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/cli.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using contactlab::test_cli::CliResult;

// Each case's folder (tests/support/temp_dir.hpp).
struct TempDir : contactlab::test::TempDir {
  TempDir() : contactlab::test::TempDir("contactlab_outputs_") {}
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

bool exists_no_follow(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

// Temporary files left anywhere under dir (the ".NAME.XXXXXXXXXXXX" ones, or
// the old NAME.partial).
std::vector<std::string> leftovers(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name[0] == '.' && !fs::is_symlink(e.symlink_status())) out.push_back(e.path().string());
  }
  return out;
}

// Runs the binary with stdout sent to `stdout_to` and stderr captured.
CliResult run_with_stdout(const std::string& args, const std::string& stdout_to) {
  const contactlab::test_cli::ShellResult r =
      contactlab::test_cli::run_shell(std::string(CONTACTLAB_BINARY) + " " + args + " 2>&1 >" + stdout_to);
  return {WEXITSTATUS(r.raw_status), r.output};
}

// {d} in a row's text is the case's temporary folder, {p} the test problems.
std::string expand(std::string text, const std::string& dir) {
  for (const auto& [key, value] : std::map<std::string, std::string>{{"{d}", dir}, {"{p}", CONTACTLAB_FC3D_DIR}})
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
      text.replace(at, key.size(), value);
  return text;
}

struct Row {
  std::string args;                    // after the binary's path; {d}, {p} expanded
  int status;                          // expected exit status
  std::string message;                 // a substring of stdout+stderr ({d} expanded)
  std::vector<std::string> absent;     // must not exist afterwards (no link followed)
  std::vector<std::string> unchanged;  // same bytes before and after
  std::string stdout_to;               // where stdout goes; empty: captured with stderr
};

// The folder each row starts from: a scene and a ctrl file to overwrite by
// mistake, a victim file behind symbolic links (one planted at the old
// predictable "OUT.partial" name), a folder, and a copy of a test problem.
void populate(const TempDir& d) {
  fs::copy_file(std::string(CONTACTLAB_SCENE_DIR) + "/stacked_boxes.xml", d / "s.xml");
  write_file(d / "ctrl.csv", "step,slide_motor\n0,1\n1,1\n");
  write_file(d / "victim.txt", "precious\n");
  fs::create_symlink(d / "victim.txt", d / "link.csv");
  fs::create_symlink(d / "victim.txt", d / "out.csv.partial");
  fs::create_symlink("/dev/null", d / "null_link");
  fs::create_directory(d / "adir");
  // Result folders of compare and bench-problems with a link where a CSV goes.
  fs::create_directory(d / "cdir");
  fs::create_symlink(d / "victim.txt", d / "cdir/runs.csv");
  fs::create_directory(d / "bdir");
  fs::create_symlink(d / "victim.txt", d / "bdir/results.csv");
  const std::string rover = std::string(CONTACTLAB_FC3D_DIR) + "/Rover4144.dat";
  REQUIRE_MESSAGE(fs::exists(rover), "missing test problem " << rover);
  fs::copy_file(rover, d / "rover.dat");
}

const char* const kRun = "run stacked_boxes --steps 20";

}  // namespace

TEST_CASE("reliability outputs: each bad target fails naming it and leaves no result file") {
  const std::string run = kRun;
  const Row rows[] = {
      // Full devices: every write is checked.
      {run + " --out /dev/full", 1, "'/dev/full': No space left on device", {}, {}, ""},
      {run + " --stats /dev/full --out {d}/t.csv", 1, "'/dev/full'", {"{d}/t.csv"}, {}, ""},
      {"solve {d}/rover.dat --out /dev/full", 1, "'/dev/full'", {}, {"{d}/rover.dat"}, ""},
      // Special files are written in place, never replaced.
      {run + " --out /dev/null --stats /dev/null", 0, "", {}, {}, ""},
      {run + " --out {d}/null_link", 0, "", {}, {}, ""},
      {run + " --out /dev/stdout", 0, "step,time,body,px", {}, {}, ""},
      // A symbolic link planted at the old predictable temporary name is irrelevant.
      {run + " --out {d}/out.csv", 0, "", {}, {"{d}/victim.txt"}, ""},
      // A symbolic link at the target is refused, neither followed nor replaced.
      {run + " --out {d}/link.csv", 1, "'{d}/link.csv': it is a symbolic link", {}, {"{d}/victim.txt"}, ""},
      {"compare box_ramp --combos velocity+desaxce+padmm --dt 0.01 --duration 0.1 --out {d}/cdir", 1,
       "'{d}/cdir/runs.csv': it is a symbolic link", {"{d}/cdir/usable_dt.csv"}, {"{d}/victim.txt"}, ""},
      {"bench-problems {d}/rover.dat --solvers pgs --out {d}/bdir", 1, "'{d}/bdir/results.csv': it is a symbolic link",
       {"{d}/bdir/profile.csv"}, {"{d}/victim.txt"}, ""},
      {"bench-problems {d}/rover.dat --solvers pgs --out /dev/full", 1, "/dev/full", {}, {}, ""},
      // A table printed into a closed pipe (SIGPIPE) while results.csv is being written.
      {"bench-problems {d}/rover.dat {d}/rover.dat {d}/rover.dat --solvers pgs,padmm --out {d}/adir | true", 0, "",
       {"{d}/adir/results.csv"}, {}, ""},
      // Two outputs, or an output and an input, that are the same file.
      {run + " --out {d}/same.csv --stats {d}/same.csv", 1, "--out '{d}/same.csv' and --stats '{d}/same.csv'",
       {"{d}/same.csv"}, {}, ""},
      {run + " --out {d}/same.csv --stats {d}/./adir/../same.csv", 1, "are the same file", {"{d}/same.csv"}, {}, ""},
      {"run {d}/s.xml --steps 5 --out {d}/s.xml", 1, "--out '{d}/s.xml' is the same file as the scene file",
       {}, {"{d}/s.xml"}, ""},
      {"run {d}/s.xml --steps 5 --out {d}/t.csv --stats {d}/adir/../s.xml", 1, "--stats", {"{d}/t.csv"},
       {"{d}/s.xml"}, ""},
      {"run cart_pole --steps 2 --ctrl-file {d}/ctrl.csv --out {d}/ctrl.csv", 1, "--ctrl-file '{d}/ctrl.csv'", {},
       {"{d}/ctrl.csv"}, ""},
      {"solve {d}/rover.dat --out {d}/rover.dat", 1, "the problem file '{d}/rover.dat'", {}, {"{d}/rover.dat"}, ""},
      // Directories and missing folders.
      {run + " --out {d}/adir", 1, "'{d}/adir': it is a directory", {}, {}, ""},
      {run + " --out {d}/adir/", 1, "'{d}/adir/'", {}, {}, ""},
      {run + " --out {d}/missing/t.csv", 1, "folder '{d}/missing' does not exist", {"{d}/missing"}, {}, ""},
      {"solve {d}/rover.dat --out {d}/missing/r.csv", 1, "folder '{d}/missing' does not exist", {"{d}/missing"}, {},
       ""},
      // Standard output that cannot be written fails the command.
      {run + " --json", 1, "cannot write standard output", {}, {}, "/dev/full"},
      {"solve {d}/rover.dat --json", 1, "cannot write standard output", {}, {}, "/dev/full"},
      {"list", 1, "cannot write standard output", {}, {}, "/dev/full"},
      {run + " --out {d}/o.txt --json", 1, "--out '{d}/o.txt' is the file standard output is redirected to", {}, {},
       "{d}/o.txt"},
      // --time-limit: positive and finite, named in the message, exit 2.
      {run + " --time-limit 0 --out {d}/t.csv", 2, "--time-limit 0: ", {"{d}/t.csv"}, {}, ""},
      {run + " --time-limit=-1 --out {d}/t.csv", 2, "--time-limit -1: ", {"{d}/t.csv"}, {}, ""},
      {run + " --time-limit nan --out {d}/t.csv", 2, "--time-limit nan: ", {"{d}/t.csv"}, {}, ""},
      {run + " --time-limit inf --out {d}/t.csv", 2, "--time-limit inf: ", {"{d}/t.csv"}, {}, ""},
      {"solve {d}/rover.dat --time-limit 0", 2, "--time-limit 0: ", {}, {}, ""},
      {"compare box_ramp --time-limit=-inf", 2, "--time-limit -inf: ", {}, {}, ""},
      // The time limit reached: exit 3, the message says where, no result file.
      {"run stacked_boxes --steps 100000000 --time-limit 0.2 --out {d}/t.csv --stats {d}/st.csv", 3,
       "contactlab run: time limit of 0.2 s reached at step ", {"{d}/t.csv", "{d}/st.csv"}, {}, ""},
      {"solve {p}/Capsules-i100-1090.dat --solver padmm --set solver.delassus=matrix_free --time-limit 0.05 --out "
       "{d}/r.csv",
       3, "contactlab solve: time limit of 0.05 s reached", {"{d}/r.csv"}, {}, ""},
      {"compare box_ramp bouncing_ball --combos velocity+desaxce+padmm --dt 0.01,0.005 --time-limit 0.001 --out "
       "{d}/cmp",
       3, "contactlab compare: time limit of 0.001 s reached after run 1", {"{d}/cmp"}, {}, ""},
  };
  for (const Row& row : rows) {
    const TempDir d;
    populate(d);
    const std::string args = expand(row.args, d.path);
    CAPTURE(args);
    std::map<std::string, std::string> before;
    for (const std::string& f : row.unchanged) before[expand(f, d.path)] = read_file(expand(f, d.path));
    const CliResult r = row.stdout_to.empty() ? contactlab::test_cli::run_binary(args)
                                              : run_with_stdout(args, expand(row.stdout_to, d.path));
    CAPTURE(r.output);
    CHECK(r.status == row.status);
    CHECK(r.output.find(expand(row.message, d.path)) != std::string::npos);
    for (const std::string& f : row.absent) CHECK_MESSAGE(!exists_no_follow(expand(f, d.path)), f);
    for (const auto& [path, bytes] : before) CHECK_MESSAGE(read_file(path) == bytes, path);
    CHECK(leftovers(d.path).empty());
  }
}

TEST_CASE("reliability outputs: a successful run replaces a regular file and the link at OUT.partial stays a link") {
  const TempDir d;
  populate(d);
  write_file(d / "out.csv", "old\n");
  const CliResult r = contactlab::test_cli::run_binary(std::string(kRun) + " --out " + (d / "out.csv"));
  REQUIRE(r.status == 0);
  CHECK(read_file(d / "out.csv").rfind("step,time,body,px", 0) == 0);
  CHECK(read_file(d / "victim.txt") == "precious\n");
  CHECK(fs::is_symlink(fs::symlink_status(d / "out.csv.partial")));
  CHECK(leftovers(d.path).empty());
}

TEST_CASE("reliability outputs: SIGTERM SIGINT and SIGHUP remove the temporary file and end the run by the signal") {
  for (const int signo : {SIGTERM, SIGINT, SIGHUP}) {
    CAPTURE(signo);
    const TempDir d;
    const std::string out = d / "traj.csv";
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // The test runner may ignore SIGINT (a background job); the command must see the default.
      for (int s : {SIGTERM, SIGINT, SIGHUP}) signal(s, SIG_DFL);
      const int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 1);
      dup2(devnull, 2);
      execl(CONTACTLAB_BINARY, CONTACTLAB_BINARY, "run", "stacked_boxes", "--steps", "100000000", "--out",
            out.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    // Wait until the temporary file has data in it (the run is writing).
    bool writing = false;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!writing && std::chrono::steady_clock::now() < give_up) {
      for (const auto& e : fs::directory_iterator(d.path)) {
        std::error_code ec;
        if (e.path().filename().string().rfind(".traj.csv.", 0) == 0 && fs::file_size(e.path(), ec) > 0)
          writing = true;
      }
      if (!writing) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(writing);
    REQUIRE(kill(pid, signo) == 0);
    int wstatus = 0;
    REQUIRE(waitpid(pid, &wstatus, 0) == pid);
    CHECK(WIFSIGNALED(wstatus));
    CHECK(WTERMSIG(wstatus) == signo);
    CHECK(!exists_no_follow(out));
    CHECK(leftovers(d.path).empty());
  }
}
