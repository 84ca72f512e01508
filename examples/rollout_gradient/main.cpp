// A gradient through a rollout: d(final sliding distance)/d(friction, push)
// on box_ramp by the adjoints, checked against central finite differences of
// the same rollout (the library's gradient checker). Exit status 1 when they
// disagree by more than 1e-3 relative.
//   rollout_gradient [SCENE] [LOSS] [INPUTS]
#include <contactlab/io/scene_library.hpp>
#include <contactlab/sim/gradcheck.hpp>
#include <contactlab/sim/rollout.hpp>
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  using namespace contactlab;
  const std::string scene = argc > 1 ? argv[1] : "box_ramp";
  const std::string loss = argc > 2 ? argv[2] : "final:box.px";
  const std::string wrt = argc > 3 ? argv[3] : "param:geom.box.friction,ctrl:push";
  try {
    RolloutSpec spec;  // defaults: desaxce + padmm + velocity at the file's timestep
    spec.scene = scene;
    spec.model = std::make_shared<const Model>(load_scene(scene));
    spec.steps = 2500;
    spec.sets = {"solver.tol_primal=1e-12", "solver.tol_dual=1e-12", "solver.tol_compl=1e-12",
                 "solver.max_iterations=5000"};  // solved tightly: differences of the forward are then derivatives
    const GradientResult g = rollout_gradient(spec, loss, wrt, StepAdjointOptions{});
    const std::vector<GradInput> inputs = parse_grad_inputs(wrt, *spec.model);
    const std::vector<Real> fd = finite_difference_gradient(spec, loss, inputs, 1e-6);
    GradCheckOptions check;
    check.tolerance = 1e-3;
    bool ok = true;
    std::printf("loss %s = %.9g over %ld steps (solve adjoint: %s)\n", loss.c_str(), g.loss, g.steps,
                g.solve_adjoint.c_str());
    for (const GradCheckEntry& e : compare_gradients(inputs, g.gradient, fd, check)) {
      std::printf("  d/d %-26s adjoint %+.9e  differences %+.9e  rel. error %.1e %s\n", e.input.c_str(), e.analytic,
                  e.finite_difference, e.relative_error, e.ok ? "ok" : "FAIL");
      ok = ok && e.ok;
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rollout_gradient: %s\n", e.what());
    return 1;
  }
}
