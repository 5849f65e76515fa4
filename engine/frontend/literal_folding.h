// CPython folds operators on literals when it compiles a function, so numba
// sees `2**63` as the constant 9223372036854775808 (typed uint64) and
// `2**64 - 1` as 18446744073709551615; cuhost reads the source, so it folds
// the same subtrees itself, with Python doing the arithmetic.
#pragma once

#include "frontend/py_ref.h"

namespace cuhost::frontend {

// The value CPython's compiler folds the Python ast node `node` (a BinOp or
// UnaryOp whose leaves are number constants) to, or an empty ref when it is
// not such a node, when Python raises (a division by zero), or when an
// intermediate integer would exceed the 128 bits CPython folds at most.
PyRef fold_literal_operator(PyObject* node);

}  // namespace cuhost::frontend
