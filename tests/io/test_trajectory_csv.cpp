// The trajectory and contacts CSV readers `contactlab view` uses: what run
// writes reads back, and each malformed line is refused naming file and line.
#include <doctest/doctest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "io/trajectory_csv.hpp"
#include "support/temp_dir.hpp"

using namespace contactlab;

namespace {

const char* const kHeader = "step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";

std::string row(int step, const char* time, const char* body, const char* px = "0.5") {
  return std::to_string(step) + "," + time + "," + body + "," + px + ",2,3,1,0,0,0,0,0,0,0,0,0\n";
}

std::string write(const test::TempDir& dir, const std::string& text) {
  const std::string path = dir / "t.csv";
  std::ofstream(path) << text;
  return path;
}

bool no_sites(const std::string& name) { return name.rfind("site.", 0) == 0; }

// The reader's message for `text`, which must be refused.
std::string refusal(const std::string& text) {
  test::TempDir dir;
  const std::string path = write(dir, text);
  try {
    read_trajectory_csv(path, no_sites);
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    CHECK_MESSAGE(msg.rfind(path + ":", 0) == 0, msg);
    return msg.substr(path.size());
  }
  FAIL("accepted: " << text);
  return "";
}

}  // namespace

TEST_CASE("trajectory csv: rows read back per step in the file's body order, site rows left out") {
  test::TempDir dir;
  const std::string text = std::string(kHeader) + row(0, "0", "a", "0.25") + row(0, "0", "b") + row(0, "0", "site.s") +
                           row(1, "0.001", "a", "6.026855223624855e-22") + row(1, "0.001", "b") +
                           row(1, "0.001", "site.s");
  const TrajectoryFile t = read_trajectory_csv(write(dir, text), no_sites);
  REQUIRE(t.bodies.size() == 2);
  CHECK(t.bodies[0] == "a");
  CHECK(t.bodies[1] == "b");
  CHECK(t.body_lines[1] == 3);
  REQUIRE(t.frames.size() == 2);
  CHECK(t.frames[1].step == 1);
  CHECK(t.frames[1].time == 0.001);
  REQUIRE(t.frames[1].poses.size() == 14);
  CHECK(t.frames[0].poses[0] == 0.25);
  CHECK(t.frames[1].poses[0] == 6.026855223624855e-22);  // the written double, exactly
  CHECK(t.frames[1].poses[7 + 2] == 3);
}

TEST_CASE("trajectory csv: a malformed file is refused naming its line") {
  const std::string h = kHeader;
  CHECK(refusal("") == ":1: empty file, expected the trajectory CSV (contactlab run --out) header "
                       "'step,time,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz'");
  CHECK(refusal("step,time,body\n").find(":1: header is 'step,time,body'") == 0);
  CHECK(refusal(h) == ":1: no rows after the header");
  CHECK(refusal(h + row(0, "0", "a", "abc")) == ":2: column 'px' is 'abc', not a finite number");
  CHECK(refusal(h + row(0, "0", "a", "nan")) == ":2: column 'px' is 'nan', not a finite number");
  CHECK(refusal(h + "0,0,a,1,2\n") == ":2: 5 fields, expected 16");
  CHECK(refusal(h + row(1, "0", "a")) == ":2: step 1 where step 0 was expected");
  CHECK(refusal(h + row(0, "0", "a") + row(2, "0.1", "a")) == ":3: step 2 where step 1 was expected");
  CHECK(refusal(h + row(0, "0.1", "a") + row(1, "0", "a")) == ":3: time 0 is earlier than the previous step's");
  CHECK(refusal(h + row(0, "0", "a") + row(0, "0", "a")) == ":3: body 'a' listed twice in step 0");
  CHECK(refusal(h + row(0, "0", "a") + row(0, "0", "b") + row(1, "1", "b")) ==
        ":4: body 'b' where step 0 has 'a'");
  CHECK(refusal(h + row(0, "0", "a") + row(0, "0", "b") + row(1, "1", "a")) ==
        ":4: the last step has 1 body rows, step 0 has 2");
  CHECK(refusal(h + row(0, "0", "a") + row(0, "0", "b") + row(1, "1", "a") + row(2, "2", "a")) ==
        ":5: step 1 has 1 body rows, step 0 has 2");
  CHECK(refusal(h + row(0, "0", "a") + "\n") == ":3: empty line");
}

TEST_CASE("contacts csv: rows read back, a bad row is refused naming its line") {
  test::TempDir dir;
  const std::string path = dir / "c.csv";
  std::ofstream(path) << kContactsCsvHeader << "\n1,0.001,world,box,-0.1,0,0,0,0,1,0,0,2.5,-1e-9\n"
                      << "2,0.002,world,box,0.1,0,0,0,0,1,0,0,2.25,0\n";
  const ContactsFile c = read_contacts_csv(path);
  REQUIRE(c.rows.size() == 2);
  CHECK(c.rows[0].body1 == "world");
  CHECK(c.rows[0].body2 == "box");
  CHECK(c.rows[0].point[0] == -0.1);
  CHECK(c.rows[1].force[2] == 2.25);
  CHECK(c.rows[0].gap == -1e-9);
  std::ofstream(path) << kContactsCsvHeader << "\n2,0.002,world,box,0.1,0,0,0,0,1,0,0,2.25,0\n"
                      << "3,0.003,world,box,0.1,0,0,0,0,1,0,0,x,0\n";
  CHECK_THROWS_WITH_AS(read_contacts_csv(path), (path + ":3: column 'fz' is 'x', not a finite number").c_str(),
                       std::runtime_error);
  std::ofstream(path) << kContactsCsvHeader << "\n2,0.002,world,box,0.1,0,0,0,0,1,0,0,2.25,0\n"
                      << "1,0.001,world,box,0.1,0,0,0,0,1,0,0,1,0\n";
  CHECK_THROWS_WITH_AS(read_contacts_csv(path), (path + ":3: step 1 after step 2").c_str(), std::runtime_error);
}
