// The CUDA driver, loaded at run time: libcuda.so.1 is dlopen-ed (never
// linked, so cuhost starts on machines with no driver) and every entry point
// in driver_api.inc is resolved once through cuGetProcAddress into a table.
// All raw cu* calls in the engine go through `driver()` and `check()`.
#pragma once

#include <cuda.h>
#include <cudaProfiler.h>

#include <functional>
#include <string>

namespace cuhost::cuda {

struct DriverTable {
#define CUHOST_DRIVER_FN(name) decltype(&::name) name = nullptr;
#include "cuda/driver_api.inc"
#undef CUHOST_DRIVER_FN
};

// Why the driver is unusable, or empty when it loaded and cuInit succeeded.
struct DriverStatus {
  bool available = false;
  std::string reason;  // e.g. "libcuda.so.1 not found" or "cuInit failed: CUDA_ERROR_NO_DEVICE"
  int version = 0;     // cuDriverGetVersion
  int device_count = 0;
};

// Loads the driver once (thread-safe) and reports what happened.
const DriverStatus& driver_status();

// A function the first load calls before it opens the driver: the embedding
// application's own early cuInit, still running on its thread
// (RuntimeOptions::await_driver_start). Set before the first load.
void set_driver_start_wait(std::function<void()> wait);

// The table; throws CudaSupportError when the driver is unavailable.
const DriverTable& driver();

// Throws CudaAPIError "<function> failed: <CUDA_ERROR_NAME> (<description>)"
// plus " in kernel '<kernel>'" when a kernel name is given.
void check(CUresult result, const char* function, const std::string& kernel = {});

// "CUDA_ERROR_ILLEGAL_ADDRESS" for a result code (works without a driver).
std::string error_name(CUresult result);

}  // namespace cuhost::cuda

#define CUHOST_CU(call_name, ...) ::cuhost::cuda::check(::cuhost::cuda::driver().call_name(__VA_ARGS__), #call_name)
