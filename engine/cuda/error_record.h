// Host side of failed-check reports from GPU kernels compiled with checks
// (debug=True): after such a launch the host waits for the stream, reads the
// kernel's error record and raises the same errors the CPU backend raises.
#pragma once

#include <cuda.h>

#include <string>

#include "cuda/module.h"

namespace cuhost::cuda {

// Waits for `stream`; when a thread of the launch failed a check, clears the
// record (so the module can be launched again) and throws UserError:
// IndexError "index I is out of bounds for axis D with size N (array 'a' in
// kernel 'k', thread (x,y,z), block (x,y,z))" or KernelError "error in kernel
// 'k': <message> (code C, thread ..., block ...)".
void check_kernel_errors(const KernelErrorRecord& errors, CUstream stream, const std::string& kernel_name);

}  // namespace cuhost::cuda
