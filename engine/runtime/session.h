// Process-wide settings of the running host: the resolved backend, default
// device, bounds-check default and what the host application lends to
// scripts (named streams and device buffers, each on its device; plugin
// directories). Set by the Runtime before scripts run; read by the `cuda`
// module and the launchers. Which device a thread uses is runtime/devices.h.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <cuhost/runtime.h>

namespace cuhost::runtime {

// A stream the host lent to scripts under a name, on its device.
struct LentStream {
  std::string name;
  std::uintptr_t handle = 0;
  int device = 0;
};

constexpr int kSessionDevices = 64;  // devices with a cached default launch stream

struct Session {
  Backend backend = Backend::Cpu;   // resolved: never Auto
  int device = 0;                   // the host's default device (threads that chose none use it)
  bool bounds_check = true;         // CPU backend default
  std::string fallback_reason;      // why Auto chose the CPU
  std::vector<LentStream> streams;  // in registration order
  std::vector<HostBuffer> buffers;
  std::mutex mutex;
  // default_launch_stream()'s answer per device, once resolved; reset (under
  // `mutex`) when the host registers a stream. Read on every launch without
  // the lock.
  std::atomic<std::uintptr_t> launch_stream[kSessionDevices] = {};
};

// The session; waits, the first time, while start_session() is still
// resolving the backend.
Session& session();

// Sets the session from the runtime options. An explicit backend is resolved
// here (--backend cuda without a usable GPU throws CudaSupportError); `auto`
// is resolved on a startup thread (loading the driver and cuInit take ~0.1 s),
// so the interpreter starts and the script imports NumPy meanwhile; the first
// session() call waits for it. With a GPU the same thread then creates the
// primary context. The runtime's entry points (run_file, run_string, ...)
// call session() before they return, so a process cannot reach exit() while
// cuInit is still running there.
void start_session(const RuntimeOptions& options);

// Where launches on `device` that name no stream go: the host's stream named
// "default" on that device, else the first stream the host lent there, else
// one non-blocking stream created once per device; never the legacy null
// stream. 0 on the CPU backend. Without an argument: the calling thread's
// device (runtime/devices.h).
std::uintptr_t default_launch_stream(int device);
std::uintptr_t default_launch_stream();

}  // namespace cuhost::runtime
