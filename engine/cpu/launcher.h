// Runs a kernel compiled for the host over a launch grid: blocks spread over
// a thread pool using every core; inside a block, kernels with a block entry
// (barrier-free ones, and barrier kernels split by loop fission) run as plain
// loops (cpu_block_fn) and the other kernels with barriers or warp operations
// run each GPU thread on a small fiber with real syncthreads / 32-lane warp
// semantics. Never one OS thread per GPU thread.
#pragma once

#include <cstddef>
#include <string>

namespace cuhost::cpu {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct CpuLaunch {
  std::string kernel_name;    // for error messages
  void* thread_fn = nullptr;  // CompiledKernel::cpu_thread_fn
  void* block_fn = nullptr;   // CompiledKernel::cpu_block_fn (may be null)
  bool needs_fibers = true;   // no block entry: barriers or warp operations run on fibers
  // Grid sync (cuda.cg): every block is resident at once, one OS thread each,
  // and the grid must not exceed max_cooperative_blocks().
  bool cooperative = false;
  // Thread-block clusters (cluster_dim): the blocks of each cluster run
  // together, one OS thread each (cluster_state.h). {1, 1, 1}: none.
  Dim3 cluster;
  std::size_t static_shared_bytes = 0;
  std::size_t dynamic_shared_bytes = 0;
  Dim3 grid, block;
  void** params = nullptr;  // kernelParams (codegen/kernel_abi.h)
  // Compiled with cancellation points: watched under the current deadline
  // (cancellation.h); a kernel without them cannot be stopped, so is not.
  bool cancellable = false;
};

// Runs the whole grid and returns when every block finished. Throws
// UserError(IndexError) for an out-of-bounds access (naming kernel, array,
// index, thread and block), UserError(KernelError) for a barrier deadlock or
// a reported kernel error, UserError(ValueError) for an invalid configuration
// (zero or too many threads per block, > 1024 threads, shared memory too big).
void launch(const CpuLaunch& launch);

// The configuration checks launch() starts with (the same errors), for a
// launch recorded now and run later (a captured graph).
void validate_launch(const CpuLaunch& launch);

// The largest grid a cooperative launch of `threads_per_block` threads per
// block may use: as on a GPU, the blocks that fit the device at once (each
// core counts as a multiprocessor of MAX_THREADS_PER_MULTIPROCESSOR threads).
unsigned max_cooperative_blocks(unsigned threads_per_block);

// Worker threads in the pool (defaults to the number of cores).
unsigned worker_count();

}  // namespace cuhost::cpu
