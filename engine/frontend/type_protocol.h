// How a Python object names an engine type, read where Python values meet
// the engine (capture's frozen globals, signatures, the extension bridge):
// a `_cuhost.TypeHandle` (the object that wraps one interned `ir::Type*`),
// or any object with the public `__cuhost_type__` protocol attribute
// returning one (cuda.types objects, and a user's own type objects). Only
// the TypeHandle's layout lives here, below the stages that read it; the
// Python type itself is made in python/type_handle.cpp.
#pragma once

#include <Python.h>

#include "ir/types.h"

namespace cuhost::frontend {

struct TypeHandleObject {
  PyObject_HEAD const ir::Type* type;
};

// The Python type of handles (filled in and readied by python/type_handle.cpp).
PyTypeObject& type_handle_type();

// The type a handle wraps, or nullptr when `obj` is not a TypeHandle.
const ir::Type* type_of_handle(PyObject* obj);

// The type `obj` names by being a handle or through `__cuhost_type__`, or
// nullptr (no Python error left set) when it names none. A `__cuhost_type__`
// that raises leaves nullptr too: the object is not an engine type.
const ir::Type* type_of_typed_object(PyObject* obj);

}  // namespace cuhost::frontend
