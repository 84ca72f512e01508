#include "sim/gradient_job.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "adjoints/grad_inputs.hpp"
#include "adjoints/loss.hpp"
#include "sim/registry.hpp"
#include "sim/run_parameters.hpp"

namespace contactlab {

namespace {

std::string number(Real v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

std::string default_gradient_inputs(const Model& m) {
  std::string out;
  for (const Body& b : m.bodies) {
    if (b.fixed) continue;
    for (const char* f : {"px", "py", "pz", "vx", "vy", "vz"}) out += (out.empty() ? "" : ",") + ("init:" + b.name + "." + f);
  }
  for (const Actuator& a : m.actuators) out += (out.empty() ? "" : ",") + ("ctrl:" + a.name);
  return out;
}

std::vector<std::string> apply_adjoint_settings(const std::vector<std::string>& sets, StepAdjointOptions& adjoint,
                                                std::string* describe) {
  OptionSet options;
  bind_adjoint_options(options, adjoint);
  std::vector<std::string> rest;
  for (const auto& kv : sets) {
    if (kv.rfind("adjoint.", 0) == 0) options.set_assignment(kv);
    else rest.push_back(kv);
  }
  options.validate();
  if (describe) *describe = options.describe();
  return rest;
}

GradientJobResult run_gradient_job(const GradientJob& job) {
  if (job.checkpoint < 0)
    throw std::invalid_argument(parameter_error("--checkpoint", std::to_string(job.checkpoint), "must be >= 0"));
  GradientJobResult out;
  StepAdjointOptions adjoint;
  out.rollout_spec = job.spec;
  out.rollout_spec.sets = apply_adjoint_settings(job.spec.sets, adjoint);
  PreparedRollout r = prepare_rollout(out.rollout_spec);
  const std::string wrt = job.wrt.empty() ? default_gradient_inputs(r.sim.model()) : job.wrt;
  const Loss loss = Loss::parse(job.loss, r.sim.model());
  out.inputs = parse_grad_inputs(wrt, r.sim.model());
  check_input_steps(out.inputs, r.steps, "--wrt");
  Rollout rollout;
  const auto t0 = std::chrono::steady_clock::now();
  rollout.run(r, job.checkpoint);
  const auto t1 = std::chrono::steady_clock::now();
  out.result = rollout.gradient(r, loss, out.inputs, adjoint);
  const auto t2 = std::chrono::steady_clock::now();
  out.forward_s = std::chrono::duration<double>(t1 - t0).count();
  out.backward_s = std::chrono::duration<double>(t2 - t1).count();
  return out;
}

void check_gradient_finite(const GradientJobResult& r) {
  if (!std::isfinite(r.result.loss)) throw std::runtime_error("the loss is not finite (" + number(r.result.loss) + ")");
  for (size_t i = 0; i < r.inputs.size(); ++i)
    if (!std::isfinite(r.result.gradient[i]))
      throw std::runtime_error("the gradient with respect to " + r.inputs[i].text + " is not finite (" +
                               number(r.result.gradient[i]) + ")");
}

GradCheckJobResult run_gradcheck_job(const GradientJob& job, const GradCheckOptions& options,
                                     const RolloutProgress& progress) {
  check_finite_difference_step(options.eps, "--eps");
  check_tolerance(options.tolerance, "--tol");
  GradCheckJobResult out;
  out.gradient = run_gradient_job(job);
  const std::vector<Real> fd =
      finite_difference_gradient(out.gradient.rollout_spec, job.loss, out.gradient.inputs, options.eps, progress);
  out.entries = compare_gradients(out.gradient.inputs, out.gradient.result.gradient, fd, options);
  for (const GradCheckEntry& e : out.entries) out.ok = out.ok && e.ok;
  return out;
}

}  // namespace contactlab
