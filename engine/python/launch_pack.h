// Packing one launch argument into kernel-ABI slots (codegen/kernel_abi.h):
// what a script launch (launch.cpp) and a captured launch's new arguments
// (graphs.cpp) do with each Python value, by the parameter's type.
#pragma once

#include <Python.h>

#include <cstdint>

#include "ir/types.h"
#include "python/typeof.h"

namespace cuhost::python {

// Packs `v` as a `t` parameter (using `info` from typeof_arg when given)
// into the slots at `slot` (advanced past them; `end` bounds them). False
// with a Python error (TypeError naming the kernel) when the value does not fit.
bool pack_launch_argument(PyObject* v, const ir::Type* t, const ArgInfo* info, std::uint64_t*& slot, std::uint64_t* end,
                          const char* kernel);

// Packs a Python complex number as a complex64/complex128 `t` into two slots
// (also the host calls of numba.njit functions, host_values.cpp).
bool pack_complex(PyObject* v, const ir::Type* t, std::uint64_t*& slot);

}  // namespace cuhost::python
