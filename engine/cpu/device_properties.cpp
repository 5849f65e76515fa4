// Answers for the CPU device (device_properties.h): fixed limits of the
// emulated sm_90 device, the worker pool as its multiprocessors, host memory
// as its memory.
#include "cpu/device_properties.h"

#include <sys/sysinfo.h>

#include <fstream>
#include <map>

#include "cpu/thread_pool.h"

namespace cuhost::cpu {

const DeviceLimits& device_limits() {
  static const DeviceLimits limits;
  return limits;
}

std::string device_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    std::size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    std::size_t start = line.find_first_not_of(' ', colon + 1);
    if (start == std::string::npos) break;
    return "cuhost CPU backend (" + line.substr(start) + ")";
  }
  return "cuhost CPU backend";
}

bool device_attribute(const std::string& name, long* value) {
  const DeviceLimits& l = device_limits();
  const long workers = static_cast<long>(ThreadPool::instance().size());
  const std::map<std::string, long> table = {
      {"MAX_THREADS_PER_BLOCK", l.max_threads_per_block},
      {"MAX_BLOCK_DIM_X", l.max_block_dim[0]},
      {"MAX_BLOCK_DIM_Y", l.max_block_dim[1]},
      {"MAX_BLOCK_DIM_Z", l.max_block_dim[2]},
      {"MAX_GRID_DIM_X", l.max_grid_dim[0]},
      {"MAX_GRID_DIM_Y", l.max_grid_dim[1]},
      {"MAX_GRID_DIM_Z", l.max_grid_dim[2]},
      {"MAX_SHARED_MEMORY_PER_BLOCK", static_cast<long>(l.max_shared_bytes_per_block)},
      {"MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", static_cast<long>(l.max_shared_bytes_per_block)},
      {"MAX_SHARED_MEMORY_PER_MULTIPROCESSOR", static_cast<long>(l.max_shared_bytes_per_block)},
      {"TOTAL_CONSTANT_MEMORY", 64 * 1024},
      {"WARP_SIZE", l.warp_size},
      {"MULTIPROCESSOR_COUNT", workers},
      {"MAX_THREADS_PER_MULTIPROCESSOR", l.max_threads_per_block},
      {"MAX_BLOCKS_PER_MULTIPROCESSOR", 1},
      {"COMPUTE_CAPABILITY_MAJOR", l.compute_capability_major},
      {"COMPUTE_CAPABILITY_MINOR", l.compute_capability_minor},
      {"INTEGRATED", 1},
      {"CAN_MAP_HOST_MEMORY", 1},
      {"UNIFIED_ADDRESSING", 1},
      {"PAGEABLE_MEMORY_ACCESS", 1},
      {"CONCURRENT_KERNELS", 0},
      {"COOPERATIVE_LAUNCH", 0},
      {"MANAGED_MEMORY", 1},
      {"CONCURRENT_MANAGED_ACCESS", 1},
      {"KERNEL_EXEC_TIMEOUT", 0},
      {"ECC_ENABLED", 0},
      {"MULTI_GPU_BOARD", 0},
      {"ASYNC_ENGINE_COUNT", 0},
      {"STREAM_PRIORITIES_SUPPORTED", 0},
      {"MEMORY_POOLS_SUPPORTED", 0},
      {"CLUSTER_LAUNCH", 0},
      {"COMPUTE_MODE", 0},
      {"PCI_BUS_ID", 0},
      {"PCI_DEVICE_ID", 0},
      {"PCI_DOMAIN_ID", 0},
  };
  auto it = table.find(name);
  if (it == table.end()) return false;
  *value = it->second;
  return true;
}

void memory_info(std::size_t* free_bytes, std::size_t* total_bytes) {
  struct sysinfo info {};
  if (sysinfo(&info) != 0) {
    *free_bytes = *total_bytes = 0;
    return;
  }
  *free_bytes = static_cast<std::size_t>(info.freeram + info.bufferram) * info.mem_unit;
  *total_bytes = static_cast<std::size_t>(info.totalram) * info.mem_unit;
}

}  // namespace cuhost::cpu
