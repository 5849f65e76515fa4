// numba's typeof rules for launch arguments, tuned for the launch hot path:
// Python scalars and NumPy scalar types resolve through a small table keyed by
// the type object; arrays (host NumPy, device arrays, __cuda_array_interface__
// objects) resolve through their views, which the launcher then reuses for
// packing. The interned ir::Type pointers are the launch fingerprint.
#pragma once

#include <Python.h>

#include <cstdint>
#include <string>

#include "ir/types.h"
#include "python/array_view.h"

namespace cuhost::python {

// HostRecord: a NumPy record scalar, passed by reference (view.data is its
// storage, view.dtype its record type, ndim 0).
enum class ArgKind : std::uint8_t { Scalar, DeviceArray, HostArray, Tuple, HostRecord };

struct ArgInfo {
  ArgKind kind = ArgKind::Scalar;
  ArrayView view;  // arrays only
};

// The type of a launch argument, filling `info` (may be null). Returns
// nullptr with no Python error when the value has no kernel type, and nullptr
// with a Python error set when an array interface is malformed.
const ir::Type* typeof_arg(PyObject* obj, ArgInfo* info);

// The Python type name of a value ("str", "list", ...), for messages.
std::string python_type_name(PyObject* obj);

// Adds `_cuhost._typeof(value)` -> numba spelling of the type (or None).
int add_typeof(PyObject* module);

}  // namespace cuhost::python
