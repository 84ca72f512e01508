#include "sim/registry.hpp"

#include <functional>
#include <stdexcept>

#include "contact_models/ccp.hpp"
#include "contact_models/central_path.hpp"
#include "contact_models/desaxce.hpp"
#include "contact_models/fischer_burmeister.hpp"
#include "schemes/backward_euler_scheme.hpp"
#include "schemes/quasi_dynamic_scheme.hpp"
#include "schemes/velocity_scheme.hpp"
#include "solvers/convex_newton.hpp"
#include "solvers/nonsmooth_newton.hpp"
#include "solvers/padmm.hpp"
#include "solvers/pgs.hpp"

namespace contactlab {

namespace {

template <typename Base>
struct Entry {
  PartInfo info;
  std::function<std::unique_ptr<Base>()> make;
};

const std::vector<Entry<ContactModel>>& contact_models() {
  static const std::vector<Entry<ContactModel>> table = {
      {{"desaxce", "hard Coulomb friction as a second-order-cone complementarity with the de Saxce shift"},
       [] { return std::make_unique<DeSaxceModel>(); }},
      {{"fischer_burmeister", "Ostrich: Fischer-Burmeister NCP normal, maximal-dissipation friction with weight W"},
       [] { return std::make_unique<FischerBurmeisterModel>(); }},
      {{"ccp", "compliant convex cone complementarity (CQDC): no de Saxce shift, compliance rho_c, gap recovery eta"},
       [] { return std::make_unique<CcpModel>(); }},
      {{"central_path", "central-path relaxation of de Saxce: (S lambda)o(S^-1 sigma^) = rho e, interior-point smoothing"},
       [] { return std::make_unique<CentralPathModel>(); }},
  };
  return table;
}

const std::vector<Entry<Solver>>& solvers() {
  static const std::vector<Entry<Solver>> table = {
      {{"padmm", "proximal ADMM on the dual (Kamino): accelerated, warm-started, preconditioned"},
       [] { return std::make_unique<PadmmSolver>(); }},
      {{"newton", "Ostrich: non-smooth Newton, Schur complement by matrix-free PCR, best iterate"},
       [] { return std::make_unique<NonsmoothNewtonSolver>(); }},
      {{"pgs", "projected Gauss-Seidel on the dual: matrix-free sweeps on body velocities, the classic baseline"},
       [] { return std::make_unique<PgsSolver>(); }},
      {{"convex_newton", "convex primal Newton on du (CQDC): exact line search, rho continuation; needs ccp"},
       [] { return std::make_unique<ConvexNewtonSolver>(); }},
  };
  return table;
}

const std::vector<Entry<Scheme>>& schemes() {
  static const std::vector<Entry<Scheme>> table = {
      {{"velocity", "velocity-level semi-implicit Euler with Baumgarte stabilisation (Kamino)"},
       [] { return std::make_unique<VelocityScheme>(); }},
      {{"backward_euler", "Ostrich: backward Euler, constraints at q+ re-evaluated at each Newton iterate"},
       [] { return std::make_unique<BackwardEulerScheme>(); }},
      {{"quasi_dynamic", "quasi-dynamic (CQDC): displacement step, previous velocities dropped, Q = M/h^2 + K_p"},
       [] { return std::make_unique<QuasiDynamicScheme>(); }},
  };
  return table;
}

template <typename Base>
std::vector<PartInfo> names_of(const std::vector<Entry<Base>>& table) {
  std::vector<PartInfo> out;
  for (const auto& e : table) out.push_back(e.info);
  return out;
}

template <typename Base>
std::unique_ptr<Base> make_from(const std::vector<Entry<Base>>& table, const std::string& name, const char* axis) {
  std::string known;
  for (const auto& e : table) {
    if (e.info.name == name) return e.make();
    known += (known.empty() ? "" : ", ") + e.info.name;
  }
  throw std::invalid_argument(std::string("unknown ") + axis + " '" + name + "' (known: " + known + ")");
}

}  // namespace

std::vector<PartInfo> contact_model_names() { return names_of(contact_models()); }
std::vector<PartInfo> solver_names() { return names_of(solvers()); }
std::vector<PartInfo> scheme_names() { return names_of(schemes()); }

std::unique_ptr<ContactModel> make_contact_model(const std::string& name) {
  return make_from(contact_models(), name, "contact model");
}
std::unique_ptr<Solver> make_solver(const std::string& name) { return make_from(solvers(), name, "solver"); }
std::unique_ptr<Scheme> make_scheme(const std::string& name) { return make_from(schemes(), name, "scheme"); }

std::string combination_refusal(const Scheme& scheme, const ContactModel& law, const Solver& solver) {
  std::string why;
  if (!solver.accepts(law, &why)) return "solver '" + solver.name() + "' cannot solve '" + law.name() + "': " + why;
  if (!scheme.accepts(law, solver, &why))
    return "scheme '" + scheme.name() + "' cannot drive '" + law.name() + "' + '" + solver.name() + "': " + why;
  return "";
}

}  // namespace contactlab
