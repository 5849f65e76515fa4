// The contract between kernels compiled for the host (codegen's CPU target)
// and the CPU runtime (launcher, fibers, warp emulation). Plain C so JIT-ed
// code can call it; nothing here throws: errors are recorded in the block
// state and the generated code returns.
//
// Generated entry points, for a kernel whose entry symbol is S:
//   void S.cpu.thread(void** params, CuhostThreadCtx* ctx)  -- one GPU thread
//   void S.cpu.block(void** params, CuhostThreadCtx* ctx)   -- every thread of
//       the block, x fastest, as plain loops: one loop for a barrier-free
//       kernel, one loop per barrier region for a kernel whose barriers loop
//       fission can split (codegen/cpu_fission.h); absent for warp operations
//       and other barrier kernels, which need fibers. ctx->tid is not kept
//       current by the loops (error paths store it).
// params is the kernelParams array of codegen/kernel_abi.h.
#pragma once

#include <cstdint>

// The start of a block's shared memory (CuhostThreadCtx::shared) is aligned
// to this many bytes, so a shared array's `alignment=` up to it holds for its
// address, not only for its offset; codegen refuses larger ones.
constexpr std::int64_t kCuhostCpuSharedAlign = 4096;

extern "C" {

struct CuhostThreadCtx {
  std::int32_t tid[3];
  std::int32_t bid[3];
  std::int32_t bdim[3];
  std::int32_t gdim[3];
  char* shared;                       // this block's static shared memory (size from CompiledKernel)
  char* dynamic_shared;               // this block's dynamic shared memory (launch's shared bytes)
  void* block;                        // opaque block state owned by the runtime
  std::int64_t dynamic_shared_bytes;  // the launch's dynamic shared bytes (extent of cuda.shared.array(0, ...))
};

// Barriers: every live thread of the block must arrive. Threads that have
// returned count as arrived (as on hardware); when no thread can make
// progress the launch fails with a deadlock error instead of hanging.
void cuhost_cpu_syncthreads(CuhostThreadCtx* ctx);
void cuhost_cpu_grid_sync(CuhostThreadCtx* ctx);  // cuda.cg grid sync (cooperative launches)
std::int32_t cuhost_cpu_syncthreads_count(CuhostThreadCtx* ctx, std::int32_t predicate);
std::int32_t cuhost_cpu_syncthreads_and(CuhostThreadCtx* ctx, std::int32_t predicate);
std::int32_t cuhost_cpu_syncthreads_or(CuhostThreadCtx* ctx, std::int32_t predicate);

// Warp operations with 32-lane semantics (lane = linear thread id % 32).
// mode for shfl: 0 idx, 1 up, 2 down, 3 xor. value carries the bits of the
// operand (integers sign- or zero-extended, floats bitcast, f32 in the low 32 bits).
void cuhost_cpu_syncwarp(CuhostThreadCtx* ctx, std::uint32_t mask);
std::uint64_t cuhost_cpu_shfl(CuhostThreadCtx* ctx, std::uint32_t mask, std::uint64_t value, std::int32_t lane_or_delta,
                              std::int32_t width, std::int32_t mode);
// mode: 0 all, 1 any, 2 eq (uniform), 3 ballot (returns the mask of lanes with predicate != 0)
std::uint32_t cuhost_cpu_vote(CuhostThreadCtx* ctx, std::uint32_t mask, std::int32_t predicate, std::int32_t mode);
std::uint32_t cuhost_cpu_activemask(CuhostThreadCtx* ctx, std::int32_t site);

// Bounds check failure: records an IndexError naming the kernel, the array,
// the index, the dimension and the thread; the generated code then returns.
void cuhost_cpu_index_error(CuhostThreadCtx* ctx, const char* kernel, const char* array, std::int64_t index,
                            std::int32_t dim, std::int64_t extent);

// A raise, a failed check, a foreign function's error status (debug mode),
// or any other fatal condition the kernel wants reported: `site` points to
// the bytes of encode_site() (support/kernel_error.h) describing it.
void cuhost_cpu_kernel_error(CuhostThreadCtx* ctx, const char* kernel, const char* site, std::int64_t code);

// print() in a kernel: formats like CUDA's vprintf (args packed at natural
// alignment) and queues the text for the launching thread
// (cpu/print_output.h). Returns the number of characters, -1 on failure.
std::int32_t cuhost_cpu_vprintf(const char* format, const void* args);

// Foreign device code compiled for the host (ffi/host_compile.cpp) calls
// these for __trap() and a failed assert(): the launch fails with a
// KernelError naming the kernel (and the assertion), and the calling GPU
// thread leaves the kernel (cpu/leave_kernel.h). On a GPU both are faults
// that end the CUDA context.
[[noreturn]] void cuhost_cpu_trap();
[[noreturn]] void cuhost_cpu_assert_fail(const char* assertion, const char* file, unsigned int line,
                                         const char* function) noexcept;

}  // extern "C"
