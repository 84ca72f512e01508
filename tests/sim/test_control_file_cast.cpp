// A control file (`contactlab run --ctrl-file`) whose step column holds a
// number beyond the range of long: read_control_table (sim/rollout_setup.cpp)
// once cast the step to long through strtod, undefined behaviour for 1e300
// that GCC's -fsanitize=undefined does not see and clang's float-cast-overflow
// does (`scripts/sanitize.sh --clang`). Step numbers are now parsed as decimal
// integers (sim/run_parameters.hpp: parse_step_number): the file is refused,
// naming the file, its line and the text, and no cast happens.
#include <doctest/doctest.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/mjcf.hpp"
#include "sim/rollout_setup.hpp"

using namespace contactlab;

TEST_CASE("control file: a step of 1e300 is refused naming file and line, never cast out of range") {
  const Model model = load_mjcf_string(
      "<mujoco><worldbody><body><joint name=\"j\" type=\"hinge\"/><geom type=\"sphere\" size=\"0.1\" mass=\"1\"/>"
      "</body></worldbody><actuator><motor name=\"m\" joint=\"j\"/></actuator></mujoco>",
      "motor.xml");
  const std::string path = (std::filesystem::temp_directory_path() / "contactlab_ctrl_step_1e300.csv").string();
  std::ofstream(path) << "step,m\n1e300,1\n";
  std::string message;
  try {
    parse_control_overrides({}, path, model);
  } catch (const std::exception& e) {
    message = e.what();
  }
  CHECK(message.find(path + ":2") != std::string::npos);
  CHECK(message.find("1e300") != std::string::npos);
  std::filesystem::remove(path);
}
