// The CUDA driver's start (cuInit, about 100 ms on a data-centre GPU) begun
// before the engine is loaded. Loading the engine (libcuhost with LLVM,
// CPython and the CUDA toolkit's libraries: 20-40 ms of relocation and static
// constructors) used to come first, and a GPU process's first result waited
// for both in turn; the cuhost executable now opens the driver, starts cuInit
// on a thread, and loads the engine meanwhile. The engine waits for that
// thread before its own first driver call (RuntimeOptions::await_driver_start).
#pragma once

#include <mutex>
#include <thread>

namespace cuhost::app {

class EarlyDriverStart {
 public:
  EarlyDriverStart() = default;
  EarlyDriverStart(const EarlyDriverStart&) = delete;
  EarlyDriverStart& operator=(const EarlyDriverStart&) = delete;
  ~EarlyDriverStart() { wait(); }

  // Opens libcuda.so.1 on the calling thread (a thread of its own would wait
  // for the loader's lock while the engine loads), then runs cuInit on a new
  // thread. Does nothing where there is no driver: the engine reports that.
  void start();
  // Returns when cuInit has returned; at once when nothing was started.
  // Safe from several threads.
  void wait();

 private:
  std::thread thread_;
  std::once_flag joined_;
};

}  // namespace cuhost::app
