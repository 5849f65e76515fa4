// The launch fingerprint of a call's arguments (call_key.cpp), for the C
// entry points that look up a plan resolved by an earlier call.
#pragma once

#include <Python.h>

namespace cuhost::python {

// The key of values[0..n) and `out` (Py_None or an array) as a new bytes
// object; Py_None (new reference) when a value has no kernel type. Throws
// what the typing of an argument throws.
PyObject* call_key(PyObject* const* values, Py_ssize_t n, PyObject* out);

}  // namespace cuhost::python
