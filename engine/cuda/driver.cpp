// Run-time loading of the CUDA driver (see driver.h). The library is opened
// with dlopen and every entry point resolved with cuGetProcAddress at the
// toolkit's CUDA_VERSION, so versioned symbols (_v2, ...) come out right.
#include "cuda/driver.h"

#include <dlfcn.h>

#include <pthread.h>
#include <cstring>

#include <atomic>
#include <functional>
#include <mutex>

#include "cuda/launch.h"
#include "support/diagnostics.h"
#include "support/exit_joins.h"
#include "support/log.h"

namespace cuhost::cuda {

namespace {

struct Loaded {
  DriverStatus status;
  DriverTable table;
};

// The CUDA driver cannot be used in a child forked after cuInit: every call
// there fails or hangs. Such a child is told so at its first use, before any
// driver call, as numba-cuda tells it.
std::atomic<bool> g_forked_after_init{false};

using GetProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

// The CUDA version whose ABI of `name` the table's prototype (cuda.h's
// declaration of the plain name) has. cuGetProcAddress hands out the newest
// ABI at the version asked for; for these entry points CUDA 12.5/13.0 added
// a new ABI (an extra context or green-context parameter) while cuda.h kept
// declaring the old one under the plain name, so they are asked for at 12.0.
int abi_version_of(const char* name) {
  static const char* const kOldAbi[] = {"cuCtxGetDevice", "cuCtxSynchronize", "cuStreamGetCtx"};
  for (const char* old : kOldAbi)
    if (std::strcmp(name, old) == 0) return 12000;
  return CUDA_VERSION;
}

std::function<void()>& driver_start_wait() {
  static std::function<void()> wait;
  return wait;
}

Loaded& load() {
  static Loaded loaded;
  static std::once_flag once;
  std::call_once(once, [] {
    if (driver_start_wait()) {
      log::StageTimer timer("startup", "driver started early (waited for its thread)");
      driver_start_wait()();
    }
    log::StageTimer timer("startup", "driver (dlopen, cuInit)");
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      loaded.status.reason = "libcuda.so.1 could not be loaded (no NVIDIA driver)";
      return;
    }
    auto get_proc = reinterpret_cast<GetProcAddress>(dlsym(lib, "cuGetProcAddress_v2"));
    if (!get_proc) {
      loaded.status.reason = "libcuda.so.1 has no cuGetProcAddress_v2 (driver older than CUDA 12)";
      return;
    }
    std::string missing;
    auto resolve = [&](const char* name, void** slot) {
      CUdriverProcAddressQueryResult found{};
      if (get_proc(name, slot, abi_version_of(name), CU_GET_PROC_ADDRESS_DEFAULT, &found) != CUDA_SUCCESS ||
          found != CU_GET_PROC_ADDRESS_SUCCESS || !*slot) {
        *slot = nullptr;
        if (!missing.empty()) missing += ", ";
        missing += name;
      }
    };
#define CUHOST_DRIVER_FN(name) resolve(#name, reinterpret_cast<void**>(&loaded.table.name));
#include "cuda/driver_api.inc"
#undef CUHOST_DRIVER_FN
    if (!loaded.table.cuInit || !loaded.table.cuDeviceGetCount) {
      loaded.status.reason = "the CUDA driver lacks required entry points: " + missing;
      return;
    }
    CUresult r = loaded.table.cuInit(0);
    if (r != CUDA_SUCCESS) {
      loaded.status.reason = "cuInit failed: " + error_name(r);
      return;
    }
    pthread_atfork(nullptr, nullptr, [] { g_forked_after_init.store(true, std::memory_order_relaxed); });
    support::joins_run_before_last_load();  // cuInit registered the driver's exit handlers
    if (loaded.table.cuDriverGetVersion) loaded.table.cuDriverGetVersion(&loaded.status.version);
    int count = 0;
    r = loaded.table.cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count == 0) {
      loaded.status.reason = r != CUDA_SUCCESS ? "cuDeviceGetCount failed: " + error_name(r) : "no CUDA device found";
      return;
    }
    loaded.status.device_count = count;
    loaded.status.available = true;
  });
  return loaded;
}

}  // namespace

const DriverStatus& driver_status() { return load().status; }

void set_driver_start_wait(std::function<void()> wait) { driver_start_wait() = std::move(wait); }

const DriverTable& driver() {
  if (g_forked_after_init.load(std::memory_order_relaxed))
    throw UserError(ErrorKind::CudaAPIError,
                    "CUDA initialized before forking: a process forked after it used CUDA cannot use CUDA; "
                    "start children with multiprocessing's 'spawn' or 'forkserver' method");
  Loaded& l = load();
  if (!l.status.available) throw UserError(ErrorKind::CudaSupportError, "CUDA driver unavailable: " + l.status.reason);
  return l.table;
}

std::string error_name(CUresult result) {
  Loaded& l = load();
  const char* name = nullptr;
  if (l.table.cuGetErrorName && l.table.cuGetErrorName(result, &name) == CUDA_SUCCESS && name) return name;
  return "CUresult " + std::to_string(static_cast<int>(result));
}

namespace {

// Errors a kernel leaves behind: reported by whatever driver call comes next
// (a synchronization, a copy), and sticky: the context cannot be used again.
bool is_kernel_fault(CUresult r) {
  switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_LAUNCH_TIMEOUT: return true;
    default: return false;
  }
}

}  // namespace

void check(CUresult result, const char* function, const std::string& kernel) {
  if (result == CUDA_SUCCESS) return;
  Loaded& l = load();
  std::string message = std::string(function) + " failed: " + error_name(result);
  const char* text = nullptr;
  if (l.table.cuGetErrorString && l.table.cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
    message += std::string(" (") + text + ")";
  if (is_kernel_fault(result)) {
    std::string culprit = kernel.empty() ? last_kernel_launched() : kernel;
    throw UserError(ErrorKind::KernelError,
                    concat("kernel '", culprit.empty() ? "?" : culprit, "' faulted: ", message,
                           "; the CUDA context cannot be used after this error, so the script should exit"));
  }
  if (!kernel.empty()) message += " in kernel '" + kernel + "'";
  throw UserError(ErrorKind::CudaAPIError, message);
}

}  // namespace cuhost::cuda
