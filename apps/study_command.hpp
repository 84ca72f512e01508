// `contactlab study NAME [--trials N] [--seed S] [--arms LIST] [--full] [--out DIR]`
// and `contactlab study --list`: runs one of the papers' experiments
// (studies/study.hpp) and prints its summary table (docs/studies.md).
#pragma once

#include <string>
#include <vector>

namespace contactlab {

// 0 when the study ran (its results may still show failed arms: that is a
// result), 1 when it could not run or write its files, 2 for a command line
// that does not parse or names an unknown study or arm.
int study_cli(const std::vector<std::string>& args);

}  // namespace contactlab
