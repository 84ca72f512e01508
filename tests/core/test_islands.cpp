// Island decomposition of a constraint problem (core/islands.hpp) on known
// graphs: bodies touching only the ground, two separate stacks, a chain
// through a joint, a static body between two movers, a row on no moving body;
// and the extracted sub-problems' Delassus blocks against the whole problem's.
#include <doctest/doctest.h>

#include <vector>

#include "core/islands.hpp"

using namespace contactlab;

namespace {

struct RowSpec {
  int a, b;
  bool contact;  // a contact adds three rows, else one bilateral row
};

// A problem over `bodies` unit bodies (body `fixed_body` has zero inverse
// mass and inertia), with rows as listed: bilateral ones first, then contacts.
ConstraintProblem problem_of(int bodies, const std::vector<RowSpec>& specs, int fixed_body = -1) {
  int bilateral = 0, contacts = 0;
  for (const RowSpec& s : specs) (s.contact ? contacts : bilateral) += 1;
  ConstraintProblem p;
  p.resize(bodies, bilateral, 0, contacts);
  for (int b = 0; b < bodies; ++b) {
    const bool fixed = b == fixed_body;
    p.inv_mass[b] = fixed ? 0 : 1.0 / (1 + b);
    p.inv_inertia_W[b] = fixed ? Mat3::Zero() : Mat3(Mat3::Identity() * (2.0 + b));
  }
  int row = 0, contact_row = bilateral, seed = 1;
  auto fill = [&](int r, int a, int b) {
    ConstraintRow& cr = p.rows[r];
    cr.body_a = a;
    cr.body_b = b;
    for (int i = 0; i < 6; ++i) {
      cr.J_a[i] = 0.1 * ((seed * 7 + i * 3) % 11) - 0.5;
      cr.J_b[i] = 0.1 * ((seed * 5 + i * 13) % 9) - 0.4;
    }
    p.v_free[r] = 0.01 * seed;
    p.compliance[r] = 1e-4 * (seed % 3);
    ++seed;
  };
  for (const RowSpec& s : specs) {
    if (s.contact) {
      for (int i = 0; i < 3; ++i) fill(contact_row + i, s.a, s.b);
      p.mu[(contact_row - bilateral) / 3] = 0.3 + 0.1 * contact_row;
      contact_row += 3;
    } else {
      fill(row++, s.a, s.b);
    }
  }
  return p;
}

std::vector<int> rows_of(const IslandPartition& part, int island) {
  return {part.rows.begin() + part.row_begin[island], part.rows.begin() + part.row_begin[island + 1]};
}
std::vector<int> bodies_of(const IslandPartition& part, int island) {
  return {part.bodies.begin() + part.body_begin[island], part.bodies.begin() + part.body_begin[island + 1]};
}

}  // namespace

TEST_CASE("islands: bodies touching only the ground are one island each, in the order of their first row") {
  // Contacts: body 2 - world, body 0 - world, body 1 - world, body 0 - world again.
  const ConstraintProblem p = problem_of(3, {{2, -1, true}, {0, -1, true}, {1, -1, true}, {-1, 0, true}});
  IslandPartition part;
  partition_islands(p, part);
  REQUIRE(part.num_islands == 3);
  CHECK(rows_of(part, 0) == std::vector<int>{0, 1, 2});
  CHECK(rows_of(part, 1) == std::vector<int>{3, 4, 5, 9, 10, 11});
  CHECK(rows_of(part, 2) == std::vector<int>{6, 7, 8});
  CHECK(bodies_of(part, 0) == std::vector<int>{2});
  CHECK(bodies_of(part, 1) == std::vector<int>{0});
  CHECK(part.body_island == std::vector<int>{1, 2, 0});
}

TEST_CASE("islands: two separate stacks are two islands, a joint chains bodies into one") {
  // Stack A: 0 on ground, 1 on 0. Stack B: 3 on ground, 2 on 3. Body 4 free in the air.
  const ConstraintProblem stacks =
      problem_of(5, {{0, -1, true}, {1, 0, true}, {3, -1, true}, {2, 3, true}});
  IslandPartition part;
  partition_islands(stacks, part);
  REQUIRE(part.num_islands == 2);
  CHECK(bodies_of(part, 0) == std::vector<int>{0, 1});
  CHECK(bodies_of(part, 1) == std::vector<int>{2, 3});
  CHECK(part.body_island[4] == -1);  // touched by no row

  // A joint row between 1 and 2 joins the stacks; its row comes first.
  const ConstraintProblem chained =
      problem_of(5, {{1, 2, false}, {0, -1, true}, {1, 0, true}, {3, -1, true}, {2, 3, true}});
  partition_islands(chained, part);
  REQUIRE(part.num_islands == 1);
  CHECK(bodies_of(part, 0) == std::vector<int>{0, 1, 2, 3});
  CHECK(part.row_begin[1] == chained.num_rows());
}

TEST_CASE("islands: a static body connects nothing, a row on no moving body is an island of its own") {
  // Bodies 0 and 2 both rest on the static body 1, and a contact on the static body alone.
  const ConstraintProblem p = problem_of(3, {{0, 1, true}, {1, 2, true}, {1, -1, true}}, /*fixed_body=*/1);
  IslandPartition part;
  partition_islands(p, part);
  REQUIRE(part.num_islands == 3);
  CHECK(bodies_of(part, 0) == std::vector<int>{0});
  CHECK(bodies_of(part, 1) == std::vector<int>{2});
  CHECK(bodies_of(part, 2).empty());
  CHECK(rows_of(part, 2) == std::vector<int>{6, 7, 8});
  CHECK(part.body_island[1] == -1);
}

TEST_CASE("islands: each sub-problem's Delassus matrix, free velocity and friction are the whole problem's block") {
  const ConstraintProblem p = problem_of(
      6, {{0, 1, false}, {4, 5, false}, {0, -1, true}, {2, 3, true}, {3, 4, true}, {1, -1, true}, {2, -1, true}},
      /*fixed_body=*/3);
  IslandPartition part;
  partition_islands(p, part);
  // 3 is static: {0, 1}, {4, 5} (through the joint and the contact 3-4), {2}.
  REQUIRE(part.num_islands == 3);
  MatX D;
  p.dense_delassus(D);
  // Rows of different islands do not couple: the whole matrix is block diagonal.
  for (int r = 0; r < p.num_rows(); ++r)
    for (int s = 0; s < p.num_rows(); ++s)
      if (part.row_island[r] != part.row_island[s]) CHECK(D(r, s) == 0.0);
  for (int i = 0; i < part.num_islands; ++i) {
    CAPTURE(i);
    ConstraintProblem sub;
    extract_island(p, part, i, sub);
    const std::vector<int> rows = rows_of(part, i);
    REQUIRE(sub.num_rows() == static_cast<int>(rows.size()));
    CHECK(sub.num_bodies == static_cast<int>(bodies_of(part, i).size()));
    MatX Ds;
    sub.dense_delassus(Ds);
    for (size_t r = 0; r < rows.size(); ++r) {
      CHECK(sub.v_free[r] == p.v_free[rows[r]]);
      for (size_t s = 0; s < rows.size(); ++s) CHECK(Ds(r, s) == doctest::Approx(D(rows[r], rows[s])).epsilon(1e-14));
    }
    int bilateral = 0;
    for (int r : rows) bilateral += r < p.num_bilateral ? 1 : 0;
    CHECK(sub.num_bilateral == bilateral);
    for (int k = 0; k < sub.num_contacts; ++k)
      CHECK(sub.mu[k] == p.mu[(rows[bilateral + 3 * k] - p.contact_offset()) / 3]);
  }
}

TEST_CASE("islands: a problem given by its Delassus matrix is refused") {
  ConstraintProblem p;
  p.set_explicit(MatX::Identity(3, 3), VecX::Constant(3, -1.0), VecX::Constant(1, 0.5));
  IslandPartition part;
  CHECK_THROWS_AS(partition_islands(p, part), std::invalid_argument);
}
