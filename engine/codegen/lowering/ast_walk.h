// A pre-order walk over an expression and all its subexpressions, for the
// analyses that run before lowering (analysis.cpp, definite_assignment.cpp).
#pragma once

#include <functional>

#include "frontend/ast.h"

namespace cuhost::codegen {

using ExprVisitor = std::function<void(const ast::Expr*)>;

// Calls `f` on `e` (when not null) and then on each subexpression.
void walk_expr(const ast::Expr* e, const ExprVisitor& f);

}  // namespace cuhost::codegen
