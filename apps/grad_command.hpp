// `contactlab grad` and `contactlab gradcheck` (docs/gradients.md, docs/cli.md).
#pragma once

#include <string>
#include <vector>

namespace contactlab {

// check = false: grad (JSON on stdout); true: gradcheck (table, non-zero exit
// when an entry exceeds --tol). Returns the process exit status.
int grad_cli(const std::vector<std::string>& args, bool check);

}  // namespace contactlab
