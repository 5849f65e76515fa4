// See early_driver_start.h. The driver's handle is never closed: the engine
// opens the same library again (a second reference) and uses it for the
// rest of the process.
#include "early_driver_start.h"

#include <dlfcn.h>

namespace cuhost::app {

void EarlyDriverStart::start() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) return;
  using CuInit = int (*)(unsigned int);
  auto cu_init = reinterpret_cast<CuInit>(dlsym(driver, "cuInit"));
  if (!cu_init) return;
  // Its result is not kept: the engine calls cuInit again (at once now) and
  // reports a failure with its own message.
  thread_ = std::thread([cu_init] { cu_init(0); });
}

void EarlyDriverStart::wait() {
  std::call_once(joined_, [this] {
    if (thread_.joinable()) thread_.join();
  });
}

}  // namespace cuhost::app
