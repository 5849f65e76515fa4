// The operator module's functions kernels may call (operator.add(a, b) is
// `a + b`): the one name -> operator table typing (typing/arith.cpp) and
// lowering (lowering/arith.cpp) share.
#pragma once

#include <string>

#include "frontend/ast.h"

namespace cuhost::sema {

// "add" "sub" "mul" "truediv" "floordiv" "mod" "pow" "lshift" "rshift"
// "and_" "or_" "xor" and their in-place forms ("iadd", ...).
bool operator_binop(const std::string& name, ast::BinOpKind* op);
// "lt" "le" "gt" "ge" "eq" "ne".
bool operator_compare(const std::string& name, ast::CompareOpKind* op);

}  // namespace cuhost::sema
