// GPU kernel deadlines, host side (see kernel_deadline.h).
#include "cuda/kernel_deadline.h"

#include <cstdint>
#include <map>
#include <mutex>

#include "codegen/nvptx_cancellation.h"
#include "cpu/cancellation.h"
#include "cuda/driver.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {

namespace {

// The flag a context's kernels read. Device memory where the driver has
// stream memory operations: the kernels read it from L2, and the watchdog
// raises it with cuStreamWriteValue32 on a stream of its own, which the
// GPU's front end executes beside the running kernel (no SM, no copy
// engine). Pinned host memory otherwise: every warp's check then crosses
// the bus (about a microsecond each, one at a time: on an H200 a loop of
// transcendentals ran 10x slower), but the host raises it with a store.
struct Flag {
  CUcontext context = nullptr;
  CUdeviceptr device_word = 0;  // 0: the host word serves
  CUstream raise_stream = nullptr;
};

std::mutex g_mutex;
std::map<CUcontext, Flag> g_flags;  // never freed: modules loaded later bind to them
std::int32_t* g_host_word = nullptr;

std::int32_t* host_word() {
  if (!g_host_word) {
    void* p = nullptr;
    check(driver().cuMemAllocHost(&p, sizeof(std::int32_t)), "cuMemAllocHost");
    g_host_word = static_cast<std::int32_t*>(p);
    __atomic_store_n(g_host_word, 0, __ATOMIC_RELEASE);
  }
  return g_host_word;
}

bool has_stream_memory_operations(CUcontext context) {
  const DriverTable& d = driver();
  if (!d.cuStreamWriteValue32 || !d.cuMemsetD32) return false;
  CUdevice device = 0;
  int supported = 0;
  return d.cuCtxGetDevice(&device) == CUDA_SUCCESS &&
         d.cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, device) == CUDA_SUCCESS &&
         supported != 0;
}

// The current context's flag, made on first use (g_mutex held).
Flag& current_flag() {
  CUcontext context = nullptr;
  check(driver().cuCtxGetCurrent(&context), "cuCtxGetCurrent");
  auto it = g_flags.find(context);
  if (it != g_flags.end()) return it->second;
  Flag flag;
  flag.context = context;
  if (has_stream_memory_operations(context)) {
    const DriverTable& d = driver();
    check(d.cuMemAlloc(&flag.device_word, sizeof(std::int32_t)), "cuMemAlloc");
    check(d.cuMemsetD32(flag.device_word, 0, 1), "cuMemsetD32");
    check(d.cuStreamCreate(&flag.raise_stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  } else {
    host_word();
  }
  return g_flags.emplace(context, flag).first->second;
}

// Sets every flag to `value` (the watchdog raises them all: a launch on any
// context may be the one that ran over). Device words are written on their
// contexts' raise streams; `wait` waits for those writes.
void set_flags(std::uint32_t value, bool wait) {
  const DriverTable& d = driver();
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_host_word) __atomic_store_n(g_host_word, static_cast<std::int32_t>(value), __ATOMIC_RELEASE);
  for (auto& [context, flag] : g_flags) {
    if (!flag.device_word) continue;
    if (d.cuCtxPushCurrent(context) != CUDA_SUCCESS) continue;
    d.cuStreamWriteValue32(flag.raise_stream, flag.device_word, value, CU_STREAM_WRITE_VALUE_DEFAULT);
    if (wait) d.cuStreamSynchronize(flag.raise_stream);
    CUcontext popped = nullptr;
    d.cuCtxPopCurrent(&popped);
  }
}

struct Outcome {
  std::string message;  // set by the watchdog when the deadline passed
};

void on_timeout(void* arg, const std::string& message) {
  static_cast<Outcome*>(arg)->message = message;
  set_flags(1, false);
}

}  // namespace

void bind_cancel_flag(CUlibrary library) {
  CUdeviceptr global = 0;
  std::size_t bytes = 0;
  check(driver().cuLibraryGetGlobal(&global, &bytes, library, codegen::kGpuCancelFlagSymbol), "cuLibraryGetGlobal");
  std::uint64_t address = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    const Flag& flag = current_flag();
    // A pinned allocation has the same address on the host and in every
    // context (unified addressing).
    address = flag.device_word ? static_cast<std::uint64_t>(flag.device_word)
                               : static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(host_word()));
  }
  check(driver().cuMemcpyHtoD(global, &address, sizeof(address)), "cuMemcpyHtoD");
}

void wait_under_deadline(CUstream stream, const std::string& kernel_name) {
  if (cpu::kernel_timeout() <= 0) return;
  const DriverTable& d = driver();
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (d.cuStreamIsCapturing(stream, &capture) == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE) return;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    current_flag();  // made before the watchdog may raise it
  }
  Outcome outcome;
  CUresult r;
  {
    cpu::LaunchWatch watch(kernel_name, &on_timeout, &outcome);
    r = d.cuStreamSynchronize(stream);
  }  // the watchdog is disarmed: `outcome` is final
  if (!outcome.message.empty()) {
    // Every thread of the kernel has left it (the stream is idle): later
    // launches run to their end once the flags are down again.
    set_flags(0, true);
    throw UserError(ErrorKind::KernelError, outcome.message);
  }
  check(r, "cuStreamSynchronize", kernel_name);
}

}  // namespace cuhost::cuda
