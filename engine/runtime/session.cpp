// The process-wide session and its start (see session.h): resolving the
// backend (saying once on stderr when the CPU stands in for a missing GPU)
// and creating the primary context, overlapped with the interpreter's start.
#include "runtime/session.h"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "cpu/cancellation.h"
#include "cuda/context.h"
#include "cuda/driver.h"
#include "cuda/linker.h"
#include "cuda/module.h"
#include "plugin/registry.h"
#include "support/diagnostics.h"
#include "support/exit_joins.h"
#include "support/launcher_env.h"
#include "support/log.h"
#include "support/memory_quota.h"

namespace cuhost::runtime {
namespace {

Session& storage() {
  static Session s;
  return s;
}

// False while a startup thread resolves the backend; session() waits on it.
std::atomic<bool> g_resolved{true};
std::mutex g_resolve_mutex;
std::condition_variable g_resolve_done;
std::thread* g_startup = nullptr;
// RuntimeOptions::defer_backend_start: the first session() resolves.
bool g_deferred = false;
RuntimeOptions g_deferred_options;
std::once_flag g_deferred_once;

// The default device the options name: an ordinal, or the device of the
// MPI local rank (which needs the device count).
int default_device(const RuntimeOptions& options, const cuda::DriverStatus& status) {
  if (options.device != RuntimeOptions::kDeviceFromLocalRank) return options.device;
  const int rank = support::launcher_environment().local_rank;
  if (rank < 0 || status.device_count <= 0) return 0;
  return rank % status.device_count;
}

// Resolves the backend, and the default device with it (s.device).
Backend resolve_backend(const RuntimeOptions& options, Session& s) {
  s.device = options.device < 0 ? 0 : options.device;
  if (options.backend == Backend::Cpu) return Backend::Cpu;
  const cuda::DriverStatus& status = cuda::driver_status();
  const int device = default_device(options, status);
  s.device = device;
  switch (options.backend) {
    case Backend::Cpu: return Backend::Cpu;
    case Backend::Cuda:
      if (!status.available)
        throw UserError(ErrorKind::CudaSupportError,
                        "--backend cuda was requested but CUDA is unavailable: " + status.reason);
      if (device < 0 || device >= status.device_count)
        throw UserError(ErrorKind::CudaSupportError, concat("--device ", device, " does not exist (",
                                                            status.device_count, " CUDA device(s) found)"));
      return Backend::Cuda;
    case Backend::Auto:
      if (status.available && device >= 0 && device < status.device_count) return Backend::Cuda;
      s.fallback_reason = status.available ? concat("device ", device, " does not exist") : status.reason;
      s.device = 0;
      return Backend::Cpu;
  }
  return Backend::Cpu;
}

void publish(Session& s, const RuntimeOptions& options) {
  if (options.backend == Backend::Auto && s.backend == Backend::Cpu)
    std::fprintf(stderr, "cuhost: no usable CUDA GPU (%s); kernels run on the CPU backend\n",
                 s.fallback_reason.c_str());
  log::info(concat("backend: ", backend_name(s.backend)));
}

// nvJitLink's first link in a process costs more than the next ones
// (cuda/linker.h): a thread of its own pays it while the startup thread
// creates the context, long before the first kernel links. Joined at exit
// with the startup thread.
std::thread* g_linker_warm_up = nullptr;
void start_linker_warm_up(int device) {
  int major = 0, minor = 0;
  try {
    cuda::device_compute_capability(device, &major, &minor);
  } catch (...) {
    return;  // the first real use reports the error
  }
  g_linker_warm_up = new std::thread([major, minor] {
    log::StageTimer timer("startup", "linker warm-up (its own thread)");
    cuda::warm_up_linker(major, minor);
  });
}

// Creating the primary context takes a large part of a GPU process's start;
// the first launch or allocation waits for it (the context table's lock) if
// it is not done yet.
void create_primary_context(int device) {
  start_linker_warm_up(device);
  try {
    log::StageTimer timer("startup", "primary context (startup thread)");
    cuda::make_primary_context_current(device);
  } catch (...) {
    // the first real use reports the error
  }
}

// The startup thread and the linker's warm-up are joined at exit, before
// the driver's own exit handlers and the toolkit libraries' destructors run
// (support/exit_joins.h: the driver and the libraries ask for the join to
// come first when they load; a forked child skips it). Torn down earlier,
// the driver hung the process at exit under a thread still creating the
// context.
std::once_flag g_join_registered;
void join_at_exit() {
  std::call_once(g_join_registered, [] {
    support::join_at_exit([] {
      if (g_startup && g_startup->joinable()) g_startup->join();
      if (g_linker_warm_up && g_linker_warm_up->joinable()) g_linker_warm_up->join();
    });
  });
}

}  // namespace

Session& session() {
  if (!g_resolved.load(std::memory_order_acquire) && g_deferred) {
    std::call_once(g_deferred_once, [] {  // a throw (a missing GPU for --backend cuda) lets the next call retry
      Session& s = storage();
      s.backend = resolve_backend(g_deferred_options, s);
      publish(s, g_deferred_options);
      g_resolved.store(true, std::memory_order_release);
    });
    return storage();
  }
  if (!g_resolved.load(std::memory_order_acquire)) {
    std::unique_lock<std::mutex> lock(g_resolve_mutex);
    g_resolve_done.wait(lock, [] { return g_resolved.load(std::memory_order_acquire); });
  }
  return storage();
}

void start_session(const RuntimeOptions& options) {
  Session& s = storage();
  s.device = options.device < 0 ? 0 : options.device;
  s.bounds_check = options.bounds_check;
  cpu::set_kernel_timeout(options.kernel_timeout);
  support::set_memory_quota(options.memory_quota);
  plugin::set_configured_folders(options.plugin_paths);
  cuda::set_driver_start_wait(options.await_driver_start);
  if (options.defer_backend_start && !g_startup) {
    g_deferred_options = options;
    g_deferred = true;
    g_resolved.store(false, std::memory_order_release);
    return;
  }
  if (options.backend != Backend::Auto || g_startup) {
    s.backend = resolve_backend(options, s);
    publish(s, options);
    if (s.backend == Backend::Cuda && !g_startup) {
      g_startup = new std::thread(create_primary_context, s.device);
      join_at_exit();
    }
    return;
  }
  g_resolved.store(false, std::memory_order_release);
  g_startup = new std::thread([options] {
    Session& session = storage();
    try {
      session.backend = resolve_backend(options, session);
    } catch (const std::exception& e) {  // auto reports problems as a fallback, never by throwing
      session.backend = Backend::Cpu;
      session.fallback_reason = e.what();
    }
    join_at_exit();  // before anyone waiting in session() goes on
    publish(session, options);
    {
      std::lock_guard<std::mutex> lock(g_resolve_mutex);
      g_resolved.store(true, std::memory_order_release);
    }
    g_resolve_done.notify_all();
    if (session.backend == Backend::Cuda) create_primary_context(session.device);
  });
}

}  // namespace cuhost::runtime
