// A control file (`contactlab run --ctrl-file`) whose step column holds a
// number beyond the range of long: read_control_table (sim/rollout_setup.cpp)
// casts the step to long, which for 1e300 is undefined behaviour. The test
// asks only that the file is refused with a message naming it, or read, never
// undefined behaviour: it passes in the normal build either way, and under
// `scripts/sanitize.sh --full --clang` clang's float-cast-overflow check fails
// it until the cast is guarded (GCC's -fsanitize=undefined has no such check).
#include <doctest/doctest.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/mjcf.hpp"
#include "sim/rollout_setup.hpp"

using namespace contactlab;

TEST_CASE("control file: a step of 1e300 is refused or read, never cast out of range") {
  const Model model = load_mjcf_string(
      "<mujoco><worldbody><body><joint name=\"j\" type=\"hinge\"/><geom type=\"sphere\" size=\"0.1\" mass=\"1\"/>"
      "</body></worldbody><actuator><motor name=\"m\" joint=\"j\"/></actuator></mujoco>",
      "motor.xml");
  const std::string path = (std::filesystem::temp_directory_path() / "contactlab_ctrl_step_1e300.csv").string();
  std::ofstream(path) << "step,m\n1e300,1\n";
  try {
    const ControlOverrides controls = parse_control_overrides({}, path, model);
    CHECK(controls.table.size() <= 1);
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).find(path) != std::string::npos);
  }
  std::filesystem::remove(path);
}
