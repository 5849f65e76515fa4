// Primary-context management (see context.h). The retained contexts live for
// the process: Python is never finalized, so objects holding device memory
// may outlive any teardown order we could pick.
#include "cuda/context.h"

#include <map>
#include <mutex>

#include "cuda/driver.h"

namespace cuhost::cuda {

CUcontext make_primary_context_current(int ordinal) {
  static std::mutex mutex;
  static std::map<int, CUcontext> retained;
  const DriverTable& d = driver();
  CUcontext ctx = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = retained.find(ordinal);
    if (it == retained.end()) {
      CUdevice dev = 0;
      check(d.cuDeviceGet(&dev, ordinal), "cuDeviceGet");
      check(d.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
      retained.emplace(ordinal, ctx);
    } else {
      ctx = it->second;
    }
  }
  CUcontext current = nullptr;
  check(d.cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  if (current != ctx) check(d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  return ctx;
}

int device_attribute(int ordinal, CUdevice_attribute attribute) {
  const DriverTable& d = driver();
  CUdevice dev = 0;
  check(d.cuDeviceGet(&dev, ordinal), "cuDeviceGet");
  int value = 0;
  check(d.cuDeviceGetAttribute(&value, attribute, dev), "cuDeviceGetAttribute");
  return value;
}

std::string device_name(int ordinal) {
  const DriverTable& d = driver();
  CUdevice dev = 0;
  check(d.cuDeviceGet(&dev, ordinal), "cuDeviceGet");
  char name[256] = {};
  check(d.cuDeviceGetName(name, sizeof(name) - 1, dev), "cuDeviceGetName");
  return name;
}

}  // namespace cuhost::cuda
