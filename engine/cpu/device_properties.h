// The CPU backend presented as a device: the limits its launcher enforces and
// the attributes cuda.get_current_device() answers with on a machine without
// a GPU. Scripts written for numba-cuda query the current device (compute
// capability, warp size, shared memory) before choosing a code path; the CPU
// backend implements the kernel language of the default GPU target (sm_90),
// so it reports compute capability 9.0 and the limits of such a device, and
// the launcher validates launches against the same numbers.
#pragma once

#include <cstddef>
#include <string>

namespace cuhost::cpu {

struct DeviceLimits {
  unsigned max_threads_per_block = 1024;
  unsigned max_block_dim[3] = {1024, 1024, 64};
  unsigned max_grid_dim[3] = {2147483647u, 65535, 65535};
  std::size_t max_shared_bytes_per_block = 48 * 1024;
  unsigned warp_size = 32;
  int compute_capability_major = 9;
  int compute_capability_minor = 0;
};

const DeviceLimits& device_limits();

// The device's name: "cuhost CPU backend (<processor model>)".
std::string device_name();

// An attribute by its CUDA name without the CU_DEVICE_ATTRIBUTE_ prefix
// (MAX_THREADS_PER_BLOCK, MULTIPROCESSOR_COUNT, ...); false if the CPU device
// has no value for it.
bool device_attribute(const std::string& name, long* value);

// (free, total) bytes of host memory, which is the CPU device's memory.
void memory_info(std::size_t* free_bytes, std::size_t* total_bytes);

}  // namespace cuhost::cpu
