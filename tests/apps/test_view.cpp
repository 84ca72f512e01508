// `contactlab view` and `run --contacts`: the page's folder, bad input refused
// with nothing written, and the page itself loaded in headless Chromium
// (skipped, saying why, without chromium or without the npm three.js).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli.hpp"
#include "support/temp_dir.hpp"

using contactlab::test::TempDir;
using contactlab::test_cli::run_binary;
using contactlab::test_cli::run_shell;
using contactlab::test_cli::ShellResult;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string f;
  std::istringstream in(line);
  while (std::getline(in, f, ',')) out.push_back(f);
  return out;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(fields(line));
  return rows;
}

bool three_installed() {
  return fs::is_regular_file(std::string(CONTACTLAB_VIEWER_DIR) + "/node_modules/three/build/three.min.js");
}

std::string chromium_path() {
  const ShellResult r = run_shell("command -v chromium 2>/dev/null");
  std::string p = r.output;
  while (!p.empty() && (p.back() == '\n' || p.back() == '\r')) p.pop_back();
  return p;
}

// The status element's `key=value` lines.
std::map<std::string, std::string> status_of(const std::string& dom) {
  std::map<std::string, std::string> out;
  const size_t a = dom.find("<pre id=\"status\">");
  if (a == std::string::npos) return out;
  const size_t b = dom.find("</pre>", a);
  std::istringstream in(dom.substr(a + 17, b - a - 17));
  std::string line;
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

// Loads the page in headless Chromium (software WebGL) and returns its status lines.
std::map<std::string, std::string> load_page(const std::string& chromium, const TempDir& dir, const std::string& url) {
  const auto r = run_shell("timeout 90 " + chromium + " --headless --no-sandbox --use-angle=swiftshader "
                           "--enable-unsafe-swiftshader --user-data-dir=" + dir / "profile" +
                           " --virtual-time-budget=2000 --dump-dom '" + url + "' 2>/dev/null");
  CHECK(WEXITSTATUS(r.raw_status) == 0);
  auto st = status_of(r.output);
  CHECK_MESSAGE(st["state"] == "ready", r.output.substr(0, 3000));
  CHECK_MESSAGE(st["errors"] == "0", r.output.substr(0, 3000));
  return st;
}

// The probe's drawn position "p=X,Y,Z" as doubles (JavaScript writes e-7 where the CSV has e-07).
std::vector<double> probed_position(const std::string& probe) {
  const size_t p0 = probe.find(" p="), p1 = probe.find(' ', p0 + 1);
  std::vector<double> out;
  if (p0 == std::string::npos) return out;
  for (const auto& f : fields(probe.substr(p0 + 3, p1 - p0 - 3))) out.push_back(std::strtod(f.c_str(), nullptr));
  return out;
}

}  // namespace

TEST_CASE("run --contacts: each step's contacts with the force that holds the box up") {
  TempDir dir;
  const auto r = run_binary("run box_ramp --steps 20 -q --out " + dir / "t.csv" + " --contacts " + dir / "c.csv");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  std::ifstream in(dir / "c.csv");
  std::string header;
  std::getline(in, header);
  CHECK(header == "step,time,body1,body2,px,py,pz,nx,ny,nz,fx,fy,fz,gap");
  const auto rows = csv_rows(dir / "c.csv");
  REQUIRE(!rows.empty());
  // A 1 kg box resting on the plane: at each step the normal forces on it sum to its weight.
  std::map<long, double> fz;
  for (const auto& row : rows) {
    REQUIRE(row.size() == 14);
    CHECK(row[2] == "world");
    CHECK(row[3] == "box");
    CHECK(std::stod(row[9]) == doctest::Approx(1.0));  // normal from the plane towards the box
    fz[std::stol(row[0])] += std::stod(row[12]);
  }
  CHECK(fz.begin()->first == 1);
  CHECK(fz.rbegin()->first == 20);
  for (const auto& [step, f] : fz) CHECK_MESSAGE(f == doctest::Approx(9.81).epsilon(0.01), "step " << step);
  // Not with a peer engine, whose contacts are not contactlab's.
  const auto peer = run_binary("run box_ramp --steps 2 --peer mujoco --contacts " + dir / "p.csv");
  CHECK(peer.status == 1);
  CHECK(peer.output.find("--contacts") != std::string::npos);
  CHECK(!fs::exists(dir / "p.csv"));
}

TEST_CASE("view: bad input is refused naming the file, line or body, with no folder written") {
  TempDir dir;
  REQUIRE(run_binary("run box_ramp --steps 3 -q --out " + dir / "box.csv" + " --contacts " + dir / "c.csv").status == 0);
  REQUIRE(run_binary("run stacked_boxes --steps 3 -q --out " + dir / "stack.csv").status == 0);
  std::string text;
  {
    std::ifstream in(dir / "box.csv");
    std::stringstream s;
    s << in.rdbuf();
    text = s.str();
  }
  // Line 4 (step 2) with a px that is no number.
  std::ofstream(dir / "bad.csv") << text.substr(0, text.find("\n2,")) << "\n2,0.002,box,zz,0,0.1,1,0,0,0,0,0,0,0,0,0\n";
  std::ofstream(dir / "badc.csv") << "step,time,body1,body2,px,py,pz,nx,ny,nz,fx,fy,fz,gap\n"
                                  << "1,0.001,world,crate,0,0,0,0,0,1,0,0,1,0\n";
  const std::string out = dir / "page";
  struct Case {
    std::string args, message;
    int status;
  };
  const std::vector<Case> cases = {
      {dir / "none.csv" + " --scene box_ramp", "cannot read '" + dir / "none.csv" + "'", 1},
      {dir / "bad.csv" + " --scene box_ramp", dir / "bad.csv" + ":4: column 'px' is 'zz', not a finite number", 1},
      {dir / "box.csv" + " --scene no_such_scene", "unknown scene 'no_such_scene'", 1},
      {dir / "stack.csv" + " --scene box_ramp", dir / "stack.csv" + ":2: body 'bottom' is not a body of scene 'box_ramp'", 1},
      {dir / "box.csv" + " --scene stacked_boxes", dir / "box.csv" + ":2: body 'box' is not a body of scene 'stacked_boxes'", 1},
      {dir / "box.csv" + " " + dir / "stack.csv" + " --scene box_ramp", dir / "stack.csv" + ":2: body 'bottom'", 1},
      {dir / "box.csv" + " --scene box_ramp --contacts " + dir / "badc.csv",
       dir / "badc.csv" + ":2: body 'crate' is not a body of scene 'box_ramp'", 1},
      {dir / "box.csv", "missing --scene SCENE", 2},
      {"--scene box_ramp", "missing TRAJ.csv", 2},
  };
  for (const Case& c : cases) {
    const auto r = run_binary("view " + c.args + " --out " + out);
    CAPTURE(c.args);
    CHECK(r.status == c.status);
    CHECK_MESSAGE(r.output.find(c.message) != std::string::npos, r.output);
    CHECK(!fs::exists(out));
  }
  // Without three.js: the command says what to run.
  const auto r = run_shell("CONTACTLAB_THREE_JS=" + dir / "three.min.js" + " " + CONTACTLAB_BINARY + " view " +
                           dir / "box.csv" + " --scene box_ramp --out " + out + " 2>&1");
  CHECK(WEXITSTATUS(r.raw_status) == 1);
  CHECK_MESSAGE(r.output.find("three.js is missing") != std::string::npos, r.output);
  CHECK(r.output.find("run scripts/setup.sh") != std::string::npos);
  CHECK(!fs::exists(out));
  // Nothing left beside it either (the staging folder is removed).
  for (const auto& name : dir.names()) CHECK_MESSAGE(name.rfind(".contactlab_view", 0) != 0, name);
}

TEST_CASE("view: the page of a built-in scene loads in headless Chromium without errors and draws the CSV's pose") {
  if (!three_installed()) {
    MESSAGE("three.js is not installed in viewer/node_modules (scripts/setup.sh): the viewer page test is skipped");
    return;
  }
  const std::string chromium = chromium_path();
  if (chromium.empty()) {
    MESSAGE("chromium is not installed (scripts/setup.sh): the headless viewer page test is skipped");
    return;
  }
  TempDir dir;
  const std::string traj = dir / "t.csv", traj2 = dir / "t2.csv", contacts = dir / "c.csv", page = dir / "page";
  REQUIRE(run_binary("run box_ramp --steps 2000 -q --out " + traj + " --contacts " + contacts).status == 0);
  REQUIRE(run_binary("run box_ramp --steps 100 --dt 0.004 -q --out " + traj2).status == 0);
  const auto v = run_binary("view " + traj + " " + traj2 + " --scene box_ramp --contacts " + contacts + " --out " + page);
  REQUIRE_MESSAGE(v.status == 0, v.output);
  for (const char* f : {"index.html", "viewer.js", "three.min.js", "data.js"}) CHECK(fs::is_regular_file(page + "/" + f));

  // The CSV's row at step 1800 (t = 1.8 s): the pose the page must draw then.
  const auto rows = csv_rows(traj);
  REQUIRE(rows.size() == 2001);
  const auto& at = rows[1800];
  REQUIRE(at[0] == "1800");
  long contacts_at = 0;
  for (const auto& row : csv_rows(contacts)) contacts_at += row[0] == "1800";
  REQUIRE(contacts_at > 0);

  auto st = load_page(chromium, dir, "file://" + page + "/index.html?t=" + at[1] + "&probe=box");
  CHECK(st["scene"] == "box_ramp");
  CHECK(st["trajectories"] == "2");
  CHECK(st["frames"] == "2001");
  CHECK(st["bodies"] == "1");
  CHECK(st["geoms"] == "2");
  CHECK(st["contact_rows"] == std::to_string(csv_rows(contacts).size()));
  // The box's object in the page's scene graph at that time: the CSV's numbers, exactly.
  const std::string probe = st["probe"];
  CHECK_MESSAGE(probe.find("box t=" + at[1] + " step=1800 ") == 0, probe);
  const auto drawn = probed_position(probe);
  REQUIRE(drawn.size() == 3);
  for (int k = 0; k < 3; ++k) CHECK(drawn[k] == std::strtod(at[3 + k].c_str(), nullptr));
  CHECK(std::strtod(at[3].c_str(), nullptr) > 0.01);  // the push has moved the box by then: not the initial pose
  CHECK(probe.find(" contacts=" + std::to_string(contacts_at)) != std::string::npos);
}

TEST_CASE("view: every geom type of a scene file, a mesh included, is drawn in headless Chromium without errors") {
  TempDir dir;
  const std::string scene = std::string(CONTACTLAB_TEST_DATA) + "/viewer_shapes.xml";
  const std::string traj = dir / "t.csv", page = dir / "page";
  REQUIRE(run_binary("run " + scene + " --steps 150 -q --out " + traj).status == 0);
  if (!three_installed()) {
    MESSAGE("three.js is not installed in viewer/node_modules (scripts/setup.sh): the viewer shapes test is skipped");
    return;
  }
  const auto v = run_binary("view " + traj + " --scene " + scene + " --out " + page);
  REQUIRE_MESSAGE(v.status == 0, v.output);
  // data.js: each geom with its type, the mesh with its hull's vertices and
  // faces, the height field with its 9 grid points and 8 triangles.
  std::ifstream in(page + "/data.js");
  std::stringstream text;
  text << in.rdbuf();
  for (const char* type : {"plane", "hfield", "mesh", "capsule", "cylinder", "sphere", "box"})
    CHECK_MESSAGE(text.str().find(std::string("\"type\":\"") + type + "\"") != std::string::npos, type);
  CHECK(text.str().find("\"vertices\":[") != std::string::npos);
  CHECK(text.str().find("\"faces\":[[") != std::string::npos);
  CHECK(text.str().find("\"faces\":[[0,4,3],[0,1,4],[1,5,4],[1,2,5],[3,7,6],[3,4,7],[4,8,7],[4,5,8]]") !=
        std::string::npos);
  const std::string chromium = chromium_path();
  if (chromium.empty()) {
    MESSAGE("chromium is not installed (scripts/setup.sh): the headless viewer shapes test is skipped");
    return;
  }
  const auto rows = csv_rows(traj);
  REQUIRE(rows.size() == 151 * 5);
  const auto& at = rows[100 * 5];  // step 100, the first body: the mesh
  REQUIRE(at[0] == "100");
  REQUIRE(at[2] == "rock");
  auto st = load_page(chromium, dir, "file://" + page + "/index.html?t=" + at[1] + "&probe=rock");
  CHECK(st["bodies"] == "5");
  CHECK(st["geoms"] == "7");
  CHECK(st["frames"] == "151");
  const auto drawn = probed_position(st["probe"]);
  REQUIRE(drawn.size() == 3);
  for (int k = 0; k < 3; ++k) CHECK(drawn[k] == std::strtod(at[3 + k].c_str(), nullptr));
  CHECK(std::abs(drawn[2] - std::strtod(rows[0][5].c_str(), nullptr)) > 1e-3);  // moved from its start by then
}
