// cpu::launch: runs a kernel compiled for the host over its grid.
//
// Design:
// - Validation first (block and grid limits of CUDA devices, 48 KiB of static
//   plus dynamic shared memory, the default without opt-in) -> ValueError.
// - Blocks are spread over a persistent pool (thread_pool.h), one worker per
//   core, the calling thread included; workers take chunks of linear block
//   ids from an atomic counter (dynamic chunking: blocks of kernels with
//   divergent work balance themselves; chunks of ~1/16 of a worker's share
//   keep the counter cold).
// - Each worker owns a BlockState (block_state.h): shared-memory buffer,
//   thread contexts, fiber stacks; it only grows, so steady-state launches
//   allocate nothing and create no threads.
// - Barrier-free kernels call the generated block function once per block
//   (or loop over the thread function); kernels with barriers or warp
//   operations run every GPU thread as a fiber with a hand-written x86-64
//   context switch (fiber.h; ucontext elsewhere), since swapcontext's
//   sigprocmask syscall would dominate barrier-heavy kernels.
//   Measured on a 16-core host (H200 machine) with C++ stand-in kernels:
//   10 ns per switch against 206 ns for swapcontext; saxpy at 2^22 elements
//   0.14-0.19 ms (numba parallel=True: 0.08-0.20 ms between runs); the
//   256-thread shared-memory tree reduction at 2^22 47 ms and a shfl_down
//   warp reduction 51 ms (~15 ns per barrier wait per GPU thread on one
//   core, dominated by cache misses on the fibers' stacks; the barrier and
//   warp fast paths are inline and touch no line of the thread's ctx). That
//   is ~10^5 times numba's CUDA simulator but far from a parallel loop
//   (0.2 ms): loop speed for barrier kernels needs the compiler to split
//   kernels at barriers into loops over the block's threads (work-item
//   loops), which this runtime would run through the block-function path.
//   An empty launch costs ~0.1 us on one worker and ~40 us when it wakes
//   all 16.
// - All syncthreads call sites are one block barrier (as bar.sync 0 on sm_70+
//   hardware and numba's simulator); threads that returned count as arrived.
//   Warp operations are 32-lane rendezvous (warp_runtime.cpp).
// - Cooperative launches (grid sync, cuda.cg) run every block on its own OS
//   thread so all are resident, with a grid barrier (grid_barrier.h); the
//   grid may not exceed max_cooperative_blocks(), as on a GPU.
// - Errors from JIT-ed code are recorded (first wins) in the launch state;
//   other workers stop taking blocks; launch() throws once all are done.
// - Shared memory is zeroed when a buffer is first allocated and otherwise
//   left as the previous block left it (GPU shared memory is uninitialized).
// - Fibers are cooperative: a thread that spins on memory another thread of
//   its block must write (without a barrier or warp operation in the loop)
//   never yields and hangs, unlike on GPUs with independent thread scheduling.
// - Environment: CUHOST_CPU_WORKERS (pool size, default: the cores the
//   process may use: affinity mask and cgroup CPU quota),
//   CUHOST_CPU_FIBER_STACK (bytes per fiber, k/m suffix, default 64k; a
//   guard page below each stack turns an overflow into a fault).
#include "cpu/launcher.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "cpu/block_state.h"
#include "cpu/cancellation.h"
#include "cpu/device_properties.h"
#include "cpu/launch_state.h"
#include "cpu/thread_pool.h"
#include "support/diagnostics.h"

namespace cuhost::cpu {

namespace {

struct Job {
  LaunchState* state;
  std::vector<std::unique_ptr<BlockState>>* workers;
  std::atomic<std::uint64_t> next{0};
  std::uint64_t total = 0;
  std::uint64_t chunk = 1;
  unsigned gx = 1, gy = 1;
};

void run_worker(void* arg, unsigned worker) {
  Job& job = *static_cast<Job*>(arg);
  BlockState& block = *(*job.workers)[worker];
  try {
    block.prepare(*job.state);
    for (;;) {
      if (job.state->failed()) return;
      std::uint64_t begin = job.next.fetch_add(job.chunk, std::memory_order_relaxed);
      if (begin >= job.total) return;
      std::uint64_t end = std::min(job.total, begin + job.chunk);
      std::uint64_t x = begin % job.gx;
      std::uint64_t yz = begin / job.gx;
      std::uint64_t y = yz % job.gy;
      std::uint64_t z = yz / job.gy;
      for (std::uint64_t b = begin; b < end; ++b) {
        block.run_block(static_cast<unsigned>(x), static_cast<unsigned>(y), static_cast<unsigned>(z));
        if (job.state->failed()) return;
        if (++x == job.gx) {
          x = 0;
          if (++y == job.gy) {
            y = 0;
            ++z;
          }
        }
      }
    }
  } catch (const std::exception& e) {
    job.state->record(ErrorKind::RuntimeError,
                      concat("CPU launch of kernel '", job.state->launch().kernel_name, "' failed: ", e.what()));
  } catch (...) {
    job.state->record(ErrorKind::RuntimeError,
                      concat("CPU launch of kernel '", job.state->launch().kernel_name, "' failed"));
  }
}

void record_timeout(void* state, const std::string& message) {
  static_cast<LaunchState*>(state)->record(ErrorKind::KernelError, message);
}

std::string dims(const Dim3& d) { return concat("(", d.x, ", ", d.y, ", ", d.z, ")"); }

void validate(const CpuLaunch& l) {
  auto fail = [&](const std::string& what) {
    throw UserError(ErrorKind::ValueError,
                    concat("invalid launch configuration for kernel '", l.kernel_name, "': ", what));
  };
  const Dim3& b = l.block;
  const Dim3& g = l.grid;
  if (b.x < 1 || b.y < 1 || b.z < 1) fail(concat("block dimensions ", dims(b), " must all be >= 1"));
  if (g.x < 1 || g.y < 1 || g.z < 1) fail(concat("grid dimensions ", dims(g), " must all be >= 1"));
  const DeviceLimits& lim = device_limits();
  const unsigned* mb = lim.max_block_dim;
  const unsigned* mg = lim.max_grid_dim;
  if (b.x > mb[0] || b.y > mb[1] || b.z > mb[2])
    fail(concat("block dimensions ", dims(b), " exceed the maximum (", mb[0], ", ", mb[1], ", ", mb[2], ")"));
  std::uint64_t threads = std::uint64_t(b.x) * b.y * b.z;
  if (threads > lim.max_threads_per_block)
    fail(concat("block ", dims(b), " has ", threads, " threads; at most ", lim.max_threads_per_block,
                " threads per block"));
  if (g.x > mg[0] || g.y > mg[1] || g.z > mg[2])
    fail(concat("grid dimensions ", dims(g), " exceed the maximum (", mg[0], ", ", mg[1], ", ", mg[2], ")"));
  const std::size_t max_shared = lim.max_shared_bytes_per_block;
  std::size_t shared = l.static_shared_bytes + l.dynamic_shared_bytes;
  if (shared > max_shared || l.dynamic_shared_bytes > max_shared)
    fail(concat("shared memory of ", shared, " bytes (", l.static_shared_bytes, " static + ", l.dynamic_shared_bytes,
                " dynamic) exceeds the limit of ", max_shared, " bytes per block"));
}

// A cooperative launch: every block on its own OS thread with its own block
// state, all resident at once, sharing one grid barrier.
void launch_cooperative(const CpuLaunch& l, LaunchState& state) {
  const std::uint64_t total = std::uint64_t(l.grid.x) * l.grid.y * l.grid.z;
  const unsigned threads = l.block.x * l.block.y * l.block.z;
  const unsigned limit = max_cooperative_blocks(threads);
  if (total > limit) {
    throw UserError(ErrorKind::ValueError, concat("cooperative launch of kernel '", l.kernel_name, "' with ", total,
                                                  " blocks of ", threads, " threads: at most ", limit,
                                                  " blocks can be resident at once (see max_cooperative_grid_blocks)"));
  }
  GridBarrier grid(static_cast<unsigned>(total));
  std::vector<std::unique_ptr<BlockState>> blocks(total);
  std::vector<std::thread> threads_;
  threads_.reserve(total);
  for (std::uint64_t b = 0; b < total; ++b) {
    blocks[b] = std::make_unique<BlockState>();
    threads_.emplace_back([&, b] {
      BlockState& bs = *blocks[b];
      try {
        bs.prepare(state);
        bs.set_grid(&grid);
        unsigned x = static_cast<unsigned>(b % l.grid.x);
        unsigned y = static_cast<unsigned>(b / l.grid.x % l.grid.y);
        unsigned z = static_cast<unsigned>(b / (std::uint64_t(l.grid.x) * l.grid.y));
        bs.run_block(x, y, z);
      } catch (const std::exception& e) {
        state.record(ErrorKind::RuntimeError, concat("CPU launch of kernel '", l.kernel_name, "' failed: ", e.what()));
      }
      grid.leave();
    });
  }
  for (auto& t : threads_) t.join();
}

}  // namespace

unsigned max_cooperative_blocks(unsigned threads_per_block) {
  // Each core stands for a multiprocessor holding 2048 threads (an H100 SM):
  // the blocks run on their own threads, this bounds their fiber stacks.
  const unsigned per_core = std::max(1u, 2048u / std::max(1u, threads_per_block));
  return per_core * worker_count();
}

unsigned worker_count() { return ThreadPool::instance().size(); }

void validate_launch(const CpuLaunch& l) {
  validate(l);
  if (l.cooperative && l.cluster.x * l.cluster.y * l.cluster.z > 1)
    throw UserError(ErrorKind::ValueError, concat("kernel '", l.kernel_name,
                                                  "' synchronizes the grid and runs in clusters: the CPU backend "
                                                  "runs one or the other"));
  if (l.cooperative) {
    const unsigned threads = l.block.x * l.block.y * l.block.z;
    const std::uint64_t total = std::uint64_t(l.grid.x) * l.grid.y * l.grid.z;
    if (total > max_cooperative_blocks(threads))
      throw UserError(ErrorKind::ValueError,
                      concat("cooperative launch of kernel '", l.kernel_name, "' with ", total, " blocks of ", threads,
                             " threads: at most ", max_cooperative_blocks(threads),
                             " blocks can be resident at once (see max_cooperative_grid_blocks)"));
  }
}

void launch(const CpuLaunch& l) {
  validate_launch(l);
  CUHOST_CHECK(l.thread_fn || (!l.needs_fibers && l.block_fn))
      << "kernel '" << l.kernel_name << "' has no CPU entry point";
  ThreadPool& pool = ThreadPool::instance();
  // Worker states live for the process; run() serializes launches, so one set suffices.
  static std::vector<std::unique_ptr<BlockState>> workers;
  static std::mutex workers_mutex;
  {
    std::lock_guard<std::mutex> lock(workers_mutex);
    while (workers.size() < pool.size()) workers.push_back(std::make_unique<BlockState>());
  }
  LaunchState state(l);
  {
    LaunchWatch watch(l.kernel_name, l.cancellable, &record_timeout, &state);  // deadlines (cancellation.h)
    if (l.cluster.x * l.cluster.y * l.cluster.z > 1) {
      launch_clusters(l, state);
    } else if (l.cooperative) {
      launch_cooperative(l, state);
    } else {
      Job job;
      job.state = &state;
      job.workers = &workers;
      job.gx = l.grid.x;
      job.gy = l.grid.y;
      job.total = std::uint64_t(l.grid.x) * l.grid.y * l.grid.z;
      unsigned count = static_cast<unsigned>(std::min<std::uint64_t>(pool.size(), job.total));
      job.chunk = std::max<std::uint64_t>(1, job.total / (std::uint64_t(count) * 16));
      pool.run(count, &run_worker, &job);
    }
  }
  state.rethrow();
}

}  // namespace cuhost::cpu
