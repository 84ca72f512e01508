// One explicit factory per axis (contact model, solver, scheme). Adding a part
// = its files, its test, one line in the table of sim/registry.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/contact_model.hpp"
#include "core/scheme.hpp"
#include "core/solver.hpp"

namespace contactlab {

struct PartInfo {
  std::string name;
  std::string summary;  // one line for `contactlab list`
};

std::vector<PartInfo> contact_model_names();
std::vector<PartInfo> solver_names();
std::vector<PartInfo> scheme_names();

// Throw std::invalid_argument naming the unknown part and listing the known ones.
std::unique_ptr<ContactModel> make_contact_model(const std::string& name);
std::unique_ptr<Solver> make_solver(const std::string& name);
std::unique_ptr<Scheme> make_scheme(const std::string& name);

// Empty when the triple can run together, otherwise a one-line reason.
std::string combination_refusal(const Scheme& scheme, const ContactModel& law, const Solver& solver);

}  // namespace contactlab
