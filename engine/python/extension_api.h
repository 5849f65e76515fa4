// The extension API's engine side (extension_api.cpp): the ExtensionObject
// of a Python object cuda.extending types, and the `_cuhost` functions and
// typing hooks it installs.
#pragma once

#include <Python.h>

#include <memory>

#include "ir/extension_types.h"

namespace cuhost::python {

// The ExtensionObject of `obj` when the extension API types its calls, else
// nullptr (no Python error). Needs the GIL.
std::shared_ptr<const ir::ExtensionObject> extension_object(PyObject* obj);

// Adds _register_extension_type / _register_builtin_extension and installs
// the typing hooks.
int add_extension_api(PyObject* module);

}  // namespace cuhost::python
