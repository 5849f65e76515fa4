// NumPy structured dtypes as kernel record types (ir/records.h): the one
// place a dtype's fields, offsets, nested arrays and alignment become an
// ir::Type. Used by device arrays, typeof of host arrays and record scalars,
// and numba.cuda.np.numpy_support.from_dtype (through _cuhost._dtype_type).
#pragma once

#include <Python.h>

#include <cstdint>

#include "ir/types.h"
#include "python/array_view.h"

namespace cuhost::python {

// The record type of a structured dtype. nullptr with no Python error when
// the dtype is not structured or a field has no kernel type (strings,
// objects); nullptr with an error set when the dtype object is malformed.
const ir::Type* record_type_of_dtype(PyObject* dtype);

// The kernel type of any dtype (scalar or structured), with the same contract.
const ir::Type* kernel_type_of_dtype(PyObject* dtype);

// Whether `obj` is a NumPy record scalar (numpy.void with fields, or
// numpy.record); fills its type and its data pointer. The pointer is the
// scalar's own storage: for a scalar taken from an array, the array's
// element, so kernel writes reach the array (numba's behaviour).
bool record_scalar(PyObject* obj, const ir::Type** type, void** data);

// A device copy (a 0-d device array) of a host record for one launch on a
// GPU, and the copy back into the record's storage after it (numba passes
// records by reference). nullptr / -1 with a Python error on failure.
PyObject* record_to_device_for_launch(PyObject* record, const ArrayView& view, std::uintptr_t stream);
int record_copy_back_after_launch(PyObject* device_copy, PyObject* record, std::uintptr_t stream);

// Adds `_cuhost._dtype_type(dtype)` -> numba spelling of the dtype's type (or None).
int add_record_dtype(PyObject* module);

}  // namespace cuhost::python
