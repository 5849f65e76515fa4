// The shape of one driver entry point as numba-cuda's driver layer calls it
// (cuda-python's calling convention): integer arguments in, a CUresult and
// integer results out. The CUDA backend implements the table for the real
// driver (cuda/binding_calls.h) and the CPU backend for its own device
// (cpu/driver_model.h); python/driver_calls.cpp marshals both alike.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace cuhost::model {

struct BindingCall {
  const char* name;
  int inputs;     // integer arguments
  int outputs;    // integer results (ignored when out_bytes > 0)
  int out_bytes;  // > 0: the result is this many bytes written over `out`
  CUresult (*call)(const std::uint64_t* in, std::uint64_t* out);
};

}  // namespace cuhost::model
