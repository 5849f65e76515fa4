// Failing driver calls of the null driver, recorded so that tests can
// assert that cuhost makes none where a real driver would report an error
// (compute-sanitizer prints every failing call, CUDA_ERROR_NOT_FOUND from a
// probing cuLibraryGetGlobal included). Every entry point of null_cuda.cpp's
// table goes through Recorded<fn>::call (which also counts the call,
// null_call_counts.h); scripts read the record through
// ctypes: cuhostNullFailedCalls() (one "cuXxx CUDA_ERROR_..." line each)
// and cuhostNullClearFailedCalls().
#pragma once

#include <cuda.h>

#include "null_call_counts.h"

namespace null_driver {

// The entry-point name of a function of the driver table (defined by null_cuda.cpp).
const char* entry_name(const void* fn);

void record_failure(const void* entry, CUresult result);

template <auto Fn>
struct Recorded;

template <typename... Args, CUresult (*Fn)(Args...)>
struct Recorded<Fn> {
  static CUresult call(Args... args) {
    static std::atomic<long> calls{0};
    [[maybe_unused]] static const bool registered = register_call_counter(reinterpret_cast<const void*>(&call), &calls);
    calls.fetch_add(1, std::memory_order_relaxed);
    CUresult r = Fn(args...);
    // NOT_READY answers a query (cuStreamQuery, cuEventQuery); it is no error.
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY) record_failure(reinterpret_cast<const void*>(&call), r);
    return r;
  }
};

}  // namespace null_driver
