// The optimisers' per-iteration log (optimizers/iteration_log.hpp): the CSV
// file's exact header and one row per iteration, the callback, errors.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "optimizers/adam.hpp"
#include "support/temp_dir.hpp"

using namespace contactlab;

TEST_CASE("iteration log: CSV header and rows from Adam on a quadratic") {
  test::TempDir dir;
  const std::string path = dir / "adam.csv";
  int calls = 0;
  IterationLogOptions log;
  log.csv_path = path;
  log.callback = [&](const IterationRecord&) { ++calls; };
  // f = (x - 3)^2: gradient 2 (x - 3), norm |2 (x - 3)|.
  const GradientObjective f = [](const VecX& x, VecX* g) {
    if (g) *g = 2 * (x.array() - 3).matrix();
    return Evaluation{(x.array() - 3).square().sum(), 1e-3, 2e-3};
  };
  AdamOptions adam;
  adam.iterations = 4;
  adam.learning_rate = 0.5;
  const OptimiserResult r = adam_minimize(f, VecX::Zero(1), adam, log);
  CHECK(calls == 5);
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  CHECK(line == "iteration,loss,grad_norm,forward_s,backward_s");
  std::getline(in, line);
  CHECK(line == "0,9,6,0.001,0.002");
  int rows = 1;
  while (std::getline(in, line)) ++rows;
  CHECK(rows == 5);
  // Adam's first step is lr * sign(g) exactly (bias-corrected m / sqrt(v) = +-1, up to eps).
  CHECK(r.history[1].loss == doctest::Approx(2.5 * 2.5).epsilon(1e-7));
  IterationLogOptions bad;
  bad.csv_path = dir / "no/such/dir/x.csv";
  CHECK_THROWS_WITH_AS(IterationLog{bad},
                       doctest::Contains("cannot write"), std::invalid_argument);
  adam.blocks = {{"a", 2, 0.1}};
  CHECK_THROWS_WITH_AS(adam_minimize(f, VecX::Zero(1), adam), doctest::Contains("blocks cover 2 parameters"),
                       std::invalid_argument);
}
