// What a loaded exported kernel holds (behind cuhost::aot::Kernel): its
// launch facts from the manifest and either the GPU entry (a CUkernel, which
// launches in whatever context is current) or the CPU library's entry
// points. Shared by the module loader and graph replays.
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstddef>
#include <string>

#include <cuhost/aot.h>

#include "aot/cpu_library_abi.h"
#include "aot/driver_loader.h"

namespace cuhost::aot {

struct KernelState {
  std::string name;
  std::string signature;
  std::size_t slot_count = 0;
  bool cooperative = false;
  unsigned cluster[3] = {1, 1, 1};  // launches in thread-block clusters of this shape when > 1 block
  int launch_bound_threads = 0;
  bool clustered() const { return cluster[0] * cluster[1] * cluster[2] > 1; }
  // Throws unless `grid` is a whole number of clusters.
  void check_cluster_grid(const unsigned grid[3]) const;
  // GPU
  const DriverTable* driver = nullptr;
  CUkernel kernel = nullptr;
  CUfunction function = nullptr;  // `kernel` in the module's context (attributes, occupancy)
  CUdevice device = 0;
  std::size_t dynamic_padding = 0;
  // The dynamic shared memory the function was allowed so far: above the
  // default 48 KiB a launch first raises CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
  mutable std::atomic<std::size_t> dynamic_shared_allowed{48 * 1024};
  // CPU
  CuhostAotCpuLaunchFn cpu_launch = nullptr;
  CuhostAotCpuMaxCooperativeFn cpu_max_cooperative = nullptr;
  void* thread_fn = nullptr;
  void* block_fn = nullptr;
  std::size_t cpu_static_shared = 0;

  // Throws Error naming the kernel.
  void launch(const LaunchConfig& config, void** params) const;
  [[noreturn]] void fail(const std::string& what) const;
};

}  // namespace cuhost::aot
