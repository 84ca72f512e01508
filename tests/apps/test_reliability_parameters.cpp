// Issue 12, "bad input never runs and never crashes": run parameters and
// model parameters out of their ranges (sim/run_parameters.hpp,
// core/model_limits.hpp). One row per case: the command line, a substring
// that must name the offending input (flag, file:line and attribute, key),
// a non-zero exit status, and no output file left behind.
#include <doctest/doctest.h>

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/cli.hpp"

namespace {

namespace fs = std::filesystem;
using contactlab::test_cli::run_binary;

// A fresh folder for the case files, removed at the end of the test case.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/contactlab_reliability_XXXXXX";
    const char* made = mkdtemp(tmpl);
    REQUIRE(made != nullptr);
    path = made;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& name, const std::string& contents) const {
    const std::string p = path + "/" + name;
    std::ofstream(p, std::ios::binary) << contents;
    return p;
  }
};

// One sliding box with a motor; each field replaces one line (line numbers in the comments).
struct Mjcf {
  std::string gravity = "0 0 -9.81";                                                   // line 2
  std::string body_pos = "0 0 0.5";                                                    // line 5
  std::string mass = "<geom name=\"box\" type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1\"/>";  // line 7
  std::string actuator = "<motor name=\"push\" joint=\"slider\" gear=\"1\"/>";            // line 11
  std::string qvel = "0";                                                              // line 14
  std::string text() const {
    return "<mujoco model=\"t\">\n"
           "  <option timestep=\"0.01\" gravity=\"" + gravity + "\"/>\n"
           "  <worldbody>\n"
           "    <geom name=\"floor\" type=\"plane\" size=\"1 1 0.1\"/>\n"
           "    <body name=\"top\" pos=\"" + body_pos + "\">\n"
           "      <joint name=\"slider\" type=\"slide\" axis=\"1 0 0\"/>\n"
           "      " + mass + "\n"
           "    </body>\n"
           "  </worldbody>\n"
           "  <actuator>\n"
           "    " + actuator + "\n"
           "  </actuator>\n"
           "  <keyframe>\n"
           "    <key name=\"k\" qpos=\"0\" qvel=\"" + qvel + "\"/>\n"
           "  </keyframe>\n"
           "</mujoco>\n";
  }
};

struct Row {
  std::string args;      // after the binary; "OUT" is replaced by an output path where the command has one
  std::string expected;  // names the offending input
};

void check_refused(const Row& row, const std::string& out) {
  std::string args = row.args;
  const size_t at = args.find("OUT");
  if (at != std::string::npos) args.replace(at, 3, out);
  CAPTURE(args);
  std::error_code ec;
  fs::remove_all(out, ec);
  const contactlab::test_cli::CliResult r = run_binary(args);
  CAPTURE(r.output);
  CHECK(r.status != 0);
  CHECK(r.output.find(row.expected) != std::string::npos);
  CHECK(!fs::exists(out));
  CHECK(!fs::exists(out + ".partial"));
  CHECK(r.output.find("\"gradient\"") == std::string::npos);  // grad printed no result
}

}  // namespace

TEST_CASE("reliability: run parameters out of range are refused naming the flag and the value") {
  TempDir dir;
  const std::string ctrl_neg = dir.file("neg.csv", "step,push\n0,1\n-1,2\n");
  const std::string ctrl_frac = dir.file("frac.csv", "step,push\n0,1\n1.5,2\n");
  const std::string ctrl_dup = dir.file("dup.csv", "step,push\n0,1\n0,2\n");
  const std::string ctrl_big = dir.file("big.csv", "step,push\n1e300,2\n");
  const std::string ctrl_late = dir.file("late.csv", "step,push\n0,1\n2,1\n");
  const std::string ctrl_value = dir.file("value.csv", "step,push\n0,1e308\n");
  const std::string ctrl_name = dir.file("name.csv", std::string("step,pu\x01sh\n0,1\n"));
  const std::string run = "run box_ramp --out OUT ";
  const std::string gradcheck = "gradcheck box_ramp --steps 5 --loss final:box.px --wrt param:geom.box.friction ";
  const Row rows[] = {
      {run + "--dt 0", "--dt 0:"},
      {run + "--dt 1e300", "--dt 1e+300:"},
      {run + "--dt nan", "--dt nan:"},
      {run + "--dt inf", "--dt inf:"},
      {run + "--dt 2", "--dt 2:"},
      {run + "--dt 1e-10", "--dt 1e-10:"},
      {run + "--duration nan", "--duration nan:"},
      {run + "--duration=-1", "--duration -1:"},
      {run + "--duration=-5", "--duration -5:"},
      {run + "--duration inf", "--duration inf:"},
      {run + "--duration 1e308", "--duration 1e+308:"},
      {run + "--duration 1e6 --dt 1e-9", "--duration 1e+06 at a time step of 1e-09 s"},
      {run + "--steps=-1", "--steps -1:"},
      {run + "--steps -1", "--steps -1:"},
      {run + "--duration -1", "--duration -1:"},
      {run + "--steps 2 --set geom.box.friction=1e308", "geom.box.friction"},
      {"run wheeled_pallet --steps 2 --set actuator.drive_left.kv=1e308 --out OUT", "actuator.drive_left.kv"},
      {"run wheeled_pallet --steps 2 --set actuator.drive_left.kv=-1 --out OUT", "actuator.drive_left.kv"},
      {run + "--steps 2 --set body.box.mass=1e308", "body.box.mass"},
      {run + "--steps=-5", "--steps -5:"},
      {run + "--steps 2000000000", "--steps 2000000000:"},
      {run + "--steps 2 --ctrl push=1e308", "--ctrl push=1e308:"},
      {run + "--steps 2 --ctrl push=nan", "--ctrl push=nan"},
      {run + "--steps 2 --ctrl-file " + ctrl_neg, "neg.csv:3: step '-1'"},
      {run + "--steps 2 --ctrl-file " + ctrl_frac, "frac.csv:3: step '1.5'"},
      {run + "--steps 2 --ctrl-file " + ctrl_dup, "dup.csv:3: step 0 is given twice"},
      {run + "--steps 2 --ctrl-file " + ctrl_big, "big.csv:2: step '1e300'"},
      {run + "--steps 2 --ctrl-file " + ctrl_late, "late.csv:3: step 2 is past the run's last step"},
      {run + "--steps 2 --ctrl-file " + ctrl_value, "value.csv:2: column 2: a control must be finite"},
      {run + "--steps 2 --ctrl-file " + ctrl_name, "unknown actuator 'pu\\x01sh'"},
      {"grad box_ramp --steps 5 --loss final:box.px --wrt ctrl:push@999999",
       "--wrt ctrl:push@999999: step 999999 is past the run's last step (the run takes 5 steps"},
      {"grad box_ramp --steps 5 --loss final:box.px --wrt ctrl:push@5", "--wrt ctrl:push@5: step 5"},
      {"grad box_ramp --dt 0 --loss final:box.px", "--dt 0:"},
      {"grad box_ramp --steps 5 --loss final:box.px --checkpoint=-1", "--checkpoint -1:"},
      {gradcheck + "--eps 10", "--eps 10:"},
      {gradcheck + "--eps 0", "--eps 0:"},
      {gradcheck + "--eps 0.9", "--eps 0.9: too large: param:geom.box.friction perturbed by -0.9"},
      {gradcheck + "--tol=-1", "--tol -1:"},
      {gradcheck + "--tol nan", "--tol nan:"},
      {"gradcheck box_ramp --steps=-1 --loss final:box.px --wrt ctrl:push", "--steps -1:"},
      {"compare box_ramp --combos velocity+desaxce+padmm --dt 0.01,0 --out OUT", "--dt 0:"},
      {"compare box_ramp --combos velocity+desaxce+padmm --dt 1e300 --out OUT", "--dt 1e+300:"},
      {"compare box_ramp --combos velocity+desaxce+padmm --duration 1e308 --out OUT", "--duration 1e+308:"},
      {"compare box_ramp --combos velocity+desaxce+padmm --reference velocity+desaxce+padmm@1e300 --out OUT",
       "--reference velocity+desaxce+padmm@1e300: time step"},
      {"solve " + dir.path + "/none.dat --tol=-1 --out OUT", "--tol -1:"},
      {"solve " + dir.path + "/none.dat --tol nan --out OUT", "--tol nan:"},
      {"bench-problems " + dir.path + " --tol=-1 --out OUT", "--tol -1:"},
      {"bench-problems " + dir.path + " --tol inf --out OUT", "--tol inf:"},
  };
  for (const Row& row : rows) check_refused(row, dir.path + "/out");
}

TEST_CASE("reliability: a control file written with CRLF line ends and a byte order mark runs") {
  TempDir dir;
  const std::string crlf = dir.file("crlf.csv", "\xEF\xBB\xBFstep,push\r\n0,5\r\n1,5\r\n");  // with a BOM
  const std::string lf = dir.file("lf.csv", "step,push\n0,5\n1,5\n");
  const std::string out_crlf = dir.path + "/crlf_out.csv", out_lf = dir.path + "/lf_out.csv";
  const auto a = run_binary("run box_ramp --steps 3 --ctrl-file " + crlf + " --out " + out_crlf);
  CAPTURE(a.output);
  CHECK(a.status == 0);
  const auto b = run_binary("run box_ramp --steps 3 --ctrl-file " + lf + " --out " + out_lf);
  CHECK(b.status == 0);
  std::ifstream fa(out_crlf), fb(out_lf);
  const std::string ta((std::istreambuf_iterator<char>(fa)), {}), tb((std::istreambuf_iterator<char>(fb)), {});
  CHECK(!ta.empty());
  CHECK(ta == tb);  // the same controls as the LF file
}

TEST_CASE("reliability: model parameters out of range are refused at load naming file line and attribute") {
  TempDir dir;
  struct ModelRow {
    std::string name, extra_args, expected;  // expected after "NAME.xml:"
    Mjcf model;
  };
  std::vector<ModelRow> rows;
  auto add = [&](const std::string& name, const std::string& expected, auto edit, const std::string& extra = "") {
    Mjcf m;
    edit(m);
    rows.push_back({name, extra, expected, m});
  };
  add("kp", "11: attribute 'kp' of <position>", [](Mjcf& m) { m.actuator = "<position name=\"push\" joint=\"slider\" kp=\"-1\"/>"; });
  add("kv", "11: attribute 'kv' of <velocity>", [](Mjcf& m) { m.actuator = "<velocity name=\"push\" joint=\"slider\" kv=\"-1\"/>"; });
  add("pos", "5: attribute 'pos' of <body> [0]", [](Mjcf& m) { m.body_pos = "1e308 0 0"; });
  add("qvel", "14: attribute 'qvel' of <key> [0]", [](Mjcf& m) { m.qvel = "1e300"; });
  add("gravity", "2: attribute 'gravity' of <option> [2]", [](Mjcf& m) { m.gravity = "0 0 1e308"; });
  add("mass", "7: attribute 'mass' of <geom>",
      [](Mjcf& m) { m.mass = "<geom name=\"box\" type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1e308\"/>"; });
  add("inertial_mass", "7: attribute 'mass' of <inertial>",
      [](Mjcf& m) { m.mass = "<inertial pos=\"0 0 0\" mass=\"1e308\" diaginertia=\"1 1 1\"/>"; });
  add("inertia", "7: attribute 'diaginertia' of <inertial>",
      [](Mjcf& m) { m.mass = "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1e308 1e308 1e308\"/>"; });
  add("triangle", "7: <body> 'top': principal moments",
      [](Mjcf& m) { m.mass = "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 3\"/>"; });
  add("size", "7: attribute 'size' of <geom> [0]",
      [](Mjcf& m) { m.mass = "<geom name=\"box\" type=\"box\" size=\"1e308 0.1 0.1\" mass=\"1\"/>"; });
  add("friction", "7: attribute 'friction' of <geom>",
      [](Mjcf& m) { m.mass = "<geom name=\"box\" type=\"box\" size=\"0.1 0.1 0.1\" mass=\"1\" friction=\"1e308\"/>"; });
  add("gear", "11: attribute 'gear' of <motor> [0]",
      [](Mjcf& m) { m.actuator = "<motor name=\"push\" joint=\"slider\" gear=\"1e308\"/>"; });
  add("set_mass", "", [](Mjcf&) {}, " --set body.top.mass=1e308");
  for (const ModelRow& row : rows) {
    const std::string path = dir.file(row.name + ".xml", row.model.text());
    const std::string expected =
        row.expected.empty() ? "body.top.mass" : row.name + ".xml:" + row.expected;
    check_refused({"run " + path + " --steps 2 --out OUT" + row.extra_args, expected}, dir.path + "/out");
  }
  // The same file with valid values runs.
  const std::string ok = dir.file("ok.xml", Mjcf().text());
  CHECK(run_binary("run " + ok + " --steps 2").status == 0);
  // --ctrl is bounded by the same rule whatever the model.
  check_refused({"run " + ok + " --steps 2 --ctrl push=1e308 --out OUT", "--ctrl push=1e308:"}, dir.path + "/out");
}

TEST_CASE("reliability: a file that is not XML is reported as such") {
  TempDir dir;
  std::string garbage;
  for (int i = 0; i < 2048; ++i) garbage += static_cast<char>((i * 7919 + 13) % 256);  // NUL bytes included
  const std::string binary = dir.file("garbage.xml", garbage);
  const std::string text = dir.file("text.xml", "hello, not xml\n");
  const std::string empty = dir.file("empty.xml", "");
  check_refused({"run " + binary + " --steps 2 --out OUT", "garbage.xml: not an XML file"}, dir.path + "/out");
  check_refused({"run " + text + " --steps 2 --out OUT", "text.xml: not an XML file"}, dir.path + "/out");
  check_refused({"run " + empty + " --steps 2 --out OUT", "empty.xml: empty file"}, dir.path + "/out");
  check_refused({"grad " + binary + " --steps 2 --loss final:top.px", "garbage.xml: not an XML file"},
                dir.path + "/out");
}
