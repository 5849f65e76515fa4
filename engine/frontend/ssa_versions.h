// numba types each SSA version of a variable on its own: `x = f32(a)` then
// `x = 1.0` gives a float32 `x` and a float64 `x.1`, and only where versions
// meet (after an `if`, at a loop's head or exit) are their types unified,
// by the copy numba places on each incoming edge when it strips its phi
// nodes. cuhost's typer gives a name one type, the unification of every
// assignment to it; this pass rewrites a function so that the names of the
// rewritten AST are exactly numba's versions and the joins are explicit
// copies, so the same typer then types it as numba does.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "frontend/ast.h"

namespace cuhost::frontend {

// A copy of `def` in which every variable assigned more than once
// (parameters count as an assignment) gets a name per assignment ("x",
// "x.1", ...); reads use the version that reaches them, and where several
// reach a read, a join version is assigned on each incoming path (at the
// end of a branch, before a loop, at the end of a loop body and before a
// `continue` or `break`). Join copies nothing reads are left out, as numba
// places phi nodes only where a read needs one. `x += v` on a versioned `x`
// becomes `x.2 = x.1 + v`. Null when no variable is assigned twice.
std::unique_ptr<ast::FunctionDef> version_variables(const ast::FunctionDef& def);

// Adds to `counts` how often `body` assigns each name (assignment and
// augmented-assignment targets, tuple targets' names, for-loop targets,
// nested blocks included): the typer's and this pass's notion of "assigned
// more than once".
void count_assignments(const ast::Body& body, std::map<std::string, int>& counts);

// The name a user wrote for a local of a rewritten function: "x.2" -> "x".
// (Names a user writes never hold a '.'.)
std::string source_variable_name(const std::string& id);

}  // namespace cuhost::frontend
