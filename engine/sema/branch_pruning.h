// numba's dead-branch pruning (numba/core/analysis.py dead_branch_prune),
// decided on the AST: numba removes a branch whose condition it can evaluate
// before typing, so the dead side is never typed and takes no part in
// unification (`u[0] if True else 5` is uint64, not float64). Exactly the
// conditions numba decides are decided here; everything else is typed on
// both sides.
#pragma once

#include <functional>
#include <optional>

#include "frontend/ast.h"

namespace cuhost::sema {

class Typer;

// The truth of the condition of an `if`, a conditional expression or a
// `while` when numba prunes on it: constants (after CPython's folding of
// literal expressions), constant globals, locals assigned once from one,
// comparisons of those, `is None` / `== None` (and their negations) of an
// argument that is None, omitted with a None default, or a literal, `not`,
// and `and`/`or` decided by one such operand. nullopt otherwise. When known,
// the condition's ExprInfo holds the boolean as its constant (so lowering
// emits only the live side and does not evaluate the condition) and the
// condition itself is not typed, as numba replaces it by a constant.
// `at` is the `if` statement whose test this is (null for a conditional
// expression: then the statement that evaluates it): an assignment just
// before that statement in its block is the definition of a name that
// reaches the test.
std::optional<bool> pruned_condition(Typer& t, const ast::Expr* test, const ast::Stmt* at = nullptr);

// The truth of a `while` loop's condition on every iteration (a constant,
// `while True:`), with pruned_condition's side effects.
std::optional<bool> pruned_loop_condition(Typer& t, const ast::Expr* test);

// The truth of a `while` loop's condition on entry (CPython tests it once
// before the loop, with the definitions reaching the loop): false means the
// body is dead. No side effect: a true entry says nothing of later tests.
std::optional<bool> entry_condition(Typer& t, const ast::Expr* test, const ast::Stmt* at);

// The truth of a non-last operand of `and`/`or` used as a value when numba
// branches on it before typing (a constant, a comparison numba evaluates):
// such an operand either decides the result or drops out of it. Call after
// typing the operand; when known, the operand's ExprInfo holds its value as
// a constant, which lowering reads.
std::optional<bool> pruned_operand(Typer& t, const ast::Expr* operand);

// Whether control never falls off the end of `b`: a statement of it
// returns, raises, breaks or continues, or is an `if` whose kept sides all
// do (`truth` gives an `if` condition's pruned truth, nullopt when both sides
// are kept). Statements after an `if` pruned to such a side are dead: numba
// neither types nor compiles them.
bool leaves_block(const ast::Body& b, const std::function<std::optional<bool>(const ast::Expr*)>& truth);

}  // namespace cuhost::sema
