// `_cuhost._conversion`: the engine's conversion relation (sema/conversions.h)
// for the extension API's can_convert (cuda/_ext/conversions.py), so Python
// asks the one relation instead of keeping a copy of it.
#pragma once

#include <Python.h>

namespace cuhost::python {

// Adds _conversion(from_spelling, to_spelling, literal=False) to `module`.
int add_conversion_api(PyObject* module);

}  // namespace cuhost::python
