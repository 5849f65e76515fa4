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
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    for (const auto& entry : s.streams)
      if (entry.first == "default") return entry.second;
    if (!s.streams.empty()) return s.streams.front().second;
  }
  static std::uintptr_t own = [] {
    make_context_current();
    auto* stream = new cuda::Stream(CU_STREAM_NON_BLOCKING);  // lives for the process
    return reinterpret_cast<std::uintptr_t>(stream->get());
  }();
  return own;
}

}  // namespace cuhost::runtime
