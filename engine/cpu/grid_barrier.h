// The grid-wide barrier of a cooperative launch on the CPU backend
// (cuda.cg.this_grid().sync()). Every block of such a launch runs on its own
// OS thread (launcher.cpp), so all blocks are resident as CUDA requires; a
// block arrives here when all its live threads reached the grid sync (its
// fibers all wait at that point, so blocking the OS thread is safe) and
// leaves when all its threads returned. The mutex orders every block's
// writes before the sync against every read after it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "cpu/launch_state.h"

namespace cuhost::cpu {

class GridBarrier {
 public:
  explicit GridBarrier(unsigned blocks) : expected_(blocks) {}

  // Blocks the calling block until every block still running arrived (or an
  // error was recorded anywhere in the launch).
  void arrive_and_wait(const LaunchState& launch) {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::uint64_t round = generation_;
    if (++arrived_ == expected_) {
      release();
      return;
    }
    while (round == generation_ && !launch.failed()) cv_.wait_for(lock, std::chrono::milliseconds(10));
  }

  // A block whose threads all returned no longer takes part.
  void leave() {
    std::lock_guard<std::mutex> lock(mutex_);
    --expected_;
    if (expected_ > 0 && arrived_ == expected_) release();
  }

 private:
  void release() {
    arrived_ = 0;
    ++generation_;
    cv_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  unsigned expected_;
  unsigned arrived_ = 0;
  std::uint64_t generation_ = 0;
};

}  // namespace cuhost::cpu
