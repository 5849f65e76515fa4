// Python values crossing into and out of functions called on the host
// (numba.njit, python/host_dispatcher.cpp): numba's typeof of arguments for
// the CPU target, packing them into the 8-byte slots of
// codegen/host_entry.h, boxing results out of slots, and raising what the
// compiled code reported (cpu/host_call_errors.h) as numba would.
#pragma once

#include <Python.h>

#include <cstdint>

#include "cpu/host_call_errors.h"
#include "ir/types.h"
#include "python/typeof.h"

namespace cuhost::python {

// numba's type of argument `index` of `function` on the CPU target, filling
// `info` (a host array's view). None types as none; device arrays are a
// TypeError (host calls run on the CPU), str/list/dict/set and other
// values cuhost cannot pass a NotImplementedError, anything else numba
// cannot type a TypingError. Returns null with the Python error set.
const ir::Type* host_typeof(PyObject* value, ArgInfo* info, Py_ssize_t index, const char* function);

// Packs `value` as a `type` parameter (which may differ from its own type
// when an explicit signature converts it, as numba's unboxing does) and
// advances `slot`. `info` is the value's ArgInfo or null. False with the
// Python error set.
bool pack_host_value(PyObject* value, const ir::Type* type, const ArgInfo* info, std::uint64_t*& slot,
                     const char* function);

// The arguments of one call, for results that are views of them.
struct HostCallArgs {
  PyObject* const* values;
  const ArgInfo* infos;
  Py_ssize_t count;
};

// Boxes a result of `type` from `slot` (advanced). New reference, or null
// with the Python error set: arrays that are views of an argument become
// NumPy views of it; other arrays (made inside the function) cannot be
// returned (NotImplementedError).
PyObject* box_host_result(const ir::Type* type, const std::uint64_t*& slot, const HostCallArgs& args,
                          const char* function);

// Raises the error a call of `function` reported (or the bare status), as
// numba's CPU target raises it. Always returns null.
PyObject* raise_host_call_error(const cpu::HostCallError& error, std::int32_t status, const char* function);

}  // namespace cuhost::python
