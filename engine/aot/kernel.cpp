// Launching an exported kernel (cuhost::aot::Kernel, kernel_state.h): one
// cuLaunchKernel (cuLaunchCooperativeKernel for grid sync, cuLaunchKernelEx
// with the cluster dimension for a kernel jitted with cluster_dim) on the
// host's stream, or one grid run of the CPU library.
#include "aot/kernel_state.h"

namespace cuhost::aot {

void KernelState::fail(const std::string& what) const { throw Error(name, "kernel '" + name + "': " + what); }

void KernelState::check_cluster_grid(const unsigned grid[3]) const {
  if (grid[0] % cluster[0] == 0 && grid[1] % cluster[1] == 0 && grid[2] % cluster[2] == 0) return;
  auto dims = [](const unsigned* v) {
    return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ")";
  };
  fail("runs in clusters of " + dims(cluster) + " blocks (cluster_dim), but the grid " + dims(grid) +
       " is not a whole number of clusters: each grid dimension must be a multiple of the cluster's");
}

void KernelState::launch(const LaunchConfig& c, void** params) const {
  if (driver) {
    const std::size_t shared = c.shared_bytes + dynamic_padding;
    if (shared > dynamic_shared_allowed.load(std::memory_order_relaxed)) {
      CUresult r = driver->cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              static_cast<int>(shared));
      if (r != CUDA_SUCCESS)
        fail("cannot allow " + std::to_string(shared) + " bytes of dynamic shared memory: " + driver_error(*driver, r));
      dynamic_shared_allowed.store(shared, std::memory_order_relaxed);
    }
    CUfunction f = function;  // the device's primary context: the one a CUDA runtime host uses
    CUstream stream = reinterpret_cast<CUstream>(c.stream);
    if (clustered()) {
      const unsigned grid[3] = {c.grid.x, c.grid.y, c.grid.z};
      check_cluster_grid(grid);
      CUlaunchAttribute attribute{};
      attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attribute.value.clusterDim.x = cluster[0];
      attribute.value.clusterDim.y = cluster[1];
      attribute.value.clusterDim.z = cluster[2];
      CUlaunchConfig config{};
      config.gridDimX = c.grid.x;
      config.gridDimY = c.grid.y;
      config.gridDimZ = c.grid.z;
      config.blockDimX = c.block.x;
      config.blockDimY = c.block.y;
      config.blockDimZ = c.block.z;
      config.sharedMemBytes = static_cast<unsigned>(shared);
      config.hStream = stream;
      config.attrs = &attribute;
      config.numAttrs = 1;
      CUresult r = driver->cuLaunchKernelEx(&config, f, params, nullptr);
      if (r != CUDA_SUCCESS) fail("cuLaunchKernelEx failed: " + driver_error(*driver, r));
      return;
    }
    CUresult r = cooperative
                     ? driver->cuLaunchCooperativeKernel(f, c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y,
                                                         c.block.z, static_cast<unsigned>(shared), stream, params)
                     : driver->cuLaunchKernel(f, c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z,
                                              static_cast<unsigned>(shared), stream, params, nullptr);
    if (r != CUDA_SUCCESS)
      fail(std::string(cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel") +
           " failed: " + driver_error(*driver, r));
    return;
  }
  unsigned long long threads = 1ULL * c.block.x * c.block.y * c.block.z;
  if (launch_bound_threads > 0 && threads > static_cast<unsigned long long>(launch_bound_threads))
    fail("a block of " + std::to_string(threads) + " threads exceeds its launch bound of " +
         std::to_string(launch_bound_threads) + " threads per block");
  if (clustered())
    fail(
        "runs in thread-block clusters (cluster_dim), which the exported CPU library does not run yet: "
        "launch it on a GPU");
  CuhostAotCpuLaunch l{};
  l.kernel_name = name.c_str();
  l.thread_fn = thread_fn;
  l.block_fn = block_fn;
  l.cooperative = cooperative ? 1 : 0;
  l.static_shared_bytes = cpu_static_shared;
  l.dynamic_shared_bytes = c.shared_bytes;
  l.grid[0] = c.grid.x;
  l.grid[1] = c.grid.y;
  l.grid[2] = c.grid.z;
  l.block[0] = c.block.x;
  l.block[1] = c.block.y;
  l.block[2] = c.block.z;
  l.params = params;
  char error[2048];
  if (cpu_launch(&l, error, sizeof error) != 0) fail(error);
}

const std::string& Kernel::name() const { return state_->name; }
const std::string& Kernel::signature() const { return state_->signature; }
std::size_t Kernel::slot_count() const { return state_->slot_count; }

void Kernel::launch(const LaunchConfig& config, void** params) const {
  if (!state_) throw Error("", "launch of an empty cuhost::aot::Kernel (take it from Module::kernel)");
  state_->launch(config, params);
}

unsigned Kernel::max_cooperative_blocks(unsigned threads_per_block, std::size_t shared_bytes) const {
  const KernelState& k = *state_;
  if (!k.driver) return k.cpu_max_cooperative(threads_per_block);
  int per_sm = 0, sms = 0;
  CUresult r = k.driver->cuOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, k.function, static_cast<int>(threads_per_block), shared_bytes + k.dynamic_padding);
  if (r == CUDA_SUCCESS) r = k.driver->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, k.device);
  if (r != CUDA_SUCCESS) k.fail("occupancy query failed: " + driver_error(*k.driver, r));
  return static_cast<unsigned>(per_sm * sms);
}

}  // namespace cuhost::aot
