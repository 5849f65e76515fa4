// Python's semantics on compile-time constants (bool(), number operators,
// comparisons), for the decisions numba makes before typing
// (sema/branch_pruning.cpp).
#pragma once

#include <optional>

#include "frontend/ast.h"
#include "ir/constant.h"

namespace cuhost::sema {

// Python's bool() of a constant.
std::optional<bool> truth(const ir::ConstValue& v);

// `a op b` / `op v` of number constants as Python computes them, the
// integer result typed as numba types a literal (int64, or uint64 from
// 2**63 on); nullopt when Python would raise, the result leaves 64 bits, or
// the operation is not folded here (float `//`, `%`, `**`).
std::optional<ir::ConstValue> fold_binop(ast::BinOpKind op, const ir::ConstValue& a, const ir::ConstValue& b);
std::optional<ir::ConstValue> fold_unary(ast::UnaryOpKind op, const ir::ConstValue& v);

// Python's `a op b` of two constants where Python answers without raising
// (numba catches the exception and leaves the branch); None is numba's
// NoneType there, equal only to itself.
std::optional<bool> compare_values(const ir::ConstValue& a, ast::CompareOpKind op, const ir::ConstValue& b);

}  // namespace cuhost::sema
