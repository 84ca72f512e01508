#include "core/islands.hpp"

#include <stdexcept>

namespace contactlab {

namespace {

int find_root(std::vector<int>& root, int b) {
  while (root[b] != b) {
    root[b] = root[root[b]];  // path halving: keeps the trees flat without recursion
    b = root[b];
  }
  return b;
}

void unite(std::vector<int>& root, int a, int b) {
  a = find_root(root, a);
  b = find_root(root, b);
  // The smaller index becomes the root, so the result does not depend on the
  // order rows are visited in.
  if (a < b) root[b] = a;
  else if (b < a) root[a] = b;
}

// The first moving body of a row, or -1.
int moving_end(const ConstraintProblem& pr, const ConstraintRow& row, int* other) {
  const bool a = row.body_a >= 0 && moves_in_problem(pr, row.body_a);
  const bool b = row.body_b >= 0 && moves_in_problem(pr, row.body_b);
  *other = a && b ? row.body_b : -1;
  return a ? row.body_a : (b ? row.body_b : -1);
}

}  // namespace

bool moves_in_problem(const ConstraintProblem& pr, int body) {
  return pr.inv_mass[body] != 0 || !pr.inv_inertia_W[body].isZero(0);
}

void partition_islands(const ConstraintProblem& pr, IslandPartition& out) {
  if (pr.explicit_delassus())
    throw std::invalid_argument("partition_islands: a problem given by its Delassus matrix has no bodies to group");
  const int m = pr.num_rows(), nb = pr.num_bodies, off = pr.contact_offset();
  out.root.resize(nb);
  for (int b = 0; b < nb; ++b) out.root[b] = b;
  for (int r = 0; r < m; ++r) {
    int other = -1;
    const int first = moving_end(pr, pr.rows[r], &other);
    if (first >= 0 && other >= 0) unite(out.root, first, other);
  }
  // A contact's three rows stay together: unite through each of them (they
  // normally share their bodies, but nothing below relies on it).
  for (int k = 0; k < pr.num_contacts; ++k) {
    int anchor = -1;
    for (int i = 0; i < 3; ++i) {
      int other = -1;
      const int b = moving_end(pr, pr.rows[off + 3 * k + i], &other);
      if (b < 0) continue;
      if (anchor < 0) anchor = b;
      else unite(out.root, anchor, b);
    }
  }

  // Number islands in the order of their first row; a unit (a non-contact row
  // or a contact's three rows) with no moving body is an island of its own.
  out.body_island.assign(nb, -1);
  out.row_island.resize(m);
  int islands = 0;
  for (int r = 0; r < m;) {
    const int unit = r < off ? 1 : 3;
    int island = -1;
    for (int i = 0; i < unit && island < 0; ++i) {
      int other = -1;
      const int b = moving_end(pr, pr.rows[r + i], &other);
      if (b < 0) continue;
      const int root = find_root(out.root, b);
      if (out.body_island[root] < 0) out.body_island[root] = islands++;
      island = out.body_island[root];
    }
    if (island < 0) island = islands++;
    for (int i = 0; i < unit; ++i) out.row_island[r + i] = island;
    r += unit;
  }
  // Every moving body touched by a row takes its root's island.
  for (int b = 0; b < nb; ++b) {
    if (!moves_in_problem(pr, b)) {
      out.body_island[b] = -1;
      continue;
    }
    const int root = find_root(out.root, b);
    out.body_island[b] = out.body_island[root];
  }
  out.num_islands = islands;

  // Counting sort of rows and bodies by island (stable: ascending within one).
  auto group = [&](const std::vector<int>& island_of, int n, std::vector<int>& begin, std::vector<int>& items) {
    begin.assign(islands + 1, 0);
    for (int i = 0; i < n; ++i)
      if (island_of[i] >= 0) ++begin[island_of[i] + 1];
    for (int i = 0; i < islands; ++i) begin[i + 1] += begin[i];
    items.resize(begin[islands]);
    out.count.assign(begin.begin(), begin.end() - 1);
    for (int i = 0; i < n; ++i)
      if (island_of[i] >= 0) items[out.count[island_of[i]]++] = i;
  };
  group(out.row_island, m, out.row_begin, out.rows);
  group(out.body_island, nb, out.body_begin, out.bodies);
}

void extract_island(const ConstraintProblem& pr, const IslandPartition& part, int island, ConstraintProblem& sub) {
  const int r0 = part.row_begin[island], r1 = part.row_begin[island + 1];
  const int b0 = part.body_begin[island], b1 = part.body_begin[island + 1];
  const int off = pr.contact_offset();
  int bilateral = 0, limits = 0;
  for (int i = r0; i < r1; ++i) {
    const int r = part.rows[i];
    if (r < pr.num_bilateral) ++bilateral;
    else if (r < off) ++limits;
  }
  const int contacts = (r1 - r0 - bilateral - limits) / 3;
  sub.resize(b1 - b0, bilateral, limits, contacts);
  sub.nonlinear_rows = nullptr;
  sub.explicit_W.reset();

  // A body's local index is its position in the island's (ascending) list.
  auto local = [&](int body) -> int {
    if (body < 0 || part.body_island[body] != island) return -1;  // world or static: no contribution
    int lo = b0, hi = b1;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (part.bodies[mid] < body) lo = mid + 1;
      else hi = mid;
    }
    return lo - b0;
  };
  for (int i = b0; i < b1; ++i) {
    sub.inv_mass[i - b0] = pr.inv_mass[part.bodies[i]];
    sub.inv_inertia_W[i - b0] = pr.inv_inertia_W[part.bodies[i]];
  }
  for (int i = r0; i < r1; ++i) {
    const int r = part.rows[i], s = i - r0;
    const ConstraintRow& row = pr.rows[r];
    ConstraintRow& out = sub.rows[s];
    out.body_a = local(row.body_a);
    out.body_b = local(row.body_b);
    out.J_a = out.body_a >= 0 ? row.J_a : Vec6::Zero();
    out.J_b = out.body_b >= 0 ? row.J_b : Vec6::Zero();
    sub.compliance[s] = pr.compliance[r];
    sub.v_free[s] = pr.v_free[r];
    if (r >= off && (r - off) % 3 == 0) sub.mu[(s - bilateral - limits) / 3] = pr.mu[(r - off) / 3];
  }
}

}  // namespace contactlab
