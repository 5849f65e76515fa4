// The default launch stream shared by script launches and C++ launches (see
// session.h): the host's streams come first; cuhost's own stream is created
// once, on first need.
#include "cuda/stream.h"
#include "runtime/device_memory.h"
#include "runtime/session.h"

namespace cuhost::runtime {

std::uintptr_t default_launch_stream() {
  Session& s = session();
  if (s.backend != Backend::Cuda) return 0;
  if (std::uintptr_t known = s.launch_stream.load(std::memory_order_acquire)) return known;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    std::uintptr_t lent = 0;
    for (const auto& entry : s.streams)
      if (entry.first == "default") lent = entry.second;
    if (!lent && !s.streams.empty()) lent = s.streams.front().second;
    if (lent) {
      s.launch_stream.store(lent, std::memory_order_release);
      return lent;
    }
  }
  static std::uintptr_t own = [] {
    make_context_current();
    auto* stream = new cuda::Stream(CU_STREAM_NON_BLOCKING);  // lives for the process
    return reinterpret_cast<std::uintptr_t>(stream->get());
  }();
  // A stream the host registers meanwhile resets the cache again under the lock.
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.streams.empty()) s.launch_stream.store(own, std::memory_order_release);
  return own;
}

}  // namespace cuhost::runtime
