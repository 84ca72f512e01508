// The part registry (sim/registry.hpp): a part registered at run time runs
// through the same Simulation as the built-in ones; bad registrations are
// refused with a message naming the problem.
#include <doctest/doctest.h>

#include <string>

#include "io/scene_library.hpp"
#include "sim/registry.hpp"
#include "sim/simulation.hpp"
#include "solvers/pgs.hpp"

using namespace contactlab;

namespace {

// PGS under another name: the smallest out-of-tree solver (a subclass).
class RenamedPgs final : public Solver {
 public:
  explicit RenamedPgs(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  bool accepts(const ContactModel& law, std::string* why) const override { return inner_.accepts(law, why); }
  std::unique_ptr<SolverWorkspace> make_workspace() const override { return inner_.make_workspace(); }
  void do_solve(const ConstraintProblem& problem, const ContactModel& law, const WarmStart& warm,
                SolverWorkspace& workspace, std::vector<Real>& lambda, std::vector<Real>& v_plus,
                SolveStats& stats) const override {
    inner_.solve(problem, law, warm, workspace, lambda, v_plus, stats);
  }
  void bind_options(OptionSet& set, const std::string& prefix) override { inner_.bind_options(set, prefix); }

 private:
  std::string name_;
  PgsSolver inner_;
};

bool listed(const std::vector<PartInfo>& parts, const std::string& name, bool builtin) {
  for (const PartInfo& p : parts)
    if (p.name == name) return p.builtin == builtin;
  return false;
}

}  // namespace

TEST_CASE("registry: a solver registered at run time runs like the built-in it wraps") {
  register_solver("test_renamed_pgs", "pgs under another name", [] { return std::make_unique<RenamedPgs>("test_renamed_pgs"); });
  CHECK(listed(solver_names(), "test_renamed_pgs", false));
  CHECK(listed(solver_names(), "pgs", true));
  const Model model = load_scene("box_ramp");
  Simulation ours(model, PartChoice{"desaxce", "test_renamed_pgs", "velocity"});
  Simulation theirs(model, PartChoice{"desaxce", "pgs", "velocity"});
  CHECK(ours.describe_options() == theirs.describe_options());  // its options are bound like pgs's
  for (int s = 0; s < 2000; ++s) {  // the push ramps up; the box slides after 4/3 s
    ours.apply_scheduled_controls();
    theirs.apply_scheduled_controls();
    ours.step(1e-3);
    theirs.step(1e-3);
  }
  // Same solver code on the same problems: bit-identical trajectories.
  CHECK(ours.data().x_W[0] == theirs.data().x_W[0]);
  CHECK(ours.data().v_W[0] == theirs.data().v_W[0]);
  CHECK(ours.data().x_W[0].x() == doctest::Approx(0.1817).epsilon(0.02));  // slid as box_ramp.xml derives
  // Without a pairing of its own it is differentiated with the dense reference.
  CHECK(std::string(make_solve_adjoint(ours.solver(), AdjointSolve::Paired)->name()) == "reference");
}

TEST_CASE("registry: bad registrations are refused with the reason") {
  auto make = [] { return std::make_unique<RenamedPgs>("pgs"); };
  CHECK_THROWS_WITH_AS(register_solver("pgs", "again", make), doctest::Contains("already registered"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(register_solver("Bad-Name", "x", make), doctest::Contains("bad name 'Bad-Name'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(register_solver("test_empty", "x", SolverFactory{}), doctest::Contains("empty factory"),
                       std::invalid_argument);
  // A factory whose part reports another name is a programming error, caught when used.
  register_solver("test_misnamed", "makes a part named pgs", make);
  CHECK_THROWS_WITH_AS(make_solver("test_misnamed"), doctest::Contains("made a part named 'pgs'"), std::logic_error);
  CHECK_THROWS_WITH_AS(make_solver("no_such_solver"), doctest::Contains("known: padmm, newton, pgs, convex_newton"),
                       std::invalid_argument);
}
