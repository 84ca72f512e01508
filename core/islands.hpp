// Islands of a constraint problem: the groups of bodies that rows (joints,
// limits, contacts, equality constraints) connect, directly or through other
// bodies. The world and static bodies (zero inverse mass and inertia) connect
// nothing: two boxes resting apart on the ground are two islands. Rows of
// different islands share no body, so the Delassus matrix is block diagonal
// over islands and each island's problem can be solved on its own.
//
// An island's rows keep the problem's order, so a sub-problem has the same
// three groups (bilateral, limits, contacts) as the whole. A row that touches
// no moving body (its Delassus entry is its compliance alone) is an island by
// itself.
#pragma once

#include <vector>

#include "core/constraint_problem.hpp"

namespace contactlab {

struct IslandPartition {
  int num_islands = 0;
  // Island i owns rows[row_begin[i] .. row_begin[i+1]) (problem row indices,
  // ascending) and bodies[body_begin[i] .. body_begin[i+1]) (ascending).
  // Islands are numbered in the order of their first row.
  std::vector<int> row_begin, rows;
  std::vector<int> body_begin, bodies;
  std::vector<int> row_island;   // (m) island of each row
  std::vector<int> body_island;  // (nb) island of each body; -1 when static or touched by no row
  // Scratch of the union-find and the counting sort, kept between steps.
  std::vector<int> root, count;
};

// Whether a body of the problem moves: it has a non-zero inverse mass or
// inverse inertia. A body that does not move connects no island.
bool moves_in_problem(const ConstraintProblem& problem, int body);

// Fills `out` for a problem given by rows and bodies (not an explicit
// Delassus matrix, whose coupling is not known from bodies: throws
// std::invalid_argument). Allocates only when sizes grow.
void partition_islands(const ConstraintProblem& problem, IslandPartition& out);

// The sub-problem of island `island`: its rows in order with their bodies
// renumbered 0..k-1 in the partition's body order, their compliance, free
// velocity, friction and the bodies' inverse masses. No nonlinear rows.
void extract_island(const ConstraintProblem& problem, const IslandPartition& partition, int island,
                    ConstraintProblem& sub);

}  // namespace contactlab
