// GPU kernel deadlines, host side (see kernel_deadline.h).
#include "cuda/kernel_deadline.h"

#include <cstdint>
#include <mutex>

#include "codegen/nvptx_cancellation.h"
#include "cpu/cancellation.h"
#include "cuda/driver.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {

namespace {

std::int32_t* g_flag = nullptr;  // pinned, never freed: modules loaded later bind to it
std::once_flag g_flag_once;

std::int32_t* cancel_flag() {
  std::call_once(g_flag_once, [] {
    void* p = nullptr;
    check(driver().cuMemAllocHost(&p, sizeof(std::int32_t)), "cuMemAllocHost");
    g_flag = static_cast<std::int32_t*>(p);
    __atomic_store_n(g_flag, 0, __ATOMIC_RELEASE);
  });
  return g_flag;
}

struct Outcome {
  std::string message;  // set by the watchdog when the deadline passed
};

void on_timeout(void* arg, const std::string& message) {
  static_cast<Outcome*>(arg)->message = message;
  __atomic_store_n(g_flag, 1, __ATOMIC_RELEASE);
}

}  // namespace

void bind_cancel_flag(CUlibrary library) {
  CUdeviceptr global = 0;
  std::size_t bytes = 0;
  check(driver().cuLibraryGetGlobal(&global, &bytes, library, codegen::kGpuCancelFlagSymbol), "cuLibraryGetGlobal");
  // With unified addressing a pinned allocation has the same address on the
  // host and in every context.
  auto address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(cancel_flag()));
  check(driver().cuMemcpyHtoD(global, &address, sizeof(address)), "cuMemcpyHtoD");
}

void wait_under_deadline(CUstream stream, const std::string& kernel_name) {
  if (cpu::kernel_timeout() <= 0) return;
  const DriverTable& d = driver();
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (d.cuStreamIsCapturing(stream, &capture) == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE) return;
  cancel_flag();  // allocated before the watchdog may raise it
  Outcome outcome;
  CUresult r;
  {
    cpu::LaunchWatch watch(kernel_name, &on_timeout, &outcome);
    r = d.cuStreamSynchronize(stream);
  }  // the watchdog is disarmed: `outcome` is final
  if (!outcome.message.empty()) {
    // Every thread of the kernel has left it (the stream is idle): later
    // launches run to their end.
    __atomic_store_n(g_flag, 0, __ATOMIC_RELEASE);
    throw UserError(ErrorKind::KernelError, outcome.message);
  }
  check(r, "cuStreamSynchronize", kernel_name);
}

}  // namespace cuhost::cuda
