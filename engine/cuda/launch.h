// One kernel launch through the driver (cuLaunchKernel, the cooperative
// variant, or cuLaunchKernelEx for thread-block clusters), with errors that
// name the kernel, and the per-stream memory of the
// last kernel launched so a fault reported at the next synchronization can say
// which kernel caused it. Hot path: no allocation, no logging.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string>

namespace cuhost::cuda {

struct KernelLaunch {
  CUfunction function = nullptr;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned shared_bytes = 0;  // dynamic shared memory
  CUstream stream = nullptr;
  void** params = nullptr;
  bool cooperative = false;
  // Thread-block clusters of this shape (cuLaunchKernelEx with
  // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION); {1, 1, 1}: a plain launch.
  unsigned cluster[3] = {1, 1, 1};
  const std::string* kernel_name = nullptr;  // must outlive the launch record (owned by the compiled kernel)
  // Compiled with cancellation points: waited for under the current
  // deadline (kernel_deadline.h); a kernel without them is not.
  bool cancellable = false;
};

// Launches; throws CudaAPIError "cuLaunchKernel failed: CUDA_ERROR_... (...) in kernel 'k'".
// A cancellable launch under a deadline (--kernel-timeout, a script's or a
// launch's) then waits for the stream (cuda/kernel_deadline.h) and throws
// KernelError when the kernel was stopped at the deadline.
void launch_kernel(const KernelLaunch& launch);

// Raises the function's dynamic shared memory limit (needed above 48 KiB).
void set_max_dynamic_shared(CUfunction function, unsigned bytes, const std::string& kernel_name);

// The static shared memory of a loaded function, as the driver sees it.
unsigned function_static_shared(CUfunction function, const std::string& kernel_name);

// One attribute of a loaded function (cuFuncGetAttribute), for the
// dispatcher's get_regs_per_thread() and friends.
int function_attribute(CUfunction function, CUfunction_attribute attribute, const std::string& kernel_name);

// Sets one attribute of a loaded function (cuFuncSetAttribute).
void set_function_attribute(CUfunction function, CUfunction_attribute attribute, int value,
                            const std::string& kernel_name);

// The name of the last kernel launched on `stream` (empty when none); the
// synchronization code uses it to name the kernel of an asynchronous fault.
std::string last_kernel_on_stream(std::uintptr_t stream);

// The name of the most recently launched kernel on any stream (empty when none).
std::string last_kernel_launched();

}  // namespace cuhost::cuda
