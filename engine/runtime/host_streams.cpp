// `cuhost run --streams N`: the host application (here, the CLI) creates N
// streams on its default device and lends them to scripts as s0..sN-1. On
// the CPU backend the names exist too, as in-order host streams (value 0).
#include <cuhost/runtime.h>

#include <string>

#include "cuda/stream.h"
#include "runtime/devices.h"
#include "runtime/session.h"

namespace cuhost {

void create_host_streams(int count) {
  Runtime* rt = Runtime::current();
  if (!rt) return;
  const int device = runtime::session().device;
  for (int i = 0; i < count; ++i) {
    std::uintptr_t handle = 0;
    if (runtime::session().backend == Backend::Cuda) {
      runtime::DeviceScope scope(device);
      runtime::make_device_current(device);
      auto* stream = new cuda::Stream(CU_STREAM_NON_BLOCKING);  // lent for the process
      handle = reinterpret_cast<std::uintptr_t>(stream->get());
    }
    rt->register_stream("s" + std::to_string(i), handle, device);
  }
}

}  // namespace cuhost
