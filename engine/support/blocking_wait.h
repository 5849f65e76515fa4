// Waits that must not hold the embedding interpreter's lock. A module load
// runs Python setup callbacks while it holds the loader's mutex; a callback
// may give up the GIL (time.sleep, I/O, the interpreter's switch interval),
// and a second thread that then takes the GIL and waits for that mutex would
// keep the first from ever finishing. Such mutexes are taken through
// lock_blocking(): it tries the mutex first, and only when that fails waits
// through the hook the Python layer installs, which releases the GIL for the
// wait when the calling thread holds it. Without a hook (pure C++ embedding)
// the wait is a plain lock.
#pragma once

#include <mutex>

namespace cuhost::support {

// Runs fn(arg), a wait, without the interpreter lock when this thread holds it.
using BlockingHook = void (*)(void (*fn)(void* arg), void* arg);
void set_blocking_hook(BlockingHook hook);
void run_blocking(void (*fn)(void* arg), void* arg);

template <class Mutex>
std::unique_lock<Mutex> lock_blocking(Mutex& mutex) {
  std::unique_lock<Mutex> lock(mutex, std::try_to_lock);
  if (!lock.owns_lock()) run_blocking([](void* l) { static_cast<std::unique_lock<Mutex>*>(l)->lock(); }, &lock);
  return lock;
}

}  // namespace cuhost::support
