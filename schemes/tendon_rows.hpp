// Rows of fixed tendons and joint/tendon equalities (core/tendon.hpp): each
// is one scalar coordinate x(q) (a joint coordinate, a tendon length, or
// x1 - poly(x2)) with its Jacobian row dx/dt = J u. assemble_rows_t
// (schemes/assembly.cpp) turns them into limit rows, implicit spring/damper
// rows and bilateral rows. A coordinate may involve at most two moving bodies
// (a row has two body slots); the MJCF reader refuses others.
#pragma once

#include <vector>

#include "core/constraint_problem.hpp"
#include "core/kinematics.hpp"
#include "core/model.hpp"

namespace contactlab {

// Tendon length sum coef_i q_i and its row; `row` is overwritten.
template <class T>
T tendon_length_row(const Model& model, const BodyStatesT<T>& s, int tendon, ConstraintRowT<T>& row);

// c = x1 - poly(x2) of a joint/tendon equality and its row.
template <class T>
T scalar_equality_row(const Model& model, const BodyStatesT<T>& s, int equality, ConstraintRowT<T>& row);

// Row counts: bilateral (equalities, tendon spring/damper rows) and limits (2 per limited tendon).
int tendon_bilateral_rows(const Model& model);
int tendon_limit_rows(const Model& model);

}  // namespace contactlab
