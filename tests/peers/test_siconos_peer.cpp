// The Siconos peer (peers/siconos_peer.hpp). Without Siconos numerics in the
// build the peer must say how to get it; with it, each offered solver must
// solve a hand-built problem to a natural-map residual recomputed here (not by
// Siconos), and the .dat reader (io/fc3d_io.hpp) is checked entry by entry
// against Siconos' own reader of the same files.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/fc3d_io.hpp"
#include "peers/siconos_peer.hpp"
#include "studies/fc3d_solve.hpp"

#ifdef CONTACTLAB_HAVE_SICONOS
// Siconos' headers open their own extern "C" blocks. Its FrictionContactProblem
// is a global C struct, ours contactlab::FrictionContactProblem: this file
// names ours Problem and theirs ::FrictionContactProblem, never the bare name.
#include <FrictionContactProblem.h>
#include <NumericsMatrix.h>
#include <NumericsSparseMatrix.h>
#include <NumericsVerbose.h>
#include <unistd.h>

#include <cfloat>
#include <cstdlib>
#include <filesystem>
#endif

using Problem = contactlab::FrictionContactProblem;
using contactlab::MatX;
using contactlab::SiconosPeerResult;
using contactlab::VecX;
using contactlab::solve_with_siconos;

#ifndef CONTACTLAB_HAVE_SICONOS

TEST_CASE("siconos peer: not built, and says how to get it") {
  CHECK_FALSE(contactlab::siconos_peer_built());
  CHECK(contactlab::siconos_peer_solvers().size() == 3);
  Problem p;
  p.num_contacts = 1;
  p.W = MatX::Identity(3, 3).sparseView();
  p.q = VecX::Zero(3);
  p.mu = VecX::Constant(1, 0.5);
  CHECK_THROWS_WITH_AS(solve_with_siconos(p, "siconos_nsn_ac", 1e-10, 100), doctest::Contains("--with-siconos"),
                       std::invalid_argument);
}

#else

namespace {

// FrictionContact3D_1c.dat (Siconos' test data), filled in by hand.
Problem one_contact() {
  Problem p;
  p.name = "FrictionContact3D_1c";
  p.num_contacts = 1;
  MatX W(3, 3);
  W << 15, -1, -2,  //
      -1, 14, 1,    //
      -2, 1, 16;
  p.W = W.sparseView();
  p.q.resize(3);
  p.q << -1, 2, 3;
  p.mu = VecX::Constant(1, 0.13);
  return p;
}

// Projection onto the Coulomb cone {r_n >= 0, ||r_t|| <= mu r_n} (normal first).
void project_on_cone(double mu, const double* x, double* p) {
  const double n = x[0];
  const double t = std::hypot(x[1], x[2]);
  if (t <= mu * n) {
    p[0] = x[0], p[1] = x[1], p[2] = x[2];
  } else if (mu * t <= -n) {
    p[0] = p[1] = p[2] = 0;
  } else {
    const double pn = (n + mu * t) / (1 + mu * mu);
    p[0] = pn;
    p[1] = mu * pn * x[1] / t;
    p[2] = mu * pn * x[2] / t;
  }
}

// u = W r + q by explicit loops, independent of the peer.
std::vector<double> local_velocity(const Problem& p, const VecX& r) {
  const int m = 3 * p.num_contacts;
  const MatX Wd(p.W);
  std::vector<double> u(m);
  for (int i = 0; i < m; ++i) {
    double s = p.q[i];
    for (int j = 0; j < m; ++j) s += Wd(i, j) * r[j];
    u[i] = s;
  }
  return u;
}

// || r - P_K(r - (u + mu ||u_t|| e_n)) || / max(1, ||q||), per contact.
double natural_map_residual(const Problem& p, const VecX& r) {
  const std::vector<double> u = local_velocity(p, r);
  double sum = 0;
  for (int c = 0; c < p.num_contacts; ++c) {
    const double* uc = &u[3 * c];
    const double mu = p.mu[c];
    const double x[3] = {r[3 * c] - (uc[0] + mu * std::hypot(uc[1], uc[2])), r[3 * c + 1] - uc[1],
                         r[3 * c + 2] - uc[2]};
    double px[3];
    project_on_cone(mu, x, px);
    for (int k = 0; k < 3; ++k) sum += (r[3 * c + k] - px[k]) * (r[3 * c + k] - px[k]);
  }
  double qq = 0;
  for (int i = 0; i < p.q.size(); ++i) qq += p.q[i] * p.q[i];
  return std::sqrt(sum) / std::max(1.0, std::sqrt(qq));
}

}  // namespace

TEST_CASE("siconos peer: built, with its three solvers") {
  CHECK(contactlab::siconos_peer_built());
  const std::vector<std::string> expected{"siconos_nsn_ac", "siconos_nsn_fb", "siconos_nsgs"};
  CHECK(contactlab::siconos_peer_solvers() == expected);
}

TEST_CASE("siconos peer: each solver solves FrictionContact3D_1c to a natural-map residual checked here") {
  const Problem p = one_contact();
  for (const std::string& solver : contactlab::siconos_peer_solvers()) {
    CAPTURE(solver);
    const SiconosPeerResult res = solve_with_siconos(p, solver, 1e-12, 1000);
    MESSAGE(solver << ": info " << res.info << ", iterations " << res.iterations << ", error " << res.error
                   << ", r = (" << res.r.transpose() << "), " << res.time_s * 1e6 << " us");
    CHECK(res.info == 0);
    CHECK(res.converged);
    CHECK(res.error <= 1e-12);
    CHECK(res.iterations >= 0);
    CHECK(res.iterations <= 1000);
    CHECK(res.time_s >= 0);
    REQUIRE(res.r.size() == 3);
    REQUIRE(res.u.size() == 3);
    const std::vector<double> u = local_velocity(p, res.r);
    for (int i = 0; i < 3; ++i) CHECK(res.u[i] == doctest::Approx(u[i]).epsilon(1e-14).scale(1));
    CHECK(natural_map_residual(p, res.r) <= 1e-6);
    // The cone itself, and a closed contact (q_n < 0 pushes in).
    CHECK(res.r[0] > 0);
    CHECK(std::hypot(res.r[1], res.r[2]) <= 0.13 * res.r[0] * (1 + 1e-9));
  }
}

TEST_CASE("siconos peer: unknown solver names are refused, listing the known ones") {
  const Problem p = one_contact();
  CHECK_THROWS_WITH_AS(solve_with_siconos(p, "siconos_lemke", 1e-10, 100), doctest::Contains("siconos_nsn_ac"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(solve_with_siconos(p, "siconos_lemke", 1e-10, 100), doctest::Contains("siconos_lemke"),
                       std::invalid_argument);
}

TEST_CASE("siconos peer: mismatched sizes are refused before reaching Siconos") {
  Problem p = one_contact();
  p.q = VecX::Zero(6);
  CHECK_THROWS_AS(solve_with_siconos(p, "siconos_nsn_ac", 1e-10, 100), std::invalid_argument);
}

TEST_CASE("siconos peer: a singular W (two identical contacts) returns and reports consistently") {
  const Problem one = one_contact();
  Problem p;
  p.name = "twin";
  p.num_contacts = 2;
  const MatX W1(one.W);
  MatX W(6, 6);
  W << W1, W1, W1, W1;  // rank 3
  p.W = W.sparseView();
  p.q.resize(6);
  p.q << one.q, one.q;
  p.mu = VecX::Constant(2, 0.13);
  for (const std::string& solver : contactlab::siconos_peer_solvers()) {
    CAPTURE(solver);
    const SiconosPeerResult res = solve_with_siconos(p, solver, 1e-10, 200);
    MESSAGE(solver << " (singular W): info " << res.info << ", iterations " << res.iterations << ", error "
                   << res.error << ", own residual " << natural_map_residual(p, res.r));
    CHECK(res.converged == (res.info == 0));
    CHECK(res.r.size() == 6);
    CHECK(res.u.size() == 6);
    CHECK(res.iterations >= 0);
    CHECK(res.iterations <= 200);
    if (res.converged) CHECK(res.error <= 1e-10);
  }
}

TEST_CASE("siconos peer: an iteration cap too small is reported as not converged") {
  const Problem p = one_contact();
  for (const std::string& solver : contactlab::siconos_peer_solvers()) {
    CAPTURE(solver);
    const SiconosPeerResult res = solve_with_siconos(p, solver, 1e-300, 1);
    CHECK(res.info != 0);
    CHECK_FALSE(res.converged);
    // Siconos' Newton solvers count the iteration that hits the cap (they
    // report 2 here), so the count can exceed max_iterations by one.
    CHECK(res.iterations <= 2);
  }
}

// read_siconos_dat against Siconos' own reader (frictionContact_new_from_filename)
// on the same files: dimension, contact count, every entry of W, q and mu must
// be identical. Exact equality, not a tolerance: both sides parse the same
// decimal text with a correctly rounded conversion (glibc's strtod / fscanf
// %lf), and densifying (NM_get_value) copies values without arithmetic, so
// any difference at all is a reader bug (misplaced block, transposition,
// skipped token). Entries are read with NM_get_value(M, i, j), Siconos'
// (row, column) accessor for every storage, so a transposed dense or block
// layout on our side shows up on the non-symmetric matrices.
TEST_CASE("siconos peer: read_siconos_dat agrees exactly with Siconos' own reader") {
  numerics_set_verbose(0);
  // The last one is a non-symmetric sparse-block W (the other block files are
  // symmetric, where a transposed block layout would go unnoticed).
  const std::vector<std::string> files{"FrictionContact3D_1c.dat", "FC3D_Example1.dat",
                                       "FC3D_Example1_SBM.dat",    "Rover4396.dat",
                                       "NESpheres_10_1.dat",       "Confeti-ex13-4contact-Fc3D-SBM.dat",
                                       "OneObject-i1028-138.hdf5.dat"};
  for (const std::string& file : files) {
    const std::string path = std::string(CONTACTLAB_FC3D_DIR) + "/" + file;
    CAPTURE(path);
    const Problem ours = contactlab::read_siconos_dat(path);
    ::FrictionContactProblem* theirs = frictionContact_new_from_filename(path.c_str());
    REQUIRE(theirs != nullptr);
    REQUIRE(theirs->M != nullptr);
    CHECK(ours.dimension == theirs->dimension);
    CHECK(ours.num_contacts == theirs->numberOfContacts);
    CHECK(ours.storage == static_cast<int>(theirs->M->storageType));
    const int m = 3 * theirs->numberOfContacts;
    REQUIRE(theirs->M->size0 == m);
    REQUIRE(theirs->M->size1 == m);
    REQUIRE(ours.W.rows() == m);
    REQUIRE(ours.W.cols() == m);
    REQUIRE(ours.q.size() == m);
    REQUIRE(ours.mu.size() == theirs->numberOfContacts);
    int w_diff = 0, q_diff = 0, mu_diff = 0;
    bool symmetric = true;
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) {
        const double w = NM_get_value(theirs->M, i, j);
        if (ours.W.coeff(i, j) != w) {
          if (w_diff == 0)
            MESSAGE(file << ": W(" << i << "," << j << ") ours " << ours.W.coeff(i, j) << " Siconos " << w);
          ++w_diff;
        }
        if (w != NM_get_value(theirs->M, j, i)) symmetric = false;
      }
    for (int i = 0; i < m; ++i)
      if (ours.q[i] != theirs->q[i]) ++q_diff;
    for (int c = 0; c < theirs->numberOfContacts; ++c)
      if (ours.mu[c] != theirs->mu[c]) ++mu_diff;
    MESSAGE(file << ": " << theirs->numberOfContacts << " contacts, storage "
                 << static_cast<int>(theirs->M->storageType)
                 << std::string(symmetric ? ", symmetric W" : ", non-symmetric W"));
    CHECK(w_diff == 0);
    CHECK(q_diff == 0);
    CHECK(mu_diff == 0);
    frictionContactProblem_free(theirs);
  }
}

// No file of the collection uses storage 2 (CSparse text), so Siconos writes
// some: a non-symmetric W from the collection, as a triplet list and as
// compressed columns, through frictionContact_printInFilename. Siconos 4.4
// labels the CSparse part with its NumericsSparseOrigin code (NSM_TRIPLET 1,
// NSM_CSC 2, NSM_CSR 3) and prints values with %g, so the comparison is with
// Siconos' own reading of the written file (exact: same text on both sides),
// not with the original W. Compressed-row files cannot be made here (this
// build's NM_csr needs MKL).
TEST_CASE("siconos peer: read_siconos_dat reads sparse (storage 2) files as Siconos writes them") {
  numerics_set_verbose(0);
  const std::string source = std::string(CONTACTLAB_FC3D_DIR) + "/OneObject-i1028-138.hdf5.dat";
  ::FrictionContactProblem* original = frictionContact_new_from_filename(source.c_str());
  REQUIRE(original != nullptr);
  const int nc = original->numberOfContacts;
  const int m = 3 * nc;
  NumericsMatrix* dense = NM_create(NM_DENSE, m, m);
  REQUIRE(NM_to_dense(original->M, dense) == 0);
  for (const bool compressed : {false, true}) {
    CAPTURE(compressed);
    NumericsMatrix* sparse = NM_create(NM_SPARSE, m, m);
    NM_triplet_alloc(sparse, static_cast<CS_INT>(m) * m);
    sparse->matrix2->origin = NSM_TRIPLET;
    NM_dense_to_sparse(dense, sparse, DBL_MIN);  // drops exact zeros
    if (compressed) {
      REQUIRE(NM_csc(sparse) != nullptr);
      sparse->matrix2->origin = NSM_CSC;
    }
    auto* q = static_cast<double*>(std::malloc(sizeof(double) * m));
    auto* mu = static_cast<double*>(std::malloc(sizeof(double) * nc));
    std::copy(original->q, original->q + m, q);
    std::copy(original->mu, original->mu + nc, mu);
    ::FrictionContactProblem* written = frictionContactProblem_new_with_data(3, nc, sparse, q, mu);
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("contactlab_siconos_storage2_" + std::to_string(::getpid()) +
                               (compressed ? "_csc.dat" : "_triplet.dat")))
                                 .string();
    std::vector<char> cpath(path.begin(), path.end());
    cpath.push_back('\0');
    REQUIRE(frictionContact_printInFilename(written, cpath.data()) == 0);
    frictionContactProblem_free(written);

    ::FrictionContactProblem* theirs = frictionContact_new_from_filename(path.c_str());
    REQUIRE(theirs != nullptr);
    REQUIRE(theirs->M->storageType == NM_SPARSE);
    Problem ours;
    CHECK_NOTHROW(ours = contactlab::read_siconos_dat(path));
    std::filesystem::remove(path);
    if (ours.W.rows() == m && ours.W.cols() == m && ours.q.size() == m && ours.mu.size() == nc) {
      CHECK(ours.storage == 2);
      int w_diff = 0, transposed_diff = 0;
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i) {
          const double w = NM_get_value(theirs->M, i, j);
          w_diff += ours.W.coeff(i, j) != w;
          transposed_diff += ours.W.coeff(j, i) != w;
        }
      if (w_diff != 0)
        MESSAGE(std::string(compressed ? "compressed column" : "triplet")
                << ": " << w_diff << " of " << m * m << " entries differ; as a transpose, " << transposed_diff);
      CHECK(w_diff == 0);
      int q_diff = 0, mu_diff = 0;
      for (int i = 0; i < m; ++i) q_diff += ours.q[i] != theirs->q[i];
      for (int c = 0; c < nc; ++c) mu_diff += ours.mu[c] != theirs->mu[c];
      CHECK(q_diff == 0);
      CHECK(mu_diff == 0);
    }
    frictionContactProblem_free(theirs);
  }
  NM_clear(dense);
  std::free(dense);
  frictionContactProblem_free(original);
}

TEST_CASE("siconos peer: Fc3dErrors::siconos is the error Siconos itself reports, natural map / max(|q|, |r|, |u|)") {
  // Problems where each of |q| (NESpheres_10_1), |r| (Rover1040, Confeti) and
  // |u| (OneObject-i1028-138) is the largest, so each branch of the max is met.
  int compared = 0;
  for (const char* name : {"NESpheres_10_1.dat", "Rover1040.dat", "Confeti-ex13-4contact-Fc3D-SBM.dat",
                           "OneObject-i1028-138.hdf5.dat"}) {
    const std::string path = std::string(CONTACTLAB_FC3D_DIR) + "/" + name;
    REQUIRE_MESSAGE(std::filesystem::exists(path), "missing test problem " << path);
    const contactlab::FrictionContactProblem p = contactlab::read_siconos_dat(path);
    for (const char* solver : {"siconos_nsn_ac", "siconos_nsgs"}) {
      const std::string what = std::string(name) + " " + solver;
      CAPTURE(what);
      const contactlab::SiconosPeerResult sr = contactlab::solve_with_siconos(p, solver, 1e-6, 10000);
      contactlab::VecX u;
      const contactlab::Fc3dErrors e = contactlab::fc3d_errors(p, sr.r, u);
      if (sr.error < 1e-12) continue;  // at rounding level the two agree only to rounding
      CHECK(e.siconos == doctest::Approx(sr.error).epsilon(1e-4));
      CHECK(e.siconos <= e.relative * (1 + 1e-12));
      ++compared;
    }
  }
  CHECK(compared >= 6);  // of 8: only an answer exact to rounding is left out
}

TEST_CASE("siconos peer: a 2 %-full W goes to Siconos in sparse-block storage and is solved there") {
  // Capsules-i101-404: 225 contacts, 2 % of W non-zero, W not symmetric. The
  // sparse-block conversion is checked by the answer: Siconos' NSN-FB must
  // meet the natural map recomputed here from the dense W we hold.
  const std::string path = std::string(CONTACTLAB_FC3D_DIR) + "/Capsules-i101-404.dat";
  REQUIRE_MESSAGE(std::filesystem::exists(path), "missing test problem " << path);
  const contactlab::FrictionContactProblem p = contactlab::read_siconos_dat(path);
  const contactlab::SiconosPeerResult sr = contactlab::solve_with_siconos(p, "siconos_nsn_fb", 1e-6, 1000);
  CHECK(sr.converged);
  contactlab::VecX u;
  const contactlab::Fc3dErrors e = contactlab::fc3d_errors(p, sr.r, u);
  CHECK(e.siconos <= 1e-6);
  CHECK(e.siconos == doctest::Approx(sr.error).epsilon(1e-4));
  CHECK(sr.r.norm() > 0);
}

#endif
