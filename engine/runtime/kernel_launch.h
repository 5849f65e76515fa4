// What both launch paths (scripts: python/launch.cpp; C++: host_kernel.cpp)
// need to turn a compiled kernel into one launch: the CUDA function loaded
// for the current device (reloaded after cuda.close() unloaded the modules),
// its dynamic shared memory opt-in, and the launch descriptions for the two
// backends. No Python and no GIL handling here.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>

#include "cpu/launcher.h"
#include "cuda/launch.h"
#include "cuda/module.h"
#include "runtime/compiler.h"

namespace cuhost::runtime {

// A kernel's loaded CUDA function, cached by its holder (a launch plan, a
// C++ Kernel). Touched by one thread at a time.
class LoadedKernel {
 public:
  // The function for the session's device, loading it (which runs module
  // setup callbacks) when it is not loaded in the current module generation.
  CUfunction function(const std::shared_ptr<const CompiledKernel>& kernel);

  // A launch of the loaded function; raises the function's dynamic shared
  // memory limit first when static plus dynamic bytes pass 48 KiB.
  cuda::KernelLaunch launch(const std::shared_ptr<const CompiledKernel>& kernel, const unsigned grid[3],
                            const unsigned block[3], unsigned shared, std::uintptr_t stream, void** params);

  // The error record of the loaded function (valid after function()).
  const cuda::KernelErrorRecord& errors() const { return errors_; }

 private:
  int device_ = -1;
  std::uint64_t generation_ = 0;
  CUfunction function_ = nullptr;
  cuda::KernelErrorRecord errors_;
  unsigned static_shared_ = 0;  // of function_, from the driver
  unsigned opt_in_ = 0;         // largest dynamic shared size opted in (above the 48 KiB default)
};

// Refuses (CudaAPIError, as cuLaunchKernel does on a GPU) a CPU launch whose
// block is larger than the kernel's launch bound.
void check_cpu_launch_bound(const CompiledKernel& kernel, const unsigned block[3]);

// The CPU backend's launch of `kernel` (block entry or fibers as compiled).
cpu::CpuLaunch cpu_launch_of(const CompiledKernel& kernel, const unsigned grid[3], const unsigned block[3],
                             unsigned shared, void** params);

}  // namespace cuhost::runtime
