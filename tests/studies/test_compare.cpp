// `contactlab compare` and its library part (studies/comparison.hpp): combination
// parsing from the factories, the error column against an analytic reference
// computed here independently, the reference-run error, failures reported as
// rows, and the CLI's output files.
#include <doctest/doctest.h>

#include "support/cli.hpp"
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/mjcf.hpp"
#include "io/scene_library.hpp"
#include "sim/registry.hpp"
#include "studies/comparison.hpp"

using namespace contactlab;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

using Result = contactlab::test_cli::CliResult;
Result run_cli(const std::string& args) { return contactlab::test_cli::run_binary(args); }

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("compare: COMBO parsing names unknown parts and keeps refused triples with their reason") {
  const Combo c = parse_combo("velocity+desaxce+padmm");
  CHECK(c.scheme == "velocity");
  CHECK(c.contact == "desaxce");
  CHECK(c.solver == "padmm");
  CHECK(c.label() == "velocity+desaxce+padmm");
  CHECK(combo_refusal(c).empty());

  const std::string unknown = error_of([] { parse_combo("velocity+desaxce+nope"); });
  CHECK(unknown.find("nope") != std::string::npos);
  CHECK(unknown.find("solver") != std::string::npos);
  CHECK(error_of([] { parse_combo("warp+desaxce+padmm"); }).find("warp") != std::string::npos);
  CHECK(error_of([] { parse_combo("velocity+desaxce"); }).find("scheme+contact+solver") != std::string::npos);
  CHECK(error_of([] { parse_combo("velocity++padmm"); }).find("scheme+contact+solver") != std::string::npos);

  // Refused triples parse; the reason comes from the factories.
  const Combo refused = parse_combo("velocity+desaxce+newton");
  const std::string why = combo_refusal(refused);
  CHECK(why.find("newton") != std::string::npos);
  CHECK(why.find("desaxce") != std::string::npos);

  const ComboAtDt ref = parse_combo_at_dt("velocity+ccp+pgs@0.0001");
  CHECK(ref.combo.label() == "velocity+ccp+pgs");
  CHECK(ref.dt == doctest::Approx(1e-4));
  CHECK(error_of([] { parse_combo_at_dt("velocity+ccp+pgs"); }).find("COMBO@DT") != std::string::npos);
  CHECK(error_of([] { parse_combo_at_dt("velocity+ccp+pgs@-1"); }).find("-1") != std::string::npos);

  // `all` enumerates the factories: every triple is either valid or refused.
  std::vector<std::string> refused_notes;
  const std::vector<Combo> valid = valid_combos(&refused_notes);
  CHECK(valid.size() + refused_notes.size() ==
        scheme_names().size() * contact_model_names().size() * solver_names().size());
  bool has_default = false;
  for (const Combo& v : valid) {
    CHECK(combo_refusal(v).empty());
    has_default = has_default || v.label() == "velocity+desaxce+padmm";
  }
  CHECK(has_default);
  bool noted = false;
  for (const std::string& n : refused_notes) noted = noted || n.rfind("velocity+desaxce+newton: ", 0) == 0;
  CHECK(noted);
}

TEST_CASE("compare: the analytic references are the values stated in the scene files") {
  struct Case {
    const char* scene;
    double value;  // from the scene file's header comment
  };
  for (const Case c : {Case{"box_ramp", 0.249792}, Case{"bouncing_ball", 0.64}, Case{"stacked_boxes", 0.3},
                       Case{"pendulum", 2.011194}, Case{"four_bar", 1.234170}}) {
    CAPTURE(c.scene);
    const Model m = load_mjcf_file(resolve_scene(c.scene));
    ScalarReference ref;
    std::string note;
    REQUIRE(analytic_reference(c.scene, m, m.default_duration, &ref, &note));
    CHECK(ref.value == doctest::Approx(c.value).epsilon(2e-6));
    // Too short a run cannot settle the quantity.
    CHECK(!analytic_reference(c.scene, m, 0.5 * ref.settled_time, &ref, &note));
    CHECK(note.find("--duration") != std::string::npos);
  }
  ScalarReference ref;
  CHECK(!analytic_reference("cart_pole", load_mjcf_file(resolve_scene("cart_pole")), 10, &ref, nullptr));
}

TEST_CASE("compare: box_ramp's error column is the distance to the analytic sliding distance") {
  CompareSettings settings;
  settings.combos = {parse_combo("velocity+desaxce+padmm"), parse_combo("velocity+desaxce+pgs")};
  settings.dts = {0.002, 0.004};
  settings.duration = 2.5;  // the box stops at 2.1667 s
  const SceneComparison sc = compare_scene("box_ramp", settings);
  REQUIRE(sc.runs.size() == 4);
  REQUIRE(sc.reference.kind == ErrorKind::Analytic);

  // MATH.md E.2 with the scene's parameters: mu = 0.5, g = 9.81, T_r = 2 s, beta = 1.5.
  const double mu = 0.5, g = 9.81, T_r = 2, beta = 1.5;
  const double x_total = mu * g * T_r * T_r * std::pow(beta - 1, 3) * (3 * beta + 1) / (24 * beta * beta);
  CHECK(x_total == doctest::Approx(0.249792).epsilon(1e-6));  // the value in scenes/box_ramp.xml
  CHECK(sc.reference.analytic.value == doctest::Approx(x_total).epsilon(1e-12));

  for (const ComparisonRun& r : sc.runs) {
    CAPTURE(r.combo);
    CAPTURE(r.dt);
    REQUIRE(r.ok);
    CHECK(r.error_kind == ErrorKind::Analytic);
    CHECK(r.steps == std::lround(2.5 / r.dt));
    // The sliding distance measured here by an independent run of the same parts.
    const Combo c = parse_combo(r.combo);
    Simulation sim(load_mjcf_file(resolve_scene("box_ramp")), c.parts());
    const int box = sim.model().find_body("box");
    const double x0 = sim.data().origin_position(sim.model(), box).x();
    for (long s = 0; s < r.steps; ++s) {
      sim.apply_scheduled_controls();
      sim.step(r.dt);
    }
    const double slide = sim.data().origin_position(sim.model(), box).x() - x0;
    CHECK(r.measured == doctest::Approx(slide).epsilon(1e-12));
    CHECK(r.error == doctest::Approx(std::abs(slide - x_total)).epsilon(1e-9));
    // First-order scheme: within a few percent of the distance at these steps.
    CHECK(r.error < 0.03 * x_total);
    CHECK(r.wall_per_step > 0);
    CHECK(r.mean_iterations > 0);
    CHECK(!r.residual_history.empty());
  }
  // Halving the step roughly halves the error (first order).
  CHECK(sc.runs[0].error < sc.runs[2].error);
  CHECK(sc.runs[1].error < sc.runs[3].error);
}

TEST_CASE("compare: without an analytic reference the error is the distance to the reference run") {
  CompareSettings settings;
  settings.combos = {parse_combo("velocity+desaxce+padmm")};
  settings.dts = {0.01, 0.02};
  settings.duration = 0.5;
  settings.reference = "velocity+desaxce+padmm@0.01";
  const SceneComparison sc = compare_scene("cart_pole", settings);
  REQUIRE(sc.reference.kind == ErrorKind::ReferenceRun);
  REQUIRE(sc.runs.size() == 2);
  CHECK(sc.reference.trajectory.samples.size() == 11);  // t = 0, 0.05, ..., 0.5
  CHECK(sc.runs[0].error_kind == ErrorKind::ReferenceRun);
  CHECK(sc.runs[0].error == 0);  // the same deterministic run as the reference
  CHECK(sc.runs[1].error > 0);
  CHECK(std::isfinite(sc.runs[1].error));

  // A validation scene run too short for its analytic quantity falls back to a reference run.
  settings.reference.clear();
  const SceneComparison short_ramp = compare_scene("box_ramp", settings);
  CHECK(short_ramp.reference.kind == ErrorKind::ReferenceRun);
  CHECK(short_ramp.reference.run_label == "velocity+desaxce+padmm@0.001");  // smallest dt / 10
  CHECK(short_ramp.reference.note.find("--duration") != std::string::npos);
}

TEST_CASE("compare: failed runs are rows with their message, not fatal") {
  CompareSettings settings;
  settings.combos = {parse_combo("velocity+desaxce+newton"), parse_combo("velocity+desaxce+padmm")};
  settings.dts = {0.01};
  settings.duration = 0.2;
  SceneComparison sc;
  CHECK_NOTHROW(sc = compare_scene("stacked_boxes", settings));
  REQUIRE(sc.runs.size() == 2);
  CHECK(!sc.runs[0].ok);
  CHECK(sc.runs[0].steps == 0);
  CHECK(sc.runs[0].message.find("newton") != std::string::npos);
  CHECK(sc.runs[1].ok);

  // A scene that does not load: every run fails with the loader's message.
  SceneComparison missing;
  CHECK_NOTHROW(missing = compare_scene("/nonexistent/scene.xml", settings));
  REQUIRE(missing.runs.size() == 2);
  CHECK(!missing.runs[0].ok);
  CHECK(missing.runs[0].message.find("nonexistent") != std::string::npos);

  std::ostringstream csv;
  write_runs_csv(csv, {sc, missing});
  std::istringstream in(csv.str());
  std::string line;
  std::getline(in, line);
  CHECK(line == kRunsCsvHeader);
  std::getline(in, line);
  CHECK(line.find("stacked_boxes,velocity+desaxce+newton,0.01,0,") == 0);
  CHECK(line.find(",none,\"failed: incompatible combination:") != std::string::npos);
  std::getline(in, line);
  CHECK(line.find(",analytic,ok") != std::string::npos);
}

TEST_CASE("compare: the runs.csv header is exact") {
  CHECK(std::string(kRunsCsvHeader) ==
        "scene,combo,dt,steps,wall_per_step_s,wall_per_sim_s,mean_iterations,max_iterations,not_converged,max_r_vi,"
        "max_penetration,max_joint_violation,error,error_kind,status,solve_per_step_s,measured,travel_m,rotation_rad,flags");
}

TEST_CASE("compare: the CLI writes runs.csv, residuals and (with gnuplot) the PNGs") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("contactlab_compare_test_" + std::to_string(getpid()));
  fs::remove_all(dir);
  const Result r = run_cli("compare box_ramp --combos velocity+desaxce+padmm,velocity+desaxce+newton --dt 0.005,0.01 "
                           "--duration 2.5 --out " + dir.string());
  INFO(r.output);
  CHECK(r.status == 0);  // the refused combination is a failed row, not a failure of the command
  CHECK(r.output.find("FAILED: incompatible combination") != std::string::npos);
  const std::vector<std::string> rows = lines_of((dir / "runs.csv").string());
  REQUIRE(rows.size() == 5);
  CHECK(rows[0] ==
        "scene,combo,dt,steps,wall_per_step_s,wall_per_sim_s,mean_iterations,max_iterations,not_converged,max_r_vi,"
        "max_penetration,max_joint_violation,error,error_kind,status,solve_per_step_s,measured,travel_m,rotation_rad,flags");
  CHECK(rows[1].rfind("box_ramp,velocity+desaxce+padmm,0.005,500,", 0) == 0);
  CHECK(rows[1].find(",analytic,ok") != std::string::npos);
  CHECK(rows[2].find("\"failed: ") != std::string::npos);
  const std::vector<std::string> residuals = lines_of((dir / "residuals_box_ramp.csv").string());
  REQUIRE(residuals.size() > 1);
  CHECK(residuals[0] == "solver,combo,dt,step,iteration,residual");
  CHECK(residuals[1].rfind("padmm,velocity+desaxce+padmm,", 0) == 0);
  CHECK(fs::exists(dir / "plot_box_ramp.gp"));
  // The PNGs need the gnuplot binary (Debian gnuplot-nox); without it the
  // command warns and still writes the CSVs, which is what is checked then.
  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    CHECK(fs::file_size(dir / "error_vs_dt_box_ramp.png") > 1000);
    CHECK(fs::file_size(dir / "residual_vs_iteration_box_ramp.png") > 1000);
  } else {
    MESSAGE("gnuplot is not on PATH: PNG outputs not checked (install gnuplot-nox)");
    CHECK(r.output.find("gnuplot not found") != std::string::npos);
  }
  fs::remove_all(dir);

  // Command-line errors exit 2 and name the culprit before anything runs.
  const Result bad = run_cli("compare box_ramp --combos velocity+desaxce+nope");
  CHECK(bad.status == 2);
  CHECK(bad.output.find("nope") != std::string::npos);
  CHECK(run_cli("compare box_ramp --dt 0.01,-1").status == 2);
  CHECK(run_cli("compare box_ramp --reference velocity+desaxce+padmm").status == 2);
  CHECK(run_cli("compare").status == 2);
}
