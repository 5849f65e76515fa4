// What both launch paths (scripts: python/launch.cpp; C++: host_kernel.cpp)
// need to turn a compiled kernel into one launch: the CUDA function loaded
// for the launching device (reloaded after cuda.close() unloaded the modules),
// its dynamic shared memory opt-in, and the launch descriptions for the two
// backends. No Python and no GIL handling here.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/launcher.h"
#include "cuda/launch.h"
#include "cuda/module.h"
#include "runtime/compiler.h"

namespace cuhost::runtime {

// A kernel's loaded CUDA functions, one per device it was launched on,
// cached by their holder (a launch plan, a C++ Kernel). A kernel is compiled
// once; each device loads it into its own context on first use there.
// Touched by one thread at a time.
class LoadedKernel {
 public:
  // The function for `device`, loading it (which runs module setup
  // callbacks) when it is not loaded there in the current module generation.
  // The device's context must be current.
  CUfunction function(const std::shared_ptr<const CompiledKernel>& kernel, int device);

  // A launch of the loaded function on `device`; raises the function's
  // dynamic shared memory limit first when static plus dynamic bytes pass
  // 48 KiB.
  cuda::KernelLaunch launch(const std::shared_ptr<const CompiledKernel>& kernel, int device, const unsigned grid[3],
                            const unsigned block[3], unsigned shared, std::uintptr_t stream, void** params);

  // The error record of the function last returned (valid after function()).
  const cuda::KernelErrorRecord& errors() const { return at(last_).errors; }

 private:
  struct OnDevice {
    int device = -1;
    std::uint64_t generation = 0;
    CUfunction function = nullptr;
    cuda::KernelErrorRecord errors;
    unsigned static_shared = 0;  // of function, from the driver
    unsigned opt_in = 0;         // largest dynamic shared size opted in (above the 48 KiB default)
  };

  // The index of `device`'s slot (a free one when it has none yet).
  int slot(int device);
  OnDevice& at(int index) { return index < kInline ? inline_[index] : more_[index - kInline]; }
  const OnDevice& at(int index) const { return index < kInline ? inline_[index] : more_[index - kInline]; }

  static constexpr int kInline = 4;  // devices kept without allocating
  OnDevice inline_[kInline];
  std::vector<OnDevice> more_;
  int last_ = 0;  // the slot of the device last launched on
};

// What one launch runs: a compiled kernel and where it is loaded (a
// holder's own kernel, or its OtherVariant).
struct LaunchTarget {
  const std::shared_ptr<const CompiledKernel>* kernel;
  LoadedKernel* loaded;
};

// A holder's kernel with the other choice of cancellation points (a launch
// under a deadline of a kernel compiled without, or the other way round:
// cpu/cancellation.h), compiled (compile_lookup.h's kernel_variant) and
// loaded when a launch first needs it, so launches of the first variant
// never pay for it. Touched by one thread at a time.
struct OtherVariant {
  std::weak_ptr<const CompiledKernel> of;  // the kernel it varies; another one (a live reload) makes it stale
  std::shared_ptr<const CompiledKernel> kernel;
  LoadedKernel loaded;

  // Whether it holds the variant of `primary` with `cancellation_points`.
  bool holds(const std::shared_ptr<const CompiledKernel>& primary, bool cancellation_points) const {
    return kernel && kernel->cancellation_points == cancellation_points && of.lock() == primary;
  }
  // Holds `variant` (compile_lookup.h's kernel_variant of `primary`), to be loaded at its first launch.
  void keep(const std::shared_ptr<const CompiledKernel>& primary, std::shared_ptr<const CompiledKernel> variant) {
    of = primary;
    kernel = std::move(variant);
    loaded = LoadedKernel();
  }
  LaunchTarget target() { return {&kernel, &loaded}; }
};

// Refuses (CudaAPIError, as cuLaunchKernel does on a GPU) a CPU launch whose
// block is larger than the kernel's launch bound.
void check_cpu_launch_bound(const CompiledKernel& kernel, const unsigned block[3]);
// A ValueError unless `grid` is a whole number of the kernel's clusters (cluster_dim).
void check_cluster_grid(const CompiledKernel& kernel, const unsigned grid[3]);

// The CPU backend's launch of `kernel` (block entry or fibers as compiled).
cpu::CpuLaunch cpu_launch_of(const CompiledKernel& kernel, const unsigned grid[3], const unsigned block[3],
                             unsigned shared, void** params);

}  // namespace cuhost::runtime
