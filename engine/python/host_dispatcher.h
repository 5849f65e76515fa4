// The C++ state behind numba.njit / numba.jit functions (the
// `_cuhost.HostDispatcher` type): calls from the host run the function
// compiled for the CPU (runtime/host_function.h), one specialization per
// argument-type fingerprint; kernels calling the function use its device
// dispatcher, which shares the captured source.
#pragma once

#include <Python.h>

#include <memory>

#include "model/jit_function.h"

namespace cuhost::python {

bool is_host_dispatcher(PyObject* obj);

// The JitFunction kernels call for a host dispatcher (its device
// dispatcher's, captured). Throws UserError.
std::shared_ptr<model::JitFunction> host_dispatcher_function(PyObject* obj);

// Why kernels cannot call `obj` (empty when they can): numba-cuda refuses
// CPU dispatchers whose compilation is disabled.
std::string host_dispatcher_refusal(PyObject* obj);

// Registers the type (python/hooks.cpp's add_dispatcher).
int add_host_dispatcher(PyObject* module);

}  // namespace cuhost::python
