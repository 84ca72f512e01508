#include "sim/registry.hpp"

#include <cctype>
#include <mutex>
#include <stdexcept>

#include "adjoints/backward_euler_step_adjoint.hpp"
#include "adjoints/paired_solve_adjoints.hpp"
#include "adjoints/solve_adjoint.hpp"
#include "adjoints/velocity_step_adjoint.hpp"
#include "contact_models/ccp.hpp"
#include "contact_models/central_path.hpp"
#include "contact_models/desaxce.hpp"
#include "contact_models/fischer_burmeister.hpp"
#include "schemes/backward_euler_scheme.hpp"
#include "schemes/moreau_scheme.hpp"
#include "schemes/quasi_dynamic_scheme.hpp"
#include "schemes/velocity_scheme.hpp"
#include "solvers/convex_newton.hpp"
#include "solvers/nonsmooth_newton.hpp"
#include "solvers/padmm.hpp"
#include "solvers/pgs.hpp"

namespace contactlab {

namespace {

template <typename Make>
struct Entry {
  PartInfo info;
  Make make;
};

struct SchemeMakers {
  SchemeFactory make;
  StepAdjointFactory adjoint;  // may be empty
  std::string adjoint_summary;  // for `contactlab list adjoints`
  explicit operator bool() const { return static_cast<bool>(make); }
};

template <typename Make>
using Table = std::vector<Entry<Make>>;

// The built-in parts: adding one = its files, its test and one line here.
Table<ContactModelFactory> builtin_contact_models() {
  return {
      {{"desaxce", "hard Coulomb friction as a second-order-cone complementarity with the de Saxce shift"},
       [] { return std::make_unique<DeSaxceModel>(); }},
      {{"fischer_burmeister", "Ostrich: Fischer-Burmeister NCP normal, maximal-dissipation friction with weight W"},
       [] { return std::make_unique<FischerBurmeisterModel>(); }},
      {{"ccp", "compliant convex cone complementarity (CQDC): no de Saxce shift, compliance rho_c, gap recovery eta"},
       [] { return std::make_unique<CcpModel>(); }},
      {{"central_path",
        "central-path relaxation of de Saxce: (S lambda)o(S^-1 sigma^) = rho e, interior-point smoothing"},
       [] { return std::make_unique<CentralPathModel>(); }},
  };
}

Table<SolverFactory> builtin_solvers() {
  return {
      {{"padmm", "proximal ADMM on the dual (Kamino): accelerated, warm-started, preconditioned"},
       [] { return std::make_unique<PadmmSolver>(); }},
      {{"newton", "Ostrich: non-smooth Newton, Schur complement by matrix-free PCR, best iterate"},
       [] { return std::make_unique<NonsmoothNewtonSolver>(); }},
      {{"pgs", "projected Gauss-Seidel on the dual: matrix-free sweeps on body velocities, the classic baseline"},
       [] { return std::make_unique<PgsSolver>(); }},
      {{"convex_newton", "convex primal Newton on du (CQDC): exact line search, rho continuation; needs ccp"},
       [] { return std::make_unique<ConvexNewtonSolver>(); }},
  };
}

// Each scheme with its step adjoint (adjoints/: the math opens each header).
Table<SchemeMakers> builtin_schemes() {
  return {
      {{"velocity", "velocity-level semi-implicit Euler with Baumgarte stabilisation (Kamino)"},
       {[] { return std::make_unique<VelocityScheme>(); },
        typed_step_adjoint<VelocityScheme>([](const VelocityScheme& s) -> std::unique_ptr<StepAdjoint> {
          return std::make_unique<VelocityStepAdjoint>(s.options);
        }),
        "integrator, the solve's VJP (paired with the solver), the exact pull-back through the step's data"}},
      {{"backward_euler", "Ostrich: backward Euler, constraints at q+ re-evaluated at each Newton iterate"},
       {[] { return std::make_unique<BackwardEulerScheme>(); },
        typed_step_adjoint<BackwardEulerScheme>([](const BackwardEulerScheme& s) -> std::unique_ptr<StepAdjoint> {
          return std::make_unique<BackwardEulerStepAdjoint>(s.options);
        }),
        "the exact step map (dense local problem with the geometric stiffness), or Ostrich's adjoint "
        "(adjoint.geometric_stiffness=false: the forward's Schur system through the solve's pairing)"}},
      {{"quasi_dynamic", "quasi-dynamic (CQDC): displacement step, previous velocities dropped, Q = M/h^2 + K_p"},
       {[] { return std::make_unique<QuasiDynamicScheme>(); },
        typed_step_adjoint<QuasiDynamicScheme>([](const QuasiDynamicScheme& s) -> std::unique_ptr<StepAdjoint> {
          return std::make_unique<QuasiDynamicStepAdjoint>(s.options);
        }),
        "the velocity adjoint on a world at rest, the velocities' cotangents dropped"}},
      {{"moreau", "Moreau-Jean midpoint: drift h/2, contacts, joints and impulses at q_m, drift h/2 with u+"},
       {[] { return std::make_unique<MoreauScheme>(); },
        typed_step_adjoint<MoreauScheme>([](const MoreauScheme& s) -> std::unique_ptr<StepAdjoint> {
          return std::make_unique<MoreauStepAdjoint>(s.options);
        }),
        "the velocity adjoint from the midpoint (second drift h/2), then the first drift's partials"}},
  };
}

// Each solver's solve adjoint (adjoints/solve_adjoint.hpp has the math of each).
Table<SolveAdjointFactory> builtin_solve_adjoints() {
  return {
      {{"newton", "matrix free on the forward's J M^-1 J^T + R: PCR (row-wise laws) or GMRES + block Jacobi"},
       [](const Solver&) { return make_matrix_free_solve_adjoint("newton"); }},
      {{"padmm", "its Delassus: Cholesky of the dense D (solver.delassus=dense or auto), else matrix free as newton"},
       typed_solve_adjoint<PadmmSolver>([](const PadmmSolver& s) {
         const bool dense = s.options.delassus == PadmmOptions::kDense || s.options.delassus == PadmmOptions::kAuto;
         return dense ? make_dense_delassus_solve_adjoint() : make_matrix_free_solve_adjoint("padmm");
       })},
      {{"convex_newton", "CQDC's implicit gradient: one solve with the solver's own Hessian M + J^T W J"},
       typed_solve_adjoint<ConvexNewtonSolver>(
           [](const ConvexNewtonSolver& s) { return make_hessian_solve_adjoint(s.options); })},
      {{"pgs", "the dense reference (LU of the linearised local problem)"},
       [](const Solver&) { return make_reference_solve_adjoint(); }},
  };
}

// The tables, built-in entries first; guarded for registration from any thread.
struct Registry {
  std::mutex mutex;
  Table<ContactModelFactory> contact_models = builtin_contact_models();
  Table<SolverFactory> solvers = builtin_solvers();
  Table<SchemeMakers> schemes = builtin_schemes();
  Table<SolveAdjointFactory> solve_adjoints = builtin_solve_adjoints();
  Table<std::shared_ptr<const CustomSensitivity>> sensitivity_kinds;  // user-defined only
};

Registry& registry() {
  static Registry r;
  return r;
}

void check_name(const std::string& name, const char* axis) {
  bool ok = !name.empty() && std::islower(static_cast<unsigned char>(name[0]));
  for (char c : name) ok = ok && (std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_');
  if (!ok)
    throw std::invalid_argument(std::string("register ") + axis + ": bad name '" + name +
                                "' (lower-case letters, digits and '_', starting with a letter)");
}

template <typename Make>
void add(Table<Make>& table, const std::string& name, const std::string& summary, Make make, const char* axis) {
  check_name(name, axis);
  if (!make) throw std::invalid_argument(std::string("register ") + axis + " '" + name + "': empty factory");
  for (const auto& e : table)
    if (e.info.name == name)
      throw std::invalid_argument(std::string("register ") + axis + ": '" + name + "' is already registered");
  table.push_back({{name, summary, false}, std::move(make)});
}

template <typename Make>
std::vector<PartInfo> names_of(const Table<Make>& table) {
  std::vector<PartInfo> out;
  for (const auto& e : table) out.push_back(e.info);
  return out;
}

template <typename Make>
Make find(const Table<Make>& table, const std::string& name, const char* axis) {
  std::string known;
  for (const auto& e : table) {
    if (e.info.name == name) return e.make;
    known += (known.empty() ? "" : ", ") + e.info.name;
  }
  throw std::invalid_argument(std::string("unknown ") + axis + " '" + name + "' (known: " + known + ")");
}

// Checks that a factory's part reports the name it was registered under.
template <typename Part>
std::unique_ptr<Part> checked(std::unique_ptr<Part> part, const std::string& name, const char* axis) {
  if (!part) throw std::logic_error(std::string(axis) + " '" + name + "': its factory returned nothing");
  if (part->name() != name)
    throw std::logic_error(std::string(axis) + " '" + name + "': its factory made a part named '" + part->name() + "'");
  return part;
}

template <typename Part, typename Make>
std::unique_ptr<Part> make_part(Table<Make>& table, const std::string& name, const char* axis) {
  Make make;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    make = find(table, name, axis);
  }
  return checked<Part>(make(), name, axis);
}

}  // namespace

namespace registry_detail {
void wrong_part_type(const std::string& part, const char* expected, const char* got) {
  throw std::logic_error("adjoint of '" + part + "': paired with type " + expected + ", called with " + got);
}
}  // namespace registry_detail

void register_contact_model(const std::string& name, const std::string& summary, ContactModelFactory make) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  add(registry().contact_models, name, summary, std::move(make), "contact model");
}
void register_solver(const std::string& name, const std::string& summary, SolverFactory make) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  add(registry().solvers, name, summary, std::move(make), "solver");
}
void register_scheme(const std::string& name, const std::string& summary, SchemeFactory make,
                     StepAdjointFactory adjoint) {
  if (!make) throw std::invalid_argument("register scheme '" + name + "': empty factory");
  std::lock_guard<std::mutex> lock(registry().mutex);
  add(registry().schemes, name, summary,
      SchemeMakers{std::move(make), std::move(adjoint), "its own, registered with the scheme"}, "scheme");
}

void register_sensitivity_kind(const std::string& name, const std::string& summary,
                               std::shared_ptr<const CustomSensitivity> kind) {
  for (const char* builtin : {"exact", "signorini", "central_path", "frozen_w", "custom"})
    if (name == builtin) throw std::invalid_argument("register sensitivity kind: '" + name + "' is built in");
  if (kind && kind->name() != name)
    throw std::invalid_argument("register sensitivity kind '" + name + "': the object is named '" + kind->name() + "'");
  std::lock_guard<std::mutex> lock(registry().mutex);
  add(registry().sensitivity_kinds, name, summary, std::move(kind), "sensitivity kind");
}
void register_solve_adjoint(const std::string& solver_name, const std::string& summary, SolveAdjointFactory make) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  add(registry().solve_adjoints, solver_name, summary, std::move(make), "solve adjoint");
}

std::vector<PartInfo> contact_model_names() {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return names_of(registry().contact_models);
}
std::vector<PartInfo> solver_names() {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return names_of(registry().solvers);
}
std::vector<PartInfo> scheme_names() {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return names_of(registry().schemes);
}
std::vector<PartInfo> solve_adjoint_pairings() {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return names_of(registry().solve_adjoints);
}
std::vector<PartInfo> step_adjoint_pairings() {
  std::lock_guard<std::mutex> lock(registry().mutex);
  std::vector<PartInfo> out;
  for (const auto& e : registry().schemes)
    if (e.make.adjoint) out.push_back({e.info.name, e.make.adjoint_summary, e.info.builtin});
  return out;
}
std::vector<PartInfo> sensitivity_kinds() {
  std::vector<PartInfo> out = {
      {"exact", "each contact in its mode at the hard solution (MATH.md D.2)"},
      {"signorini", "normal rows relaxed to lambda_N sigma_N = rho at the relaxed point, tangential as exact"},
      {"central_path", "every contact on the central path (S lambda)o(S^-1 sigma^) = rho e (Kim et al.)"},
      {"frozen_w", "exact, but sliding friction with Ostrich's frozen weight W (symmetric)"}};
  std::lock_guard<std::mutex> lock(registry().mutex);
  for (const PartInfo& p : names_of(registry().sensitivity_kinds)) out.push_back(p);
  return out;
}

void bind_adjoint_options(OptionSet& set, StepAdjointOptions& options, const std::string& prefix) {
  std::vector<std::pair<std::string, std::shared_ptr<const CustomSensitivity>>> custom;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    for (const auto& e : registry().sensitivity_kinds) custom.emplace_back(e.info.name, e.make);
  }
  options.bind(set, prefix, custom);
}

std::unique_ptr<ContactModel> make_contact_model(const std::string& name) {
  return make_part<ContactModel>(registry().contact_models, name, "contact model");
}
std::unique_ptr<Solver> make_solver(const std::string& name) {
  return make_part<Solver>(registry().solvers, name, "solver");
}
std::unique_ptr<Scheme> make_scheme(const std::string& name) {
  SchemeMakers makers;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    makers = find(registry().schemes, name, "scheme");
  }
  std::unique_ptr<Scheme> scheme = checked<Scheme>(makers.make(), name, "scheme");
  if (makers.adjoint) scheme->set_step_adjoint_factory(makers.adjoint);
  return scheme;
}

std::unique_ptr<SolveAdjoint> make_solve_adjoint(const Solver& solver, AdjointSolve choice) {
  if (choice == AdjointSolve::Reference) return make_reference_solve_adjoint();
  SolveAdjointFactory make;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    for (const auto& e : registry().solve_adjoints)
      if (e.info.name == solver.name()) make = e.make;
  }
  if (!make) return make_reference_solve_adjoint();
  std::unique_ptr<SolveAdjoint> adjoint = make(solver);
  if (!adjoint) throw std::logic_error("solve adjoint of '" + solver.name() + "': its factory returned nothing");
  return adjoint;
}

std::string combination_refusal(const Scheme& scheme, const ContactModel& law, const Solver& solver) {
  std::string why;
  if (!solver.accepts(law, &why)) return "solver '" + solver.name() + "' cannot solve '" + law.name() + "': " + why;
  if (!scheme.accepts(law, solver, &why))
    return "scheme '" + scheme.name() + "' cannot drive '" + law.name() + "' + '" + solver.name() + "': " + why;
  return "";
}

}  // namespace contactlab
