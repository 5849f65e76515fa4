// Driver entry points as numba-cuda's driver layer calls them (the calling
// convention of cuda-python's cuda.bindings.driver: handles and sizes in,
// a CUresult and the output values out). Every argument and result is a
// 64-bit integer (host data such as a name or an IPC handle is passed by
// address); results that are byte blobs (a UUID, an IPC handle) fill
// `out_bytes` bytes of the output array instead. The same table shape is
// implemented for the CPU backend by cpu/driver_model.h, so the Python
// binding layer (python/driver_calls.cpp) marshals both alike.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/driver_call.h"

namespace cuhost::cuda {

using model::BindingCall;

// The entry points the CUDA backend provides (null when `name` is not one).
const BindingCall* find_binding_call(const std::string& name);
std::vector<std::string> binding_call_names();

}  // namespace cuhost::cuda
