#include "apps/contacts_output.hpp"

#include <stdexcept>
#include <string>

#include "io/number_text.hpp"
#include "io/trajectory_csv.hpp"

namespace contactlab {

namespace {

const std::string& body_name(const Model& m, int body) {
  static const std::string world = "world";
  return body < 0 ? world : m.bodies[body].name;
}

}  // namespace

void write_contacts_header(std::ostream& out) { out << kContactsCsvHeader << '\n'; }

void write_step_contacts(std::ostream& out, const Model& m, const Data& d, Real h) {
  const ConstraintProblem& p = d.problem;
  const int nc = p.num_contacts;
  const size_t off = static_cast<size_t>(p.contact_offset());
  // Contact k owns rows off + 3k .. off + 3k + 2 (normal first) of every scheme's problem.
  if (static_cast<size_t>(nc) > d.contacts.size() || off + 3 * static_cast<size_t>(nc) > d.lambda.size())
    throw std::logic_error("--contacts: the step's problem has more contact rows than contacts or impulses");
  for (int k = 0; k < nc; ++k) {
    const Contact& c = d.contacts[k];
    const Real* l = &d.lambda[off + 3 * k];
    const Vec3 f = (l[0] * c.normal_W + l[1] * c.tangent1_W + l[2] * c.tangent2_W) / h;
    out << d.step << ',' << Shortest{d.time} << ',' << body_name(m, c.body1) << ',' << body_name(m, c.body2);
    for (const Real x : {c.point_W.x(), c.point_W.y(), c.point_W.z(), c.normal_W.x(), c.normal_W.y(), c.normal_W.z(),
                         f.x(), f.y(), f.z(), c.gap})
      out << ',' << Shortest{x};
    out << '\n';
  }
}

}  // namespace contactlab
