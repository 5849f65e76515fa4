// GPU kernel deadlines, host side (see kernel_deadline.h).
#include "cuda/kernel_deadline.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <new>

#include "codegen/nvptx_cancellation.h"
#include "cpu/cancellation.h"
#include "cuda/context.h"
#include "cuda/driver.h"
#include "cuda/module_globals.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {

namespace {

// A context's flag word and the stream that writes it.
struct ContextFlag {
  CUcontext context = nullptr;
  CUdeviceptr word = 0;
  CUstream writer = nullptr;  // non-blocking: never waits for the kernels' streams
};

// The values copied into flags: pinned, so the copies are asynchronous.
struct PinnedValues {
  std::int32_t raised = 1;
  std::int32_t lowered = 0;
};

std::mutex g_mutex;
std::map<CUcontext, ContextFlag*>& flags() {
  static auto* table = new std::map<CUcontext, ContextFlag*>;  // never freed: modules stay bound to them
  return *table;
}

PinnedValues* pinned_values() {
  static PinnedValues* values = [] {
    void* p = nullptr;
    check(driver().cuMemAllocHost(&p, sizeof(PinnedValues)), "cuMemAllocHost");
    return new (p) PinnedValues();
  }();
  return values;
}

void write_flag(const ContextFlag& flag, const std::int32_t* value) {
  check(driver().cuMemcpyHtoDAsync(flag.word, value, sizeof(std::int32_t), flag.writer), "cuMemcpyHtoDAsync");
}

// The flag of `context`, created (lowered) on first use; `context` is current.
ContextFlag* flag_of(CUcontext context) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = flags().find(context);
  if (it != flags().end()) return it->second;
  const DriverTable& d = driver();
  auto* flag = new ContextFlag;
  flag->context = context;
  check(d.cuMemAlloc(&flag->word, sizeof(std::int32_t)), "cuMemAlloc");
  check(d.cuStreamCreate(&flag->writer, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  write_flag(*flag, &pinned_values()->lowered);
  check(d.cuStreamSynchronize(flag->writer), "cuStreamSynchronize");
  flags().emplace(context, flag);
  return flag;
}

ContextFlag* bound_flag(CUcontext context) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = flags().find(context);
  return it == flags().end() ? nullptr : it->second;
}

struct Outcome {
  ContextFlag* flag = nullptr;  // null: no loaded module of this context has checks
  std::string message;          // set by the watchdog when the deadline passed
};

// On the watchdog's thread, where no context is current.
void on_timeout(void* arg, const std::string& message) {
  auto* outcome = static_cast<Outcome*>(arg);
  outcome->message = message;
  if (!outcome->flag) return;
  PushedContext in_context(outcome->flag->context, std::nothrow);
  if (!in_context.pushed()) return;
  driver().cuMemcpyHtoDAsync(outcome->flag->word, &pinned_values()->raised, sizeof(std::int32_t),
                             outcome->flag->writer);
}

}  // namespace

void bind_cancel_flag(CUlibrary library) {
  point_library_global(library, codegen::kGpuCancelFlagSymbol, flag_of(current_context())->word);
}

void wait_under_deadline(CUstream stream, const std::string& kernel_name) {
  if (cpu::current_deadline().seconds <= 0) return;
  const DriverTable& d = driver();
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (d.cuStreamIsCapturing(stream, &capture) == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE) return;
  pinned_values();  // allocated before the watchdog may need them
  CUcontext context = nullptr;
  if (d.cuStreamGetCtx(stream, &context) != CUDA_SUCCESS || !context) d.cuCtxGetCurrent(&context);
  Outcome outcome;
  outcome.flag = context ? bound_flag(context) : nullptr;
  CUresult r;
  {
    cpu::LaunchWatch watch(kernel_name, true, &on_timeout, &outcome);
    r = d.cuStreamSynchronize(stream);
  }  // the watchdog is disarmed: `outcome` is final
  if (!outcome.message.empty()) {
    // Every thread of the kernel has left it (the stream is idle): the flag
    // is lowered after the raise (one stream, in order), so later launches
    // run to their end.
    if (outcome.flag) {
      write_flag(*outcome.flag, &pinned_values()->lowered);
      check(d.cuStreamSynchronize(outcome.flag->writer), "cuStreamSynchronize");
    }
    throw UserError(ErrorKind::KernelError, outcome.message);
  }
  check(r, "cuStreamSynchronize", kernel_name);
}

}  // namespace cuhost::cuda
