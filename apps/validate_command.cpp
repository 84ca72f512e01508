#include "apps/validate_command.hpp"

#include <cstdio>
#include <iostream>

#include "studies/validation.hpp"

namespace contactlab {

int validate_command(bool json) {
  try {
    const PartChoice parts;  // the default path: velocity scheme + de Saxce + PADMM
    std::vector<ValidationResult> results;
    if (!json) std::printf("contactlab: validation scenes (%s + %s + %s)\n", parts.scheme.c_str(),
                           parts.contact.c_str(), parts.solver.c_str());
    bool all = true;
    results = validation_suite(parts);
    if (json) {
      std::printf("[");
      for (size_t i = 0; i < results.size(); ++i) {
        const auto& r = results[i];
        std::printf("%s{\"name\": \"%s\", \"dt\": %g, \"steps\": %ld, \"wall_time_per_step_s\": %.3e, "
                    "\"mean_iterations\": %.2f, \"pass\": %s, \"quantities\": [",
                    i ? ", " : "", r.name.c_str(), r.dt, r.steps, r.wall_time_per_step, r.mean_iterations,
                    r.pass() ? "true" : "false");
        for (size_t k = 0; k < r.quantities.size(); ++k) {
          const auto& q = r.quantities[k];
          std::printf("%s{\"name\": \"%s\", \"measured\": %.9g, \"reference\": %.9g, \"error\": %.3e, "
                      "\"tolerance\": %.3e, \"unit\": \"%s\"}",
                      k ? ", " : "", q.name.c_str(), q.measured, q.reference, q.error, q.tolerance, q.unit.c_str());
        }
        std::printf("]}");
        all = all && r.pass();
      }
      std::printf("]\n");
    } else {
      std::printf("%-34s %-46s %13s %13s %10s %10s %5s\n", "scene", "quantity", "measured", "reference", "error",
                  "tolerance", "ok");
      for (const auto& r : results) {
        for (const auto& q : r.quantities) {
          std::printf("%-34s %-46s %13.6g %13.6g %10.2e %10.2e %5s\n", r.name.c_str(), (q.name + " [" + q.unit + "]").c_str(),
                      q.measured, q.reference, q.error, q.tolerance, q.pass() ? "yes" : "NO");
        }
        std::printf("%-34s dt %g s, %ld steps, %.2f mean / %d max iterations, %.1f us per step\n", "", r.dt, r.steps,
                    r.mean_iterations, r.max_iterations, 1e6 * r.wall_time_per_step);
        all = all && r.pass();
      }
      std::printf("%s\n", all ? "all validations within tolerance" : "SOME VALIDATIONS FAILED");
    }
    return all ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "contactlab: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace contactlab
