// Types cross the Python seam as handles, not text: a `_cuhost.TypeHandle`
// wraps one interned `const ir::Type*` and describes it by fields (kind,
// dtype, ndim, layout, items, ...), from which pylib builds its cuda.types
// objects (cuda/_type_spelling.py) without reading a spelling. The engine's
// type parser (ir/type_parser.h) is the only reader of spellings, exposed to
// Python as `_cuhost.parse_type(spelling)`.
#pragma once

#include <Python.h>

#include <vector>

#include "ir/types.h"

namespace cuhost::python {

// A new handle of `type` (never null).
PyObject* new_type_handle(const ir::Type* type);

// A new tuple of handles of `types` (inspection and compile results carry
// types this way, never as spellings), or nullptr with a Python error set.
PyObject* new_type_handle_tuple(const std::vector<const ir::Type*>& types);

// The type a handle wraps, or nullptr when `obj` is not a TypeHandle.
const ir::Type* type_of_handle(PyObject* obj);

// Adds _cuhost.TypeHandle and _cuhost.parse_type.
int add_type_handle(PyObject* module);

}  // namespace cuhost::python
