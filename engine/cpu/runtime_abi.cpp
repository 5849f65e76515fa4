// The extern "C" runtime functions of cpu_abi.h that JIT-ed kernels call.
// They forward to the worker's BlockState (ctx->block) and never throw: an
// error is recorded in the launch state (or, in a call from the host, in the
// calling thread's sink, host_call_errors.h) and the call returns.
#include "cpu/block_state.h"
#include "model/cpu_abi.h"
#include "cpu/host_call_errors.h"
#include "support/kernel_errors.h"

using cuhost::ErrorKind;
using cuhost::index_error_text;
using cuhost::kernel_error_text;
using cuhost::cpu::BlockState;
using cuhost::cpu::HostCallError;
using cuhost::cpu::WarpOp;

namespace {
// The worker's block state comes from a thread-local rather than ctx->block
// (the same object): the hot paths then touch no line of the thread's ctx.
inline BlockState& block_of(CuhostThreadCtx*) { return *cuhost::cpu::current_block; }
}  // namespace

extern "C" {

void cuhost_cpu_syncthreads(CuhostThreadCtx* ctx) {
  BlockState& b = block_of(ctx);
  std::int32_t arrived;
  b.barrier(b.thread_index(ctx), 0, 0, &arrived);
}

void cuhost_cpu_grid_sync(CuhostThreadCtx* ctx) {
  BlockState& b = block_of(ctx);
  b.grid_sync(b.thread_index(ctx));
}

std::int32_t cuhost_cpu_syncthreads_count(CuhostThreadCtx* ctx, std::int32_t predicate) {
  BlockState& b = block_of(ctx);
  std::int32_t arrived;
  return b.barrier(b.thread_index(ctx), predicate != 0, 1, &arrived);
}

std::int32_t cuhost_cpu_syncthreads_and(CuhostThreadCtx* ctx, std::int32_t predicate) {
  BlockState& b = block_of(ctx);
  std::int32_t arrived;
  std::int32_t count = b.barrier(b.thread_index(ctx), predicate != 0, 2, &arrived);
  return count == arrived;
}

std::int32_t cuhost_cpu_syncthreads_or(CuhostThreadCtx* ctx, std::int32_t predicate) {
  BlockState& b = block_of(ctx);
  std::int32_t arrived;
  return b.barrier(b.thread_index(ctx), predicate != 0, 3, &arrived) > 0;
}

void cuhost_cpu_syncwarp(CuhostThreadCtx* ctx, std::uint32_t mask) {
  BlockState& b = block_of(ctx);
  b.warp(b.thread_index(ctx), WarpOp::Syncwarp, mask, 0, 0, 32, 0);
}

std::uint64_t cuhost_cpu_shfl(CuhostThreadCtx* ctx, std::uint32_t mask, std::uint64_t value, std::int32_t lane_or_delta,
                              std::int32_t width, std::int32_t mode) {
  BlockState& b = block_of(ctx);
  return b.warp(b.thread_index(ctx), WarpOp::Shfl, mask, value, lane_or_delta, width, mode);
}

std::uint32_t cuhost_cpu_vote(CuhostThreadCtx* ctx, std::uint32_t mask, std::int32_t predicate, std::int32_t mode) {
  BlockState& b = block_of(ctx);
  return static_cast<std::uint32_t>(
      b.warp(b.thread_index(ctx), WarpOp::Vote, mask, predicate != 0 ? 1u : 0u, 0, 32, mode));
}

std::uint32_t cuhost_cpu_activemask(CuhostThreadCtx* ctx, std::int32_t site) {
  BlockState& b = block_of(ctx);
  return b.active_mask(b.thread_index(ctx), site);
}

void cuhost_cpu_index_error(CuhostThreadCtx* ctx, const char* kernel, const char* array, std::int64_t index,
                            std::int32_t dim, std::int64_t extent) {
  if (HostCallError* sink = cuhost::cpu::host_call_sink()) {  // a host call: no launch to fail
    if (sink->kind != HostCallError::Kind::None) return;
    try {
      *sink = HostCallError{HostCallError::Kind::Index, array ? array : "?", index, dim, extent};
    } catch (...) {
      sink->kind = HostCallError::Kind::Index;
    }
    return;
  }
  BlockState& b = block_of(ctx);
  if (b.launch().failed()) return;
  try {
    std::string name = kernel && *kernel ? kernel : b.launch().launch().kernel_name;
    b.launch().record(ErrorKind::IndexError,
                      index_error_text(index, dim, extent, array ? array : "?", name, b.where(ctx)));
  } catch (...) {
    b.launch().record(ErrorKind::IndexError, "index out of bounds");
  }
}

void cuhost_cpu_kernel_error(CuhostThreadCtx* ctx, const char* kernel, const char* message, std::int64_t code) {
  if (HostCallError* sink = cuhost::cpu::host_call_sink()) {
    if (sink->kind != HostCallError::Kind::None) return;
    try {
      *sink = HostCallError{HostCallError::Kind::Raised, message ? message : "", code, 0, 0};
    } catch (...) {
      sink->kind = HostCallError::Kind::Raised;
    }
    return;
  }
  BlockState& b = block_of(ctx);
  if (b.launch().failed()) return;
  try {
    std::string name = kernel && *kernel ? kernel : b.launch().launch().kernel_name;
    b.launch().record(ErrorKind::KernelError, kernel_error_text(name, message ? message : "", code, b.where(ctx)));
  } catch (...) {
    b.launch().record(ErrorKind::KernelError, "kernel error");
  }
}

}  // extern "C"
