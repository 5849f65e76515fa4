// The one place a kernel's failure becomes a Python exception: launches on
// either backend (through KernelErrorRaised, python/errors.cpp) and calls
// of compiled functions from the host (numba.njit) hand their report here.
#pragma once

#include <Python.h>

#include "support/kernel_error.h"

namespace cuhost::python {

// Sets the Python exception numba-cuda (or numba's CPU target, for a call
// from the host) raises for `report`; always returns null. GIL held.
PyObject* raise_kernel_error(const KernelErrorReport& report);

}  // namespace cuhost::python
