// The hook behind lock_blocking() (see blocking_wait.h).
#include "support/blocking_wait.h"

#include <atomic>

namespace cuhost::support {

namespace {
std::atomic<BlockingHook> g_hook{nullptr};
}

void set_blocking_hook(BlockingHook hook) { g_hook.store(hook, std::memory_order_release); }

void run_blocking(void (*fn)(void* arg), void* arg) {
  if (BlockingHook hook = g_hook.load(std::memory_order_acquire)) {
    hook(fn, arg);
  } else {
    fn(arg);
  }
}

}  // namespace cuhost::support
