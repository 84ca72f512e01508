// Each law's per-contact kernel (contact_models/contact_kernel.hpp) computes
// bit for bit what the law's own batch functions compute, so a Gauss-Seidel
// sweep through it is the law's sweep without a virtual call per contact.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "contact_models/contact_kernel.hpp"
#include "sim/registry.hpp"

using namespace contactlab;

TEST_CASE("contact kernel: the built-in laws' kernels equal their batch functions bitwise") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2, 2), friction(0, 1.2), step(0.05, 3);
  for (const std::string name : {"desaxce", "fischer_burmeister", "ccp", "central_path"}) {
    CAPTURE(name);
    const auto law = make_contact_model(name);
    const ContactKernel kernel = law->contact_kernel();
    CHECK(kernel.kind != ContactKernel::Kind::Law);  // built-in laws inline their cones
    for (int trial = 0; trial < 200; ++trial) {
      const Real mu = trial % 10 == 0 ? 0.0 : friction(rng);
      const Real c = step(rng);
      Real v[3] = {u(rng), u(rng), u(rng)}, x[3] = {u(rng), u(rng), u(rng)};
      Real s_law[3], s_kernel[3], x_law[3] = {x[0], x[1], x[2]}, x_kernel[3] = {x[0], x[1], x[2]};
      law->velocity_shift(&mu, 1, v, s_law);
      contact_kernel::velocity_shift(kernel, mu, v, s_kernel);
      law->project_primal_step(&mu, 1, c, x_law);
      contact_kernel::project_primal_step(kernel, mu, c, x_kernel);
      for (int i = 0; i < 3; ++i) {
        CHECK(s_kernel[i] == s_law[i]);
        CHECK(x_kernel[i] == x_law[i]);
      }
    }
  }
}

TEST_CASE("contact kernel: a law without one answers through its own functions") {
  // The base class's kernel names the law itself (a user's law works unchanged).
  const auto desaxce = make_contact_model("desaxce");
  const ContactKernel generic{ContactKernel::Kind::Law, 0, desaxce.get()};
  const Real mu = 0.5, v[3] = {-0.1, 0.3, 0.4};
  Real s[3], x[3] = {1, 2, 0};
  contact_kernel::velocity_shift(generic, mu, v, s);
  CHECK(s[0] == doctest::Approx(0.25));  // mu |v_t| = 0.5 * 0.5
  contact_kernel::project_primal_step(generic, mu, 1, x);
  CHECK(x[1] * x[1] + x[2] * x[2] <= mu * mu * x[0] * x[0] * (1 + 1e-12));  // in the cone
}
