// The CPU backend's persistent worker pool: one worker per core, the calling
// thread being worker 0, created on first use and kept for the process (so a
// launch never creates threads). Idle workers spin briefly before sleeping,
// so back-to-back launches wake them cheaply.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace cuhost::cpu {

class ThreadPool {
 public:
  using Task = void (*)(void* arg, unsigned worker);

  // The process-wide pool (never destroyed: workers are parked at exit).
  static ThreadPool& instance();

  unsigned size() const { return size_; }
  // Runs task(arg, w) for w in [0, count) (w = 0 on the calling thread) and
  // returns when all finished. task must not throw. One run at a time.
  void run(unsigned count, Task task, void* arg);

 private:
  explicit ThreadPool(unsigned size);
  void worker_loop(unsigned index);

  unsigned size_;
  std::vector<std::thread> threads_;
  std::mutex run_mutex_;  // serializes run()

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<unsigned> remaining_{0};
  Task task_ = nullptr;
  void* arg_ = nullptr;
  unsigned count_ = 0;
};

}  // namespace cuhost::cpu
