// The extern "C" runtime functions of cpu_abi.h that JIT-ed kernels call.
// They forward to the worker's BlockState (ctx->block) and never throw: an
// error is recorded in the launch state (or, in a call from the host, in the
// calling thread's sink, host_call_errors.h) and the call returns.
#include "cpu/block_state.h"
#include "cpu/host_call_errors.h"
#include "model/cpu_abi.h"
#include "support/kernel_error.h"

#include <utility>

using cuhost::KernelErrorReport;
using cuhost::KernelErrorSite;
using cuhost::cpu::BlockState;
using cuhost::cpu::HostCallError;
using cuhost::cpu::WarpOp;

namespace {
// The worker's block state comes from a thread-local rather than ctx->block
// (the same object): the hot paths then touch no line of the thread's ctx.
inline BlockState& block_of(CuhostThreadCtx*) { return *cuhost::cpu::current_block; }

// Records the first failure of a launch, or of a call from the host (its
// sink): the report is the site's data (the encoded `site_bytes`, or for an
// index error the name `array`) with the value and the thread's position.
// Never throws: a report that cannot be built (no memory) is recorded bare.
void report_error(CuhostThreadCtx* ctx, const char* kernel, const char* site_bytes, const char* array,
                  std::int64_t code, std::int64_t dim, std::int64_t extent) noexcept {
  HostCallError* sink = cuhost::cpu::host_call_sink();  // a host call: no launch to fail
  if (sink ? sink->reported : block_of(ctx).launch().failed()) return;
  KernelErrorReport report;
  report.code = code;
  report.dim = dim;
  report.extent = extent;
  report.in_launch = sink == nullptr;  // a host call has no thread; its caller names the function
  if (!sink) {
    for (int a = 0; a < 3; ++a) {
      report.tid[a] = ctx->tid[a];
      report.bid[a] = ctx->bid[a];
    }
  }
  try {
    if (array) {
      report.site.form = cuhost::KernelErrorForm::Index;
      report.site.message = array;
    } else if (!cuhost::decode_site(site_bytes, &report.site)) {
      report.site = KernelErrorSite{};  // none given: a bare KernelError
    }
    if (!sink) report.kernel = kernel && *kernel ? kernel : block_of(ctx).launch().launch().kernel_name;
  } catch (...) {
  }
  if (sink) {
    sink->reported = true;
    sink->report = std::move(report);
  } else {
    block_of(ctx).launch().record(std::move(report));
  }
}
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
  report_error(ctx, kernel, nullptr, array ? array : "?", index, dim, extent);
}

void cuhost_cpu_kernel_error(CuhostThreadCtx* ctx, const char* kernel, const char* site, std::int64_t code) {
  report_error(ctx, kernel, site, nullptr, code, 0, 0);
}

}  // extern "C"
