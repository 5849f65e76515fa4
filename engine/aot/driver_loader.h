// The aot runtime's own loader of the CUDA driver: libcuda.so.1 opened with
// dlopen at the first GPU use and the few entry points exported kernels
// need resolved through cuGetProcAddress, as the engine's cuda/driver does.
// The aot runtime shares no code with the engine (it is its lowest stage),
// so it carries this small copy; cuda.h gives only the types.
#pragma once

#include <cuda.h>

#include <string>

namespace cuhost::aot {

struct DriverTable {
#define CUHOST_AOT_DRIVER_FN(name) decltype(&::name) name = nullptr;
#include "aot/driver_api.inc"
#undef CUHOST_AOT_DRIVER_FN
};

// The driver, loaded and initialized once; null with `why` filled when
// libcuda.so.1 is missing, too old, cuInit fails or no device exists.
const DriverTable* load_driver(std::string* why);

// "CUDA_ERROR_INVALID_VALUE (invalid argument)".
std::string driver_error(const DriverTable& d, CUresult r);

}  // namespace cuhost::aot
