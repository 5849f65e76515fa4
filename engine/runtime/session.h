// Process-wide settings of the running host: the resolved backend, device,
// bounds-check default and what the host application lends to scripts
// (named streams, device buffers, plugin directories). Set by the Runtime
// before scripts run; read by the `cuda` module and the launchers.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <cuhost/runtime.h>

namespace cuhost::runtime {

struct Session {
  Backend backend = Backend::Cpu;  // resolved: never Auto
  int device = 0;
  bool bounds_check = true;                                     // CPU backend default
  std::string fallback_reason;                                  // why Auto chose the CPU
  std::vector<std::pair<std::string, std::uintptr_t>> streams;  // in registration order
  std::vector<HostBuffer> buffers;
  std::vector<std::string> plugin_paths;
  std::mutex mutex;
  // default_launch_stream()'s answer, once resolved; reset (under `mutex`)
  // when the host registers a stream. Read on every launch without the lock.
  std::atomic<std::uintptr_t> launch_stream{0};
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

// Where launches that name no stream go: the host's stream named "default",
// else the first stream the host lent, else one non-blocking stream created
// once for the process; never the legacy null stream. 0 on the CPU backend.
std::uintptr_t default_launch_stream();

}  // namespace cuhost::runtime
