// The part registry (sim/registry.hpp): a part registered at run time runs
// through the same Simulation as the built-in ones; bad registrations are
// refused with a message naming the problem.
#include <doctest/doctest.h>

#include <string>

#include "adjoints/velocity_step_adjoint.hpp"
#include "io/scene_library.hpp"
#include "schemes/velocity_scheme.hpp"
#include "sim/gradcheck.hpp"
#include "sim/registry.hpp"
#include "sim/rollout.hpp"
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

namespace {

// The velocity scheme under another name, with its step adjoint registered
// beside it (what a user's scheme does when it registers).
class RenamedVelocity final : public Scheme {
 public:
  explicit RenamedVelocity(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  bool accepts(const ContactModel& law, const Solver& solver, std::string* why) const override {
    return inner.accepts(law, solver, why);
  }
  void prepare(const Model& m, Data& d, const ContactModel& law, Real h) const override { inner.prepare(m, d, law, h); }
  void finish(const Model& m, Data& d, const ContactModel& law, Real h) const override { inner.finish(m, d, law, h); }
  void bind_options(OptionSet& set, const std::string& prefix) override { inner.bind_options(set, prefix); }
  VelocityScheme inner;

 private:
  std::string name_;
};

}  // namespace

TEST_CASE("registry: registered parts run through Rollout and gradcheck like the built-in ones") {
  register_solver("test_rollout_pgs", "pgs under another name",
                  [] { return std::make_unique<RenamedPgs>("test_rollout_pgs"); });
  register_scheme("test_renamed_velocity", "the velocity scheme under another name",
                  [] { return std::make_unique<RenamedVelocity>("test_renamed_velocity"); },
                  typed_step_adjoint<RenamedVelocity>([](const RenamedVelocity& s) -> std::unique_ptr<StepAdjoint> {
                    return std::make_unique<VelocityStepAdjoint>(s.inner.options);
                  }));
  bool listed_adjoint = false;
  for (const PartInfo& p : step_adjoint_pairings()) listed_adjoint = listed_adjoint || p.name == "test_renamed_velocity";
  CHECK(listed_adjoint);

  // The bouncing ball through its impacts (one contact: a unique solution).
  RolloutSpec builtin;
  builtin.scene = "bouncing_ball";
  builtin.model = std::make_shared<const Model>(load_scene("bouncing_ball"));
  builtin.solver = "pgs";
  builtin.steps = 600;
  // Solved to 1e-12 so that finite differences of the forward are derivatives
  // (tests/sim/test_gradients.cpp: at the default 1e-6 they are noisy at ~1e-4).
  builtin.sets = {"solver.tolerance=1e-12", "solver.max_iterations=20000"};
  RolloutSpec registered = builtin;
  registered.solver = "test_rollout_pgs";
  registered.scheme = "test_renamed_velocity";
  const std::string loss = "final:ball.pz + final:ball.px", wrt = "init:ball.vz,init:ball.vx";
  const GradientResult a = rollout_gradient(builtin, loss, wrt, {});
  const GradientResult b = rollout_gradient(registered, loss, wrt, {});
  CHECK(b.loss == a.loss);
  REQUIRE(b.gradient.size() == a.gradient.size());
  for (size_t i = 0; i < a.gradient.size(); ++i) CHECK(b.gradient[i] == a.gradient[i]);  // same code, same numbers
  CHECK(b.solve_adjoint == "reference");  // pgs's pairing is the reference, and so is an unpaired solver's
  CHECK(a.gradient[0] == doctest::Approx(0.3318).epsilon(1e-3));  // measured: gradcheck on the built-in pgs

  // The library's gradient checker runs the registered parts as well.
  const std::vector<GradInput> inputs = parse_grad_inputs(wrt, *registered.model);
  const std::vector<Real> fd = finite_difference_gradient(registered, loss, inputs, 1e-6);
  GradCheckOptions check;
  check.tolerance = 1e-4;
  for (const GradCheckEntry& e : compare_gradients(inputs, b.gradient, fd, check)) {
    CAPTURE(e.input);
    CHECK(e.ok);
  }

  // A scheme without a step adjoint is refused by the rollout with the reason.
  register_scheme("test_no_adjoint", "no step adjoint", [] { return std::make_unique<RenamedVelocity>("test_no_adjoint"); });
  RolloutSpec none = builtin;
  none.scheme = "test_no_adjoint";
  CHECK_THROWS_WITH_AS(rollout_gradient(none, loss, wrt, {}), doctest::Contains("'test_no_adjoint' has no step adjoint"),
                       std::invalid_argument);
}
