// Host side of failed-check reports from GPU kernels compiled with checks
// (debug=True): after such a launch the host waits for the stream, reads the
// kernel's error record and raises the same errors the CPU backend raises.
#pragma once

#include <cuda.h>

#include <string>

#include "cuda/module.h"

namespace cuhost::cuda {

// Waits for `stream`; when a thread of the launch failed a check, clears the
// record (so the module can be launched again) and throws KernelErrorRaised
// with the report (support/kernel_error.h): the failed site, the value, the
// thread and the block.
void check_kernel_errors(const KernelErrorRecord& errors, CUstream stream, const std::string& kernel_name);

}  // namespace cuhost::cuda
