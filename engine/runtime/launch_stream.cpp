// The default launch stream of each device, shared by script launches and
// C++ launches (see session.h): the host's streams on that device come
// first; cuhost's own stream is created once per device, on first need.
#include <mutex>

#include "cuda/stream.h"
#include "runtime/devices.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

namespace {

// cuhost's own stream of each device (lives for the process).
std::atomic<std::uintptr_t> g_own[kSessionDevices];
std::mutex g_own_mutex;

std::uintptr_t own_stream(int device) {
  if (std::uintptr_t s = g_own[device].load(std::memory_order_acquire)) return s;
  std::lock_guard<std::mutex> lock(g_own_mutex);
  if (std::uintptr_t s = g_own[device].load(std::memory_order_acquire)) return s;
  DeviceScope scope(device);
  make_device_current(device);
  auto* stream = new cuda::Stream(CU_STREAM_NON_BLOCKING);
  auto handle = reinterpret_cast<std::uintptr_t>(stream->get());
  g_own[device].store(handle, std::memory_order_release);
  return handle;
}

}  // namespace

std::uintptr_t default_launch_stream(int device) {
  Session& s = session();
  if (s.backend != Backend::Cuda) return 0;
  if (device < 0 || device >= kSessionDevices)
    throw UserError(ErrorKind::CudaSupportError, concat("no CUDA device ", device));
  if (std::uintptr_t known = s.launch_stream[device].load(std::memory_order_acquire)) return known;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    std::uintptr_t lent = 0;
    for (const auto& entry : s.streams)
      if (entry.device == device && entry.name == "default") lent = entry.handle;
    for (const auto& entry : s.streams)
      if (!lent && entry.device == device) lent = entry.handle;
    if (lent) {
      s.launch_stream[device].store(lent, std::memory_order_release);
      return lent;
    }
  }
  std::uintptr_t own = own_stream(device);
  // A stream the host registers meanwhile resets the cache again under the lock.
  std::lock_guard<std::mutex> lock(s.mutex);
  bool lent_here = false;
  for (const auto& entry : s.streams) lent_here = lent_here || entry.device == device;
  if (!lent_here) s.launch_stream[device].store(own, std::memory_order_release);
  return own;
}

std::uintptr_t default_launch_stream() { return default_launch_stream(current_device()); }

}  // namespace cuhost::runtime
