// `cuhost run --streams N`: the host application (here, the CLI) creates N
// streams on its device and lends them to scripts as s0..sN-1. On the CPU
// backend the names exist too, as in-order host streams (value 0).
#include <cuhost/runtime.h>

#include "cuda/driver.h"
#include "runtime/session.h"

namespace cuhost {

void create_host_streams(int count) {
  Runtime* rt = Runtime::current();
  if (!rt) return;
  for (int i = 0; i < count; ++i) {
    std::uintptr_t handle = 0;
    if (runtime::session().backend == Backend::Cuda) {
      const cuda::DriverTable& d = cuda::driver();
      CUdevice dev = 0;
      cuda::check(d.cuDeviceGet(&dev, runtime::session().device), "cuDeviceGet");
      CUcontext ctx = nullptr;
      cuda::check(d.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
      cuda::check(d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
      CUstream stream = nullptr;
      cuda::check(d.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
      handle = reinterpret_cast<std::uintptr_t>(stream);
    }
    rt->register_stream("s" + std::to_string(i), handle);
  }
}

}  // namespace cuhost
