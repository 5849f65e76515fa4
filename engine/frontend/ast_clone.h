// Deep copies of AST nodes, for the few transformations that need a piece
// of a function more than once (literal_unroll emits one copy of a loop
// body per tuple element: sema/unroll.cpp). Copies keep every source
// location; `rename` replaces Name ids, and `replace` may substitute the
// copy of a statement with statements of its own.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "frontend/ast.h"

namespace cuhost::ast {

struct CloneOptions {
  std::map<std::string, std::string> rename;  // Name id -> new id
  // Called for every statement: returns true when it appended the copy's
  // replacement to `out` itself (the statement is then not copied).
  std::function<bool(const Stmt& s, Body& out)> replace;
};

ExprPtr clone(const Expr& e, const CloneOptions& opts = {});
Body clone(const Body& body, const CloneOptions& opts = {});
std::unique_ptr<FunctionDef> clone(const FunctionDef& def, const CloneOptions& opts = {});

}  // namespace cuhost::ast
