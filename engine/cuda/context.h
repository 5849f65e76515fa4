// The primary context of a device, retained once per process and made
// current on the calling thread on demand. cuhost never creates its own
// contexts: it shares the primary context with the host application (and
// with the CUDA runtime API the host may use), so pointers and streams the
// host lends are valid in it.
#pragma once

#include <cuda.h>

#include <string>

namespace cuhost::cuda {

// Retains (first call per device) and makes current the primary context of
// device `ordinal`. Throws CudaSupportError/CudaAPIError on failure.
CUcontext make_primary_context_current(int ordinal);

// cuDeviceGetAttribute for device `ordinal` (no context needed).
int device_attribute(int ordinal, CUdevice_attribute attribute);

// The device's name (cuDeviceGetName).
std::string device_name(int ordinal);

}  // namespace cuhost::cuda
