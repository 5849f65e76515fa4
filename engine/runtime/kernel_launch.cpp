// Launch preparation shared by the script and C++ launch paths (see
// kernel_launch.h).
#include "runtime/kernel_launch.h"

#include "cuda/graph.h"
#include "runtime/cpu_module_callbacks.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

// A kernel launched in clusters (cluster_dim) needs a grid of whole clusters,
// on both backends (the driver's own refusal would not say why).
void check_cluster_grid(const CompiledKernel& kernel, const unsigned grid[3]) {
  const unsigned* c = kernel.cluster_dim;
  if (grid[0] % c[0] == 0 && grid[1] % c[1] == 0 && grid[2] % c[2] == 0) return;
  throw UserError(ErrorKind::ValueError,
                  concat("kernel '", kernel.name, "' runs in clusters of (", c[0], ", ", c[1], ", ", c[2],
                         ") blocks (cluster_dim), but its grid (", grid[0], ", ", grid[1], ", ", grid[2],
                         ") is not a whole number of clusters: each grid dimension must be a multiple of the "
                         "cluster's"));
}

int LoadedKernel::slot(int device) {
  if (at(last_).device == device) return last_;
  for (int i = 0; i < kInline; ++i)
    if (inline_[i].device == device || inline_[i].device < 0) return i;
  for (std::size_t i = 0; i < more_.size(); ++i)
    if (more_[i].device == device) return kInline + static_cast<int>(i);
  more_.emplace_back();
  return kInline + static_cast<int>(more_.size()) - 1;
}

CUfunction LoadedKernel::function(const std::shared_ptr<const CompiledKernel>& kernel, int device) {
  last_ = slot(device);
  OnDevice& d = at(last_);
  const std::uint64_t generation = cuda::module_generation();
  if (!d.function || d.device != device || d.generation != generation) {
    // A first launch inside a graph capture loads the module there: loading
    // may allocate and copy, which the capture would otherwise refuse.
    cuda::RelaxedCaptureMode relaxed;
    d.function = cuda::kernel_function(kernel, device);
    d.errors = cuda::kernel_error_record(kernel.get(), device);
    d.static_shared = cuda::function_static_shared(d.function, kernel->name);
    if (kernel->shared_memory_carveout != JitOptions::kNoCarveout)
      cuda::set_function_attribute(d.function, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                   kernel->shared_memory_carveout, kernel->name);
    d.device = device;
    d.generation = generation;
    d.opt_in = 0;
  }
  return d.function;
}

cuda::KernelLaunch LoadedKernel::launch(const std::shared_ptr<const CompiledKernel>& kernel, int device,
                                        const unsigned grid[3], const unsigned block[3], unsigned shared,
                                        std::uintptr_t stream, void** params) {
  cuda::KernelLaunch l;
  l.function = function(kernel, device);
  OnDevice& d = at(last_);
  shared += unsigned(kernel->dynamic_shared_padding);
  // Static plus dynamic shared memory above 48 KiB needs the function's opt-in.
  if (shared > d.opt_in && d.static_shared + shared > 48 * 1024) {
    cuda::set_max_dynamic_shared(l.function, shared, kernel->name);
    d.opt_in = shared;
  }
  for (int i = 0; i < 3; ++i) {
    l.grid[i] = grid[i];
    l.block[i] = block[i];
  }
  l.shared_bytes = shared;
  l.stream = reinterpret_cast<CUstream>(stream);
  l.params = params;
  l.cooperative = kernel->use_cooperative;
  check_cluster_grid(*kernel, grid);
  for (int i = 0; i < 3; ++i) l.cluster[i] = kernel->cluster_dim[i];
  l.kernel_name = &kernel->name;
  l.cancellable = kernel->cancellation_points;
  return l;
}

void check_cpu_launch_bound(const CompiledKernel& k, const unsigned block[3]) {
  unsigned long long threads = 1ULL * block[0] * block[1] * block[2];
  if (k.launch_bound_threads > 0 && threads > static_cast<unsigned long long>(k.launch_bound_threads))
    throw UserError(ErrorKind::CudaAPIError,
                    concat("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (invalid argument) in kernel '", k.name,
                           "': a block of ", threads, " threads exceeds its launch bound of ", k.launch_bound_threads,
                           " threads per block"));
}

cpu::CpuLaunch cpu_launch_of(const CompiledKernel& kernel, const unsigned grid[3], const unsigned block[3],
                             unsigned shared, void** params) {
  ensure_cpu_module_loaded(kernel);  // LinkableCode setup callbacks, once per module load
  cpu::CpuLaunch l;
  l.kernel_name = kernel.name;
  l.thread_fn = kernel.cpu_thread_fn;
  l.block_fn = kernel.cpu_block_fn;
  // Codegen provides a block entry only when the block can run as loops
  // (barrier-free, or barriers split by loop fission); fibers otherwise.
  l.needs_fibers = !kernel.cpu_block_fn;
  l.cooperative = kernel.use_cooperative;
  check_cluster_grid(kernel, grid);
  l.cluster = {kernel.cluster_dim[0], kernel.cluster_dim[1], kernel.cluster_dim[2]};
  l.static_shared_bytes = kernel.static_shared_bytes;
  l.dynamic_shared_bytes = shared;
  l.grid = {grid[0], grid[1], grid[2]};
  l.block = {block[0], block[1], block[2]};
  l.params = params;
  l.cancellable = kernel.cancellation_points;
  return l;
}

}  // namespace cuhost::runtime
