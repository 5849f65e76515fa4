// The per-worker state that runs one block at a time: thread contexts, fiber
// stacks and contexts, the block barrier, the per-lane warp-operation slots
// and the shared-memory buffer. A worker owns one BlockState and reuses it for
// every block of every launch (it only grows), so the steady state allocates
// nothing. The runtime functions of cpu_abi.h find it through ctx->block.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "cpu/cluster_state.h"
#include "cpu/fiber.h"
#include "cpu/grid_barrier.h"
#include "cpu/launch_state.h"
#include "model/cpu_abi.h"

namespace cuhost::cpu {

enum class FiberState : std::uint8_t { Runnable, AtBarrier, AtWarp, Done };

// What a thread waits for at a warp rendezvous.
enum class WarpOp : std::uint8_t { Shfl, Vote, Syncwarp, ActiveMask };

class BlockState;
// The block state of the worker running on this thread (set by prepare();
// fibers never leave their worker's thread).
inline thread_local BlockState* current_block = nullptr;

class BlockState {
 public:
  BlockState() = default;
  BlockState(const BlockState&) = delete;
  BlockState& operator=(const BlockState&) = delete;

  // Sizes the buffers for a launch (grows only).
  void prepare(LaunchState& launch);
  // Runs block (bx, by, bz) of the prepared launch to completion (or until
  // an error is recorded).
  void run_block(unsigned bx, unsigned by, unsigned bz);

  // --- called by the runtime functions (cpu_abi.h) from a running thread ---
  int thread_index(const CuhostThreadCtx* ctx) const { return static_cast<int>(ctx - ctxs_.data()); }
  bool fiber_mode() const { return fiber_mode_; }
  LaunchState& launch() { return *launch_; }
  // Barrier arrival; returns the number of arrived threads with a nonzero
  // predicate and (through arrived) how many arrived. Inline: it is the hot
  // path of barrier kernels, and fewer frames mean fewer cache lines of each
  // fiber's stack touched per switch.
  std::int32_t barrier(int t, std::int32_t predicate, std::int32_t kind, std::int32_t* arrived) {
    if (__builtin_expect(!fiber_mode_, 0)) return barrier_without_fibers(predicate, arrived);
    state_[t] = FiberState::AtBarrier;
    barrier_kind_[t] = kind;
    accum_count_ += predicate != 0;
    if (++arrived_ == live_) {
      release_barrier();
      state_[t] = FiberState::Runnable;
    } else {
      check_activemask(t / 32);
      wait(t);
    }
    *arrived = released_arrived_;
    return released_count_;
  }
  // Grid sync of a cooperative launch: a block barrier whose completion
  // first waits for every other block at the grid barrier (grid_barrier.h).
  void grid_sync(int t);
  // The grid barrier of the cooperative launch this block runs in (else null).
  void set_grid(GridBarrier* grid) { grid_ = grid; }
  // The cluster this block runs in and its rank there (cluster_state.h); a
  // block launched without clusters is alone in its own (cluster null, rank 0).
  // Its grid barrier is then the cluster's: cluster.sync() is grid_sync().
  void set_cluster(ClusterState* cluster, unsigned rank) {
    cluster_ = cluster;
    cluster_rank_ = rank;
    grid_ = cluster ? &cluster->barrier : nullptr;
  }
  ClusterState* cluster() const { return cluster_; }
  unsigned cluster_rank() const { return cluster_rank_; }
  char* shared_base() const { return shared_.get(); }
  std::size_t shared_bytes() const { return static_bytes_ + launch_->launch().dynamic_shared_bytes; }

  // Warp rendezvous; returns this lane's result (warp_runtime.cpp has the
  // rules). Inline for the same reason as barrier().
  std::uint64_t warp(int t, WarpOp op, std::uint32_t mask, std::uint64_t value, std::int32_t param, std::int32_t width,
                     std::int32_t mode) {
    if (__builtin_expect(!fiber_mode_, 0)) return warp_without_fibers(value);
    LaneSlot& s = lanes_[t];
    s.op = op;
    s.mask = mask;
    s.value = value;
    s.param = param;
    s.width = width;
    s.mode = mode;
    state_[t] = FiberState::AtWarp;
    const int w = t / 32;
    const std::uint32_t own = 1u << (t % 32);
    if (op == WarpOp::ActiveMask) {
      warp_am_[w] |= own;
      if (!try_complete_activemask(w)) wait(t);
    } else {
      warp_wait_[w] |= own;
      if ((((mask | own) & lanes_present(w) & ~warp_done_[w]) & ~warp_wait_[w]) != 0 || !try_complete_warp(t)) {
        check_activemask(w);
        wait(t);
      }
    }
    return s.result;
  }
  std::uint64_t warp_without_fibers(std::uint64_t value);
  // The lanes of t's warp that reach the same activemask call (`site`, a
  // number distinct per call in the module) together.
  std::uint32_t active_mask(int t, std::int32_t site);
  // Leaves the running fiber for good after its launch failed (a cancelled
  // or trapped kernel): control goes to the scheduler, which abandons the block.
  [[noreturn]] void abandon_running_fiber() {
    FiberContext discarded;
    fiber_switch(discarded, scheduler_);
    __builtin_unreachable();
  }

 private:
  static void fiber_main(void* arg);
  void run_fibers();
  void run_block_without_fibers();
  void run_plain_loop();
  // Hands the core straight to the next runnable fiber (round robin from t):
  // one switch per wait instead of two through the scheduler. The scheduler
  // takes over when nothing is runnable or an error was recorded.
  void wait(int t) {
    if (__builtin_expect(!launch_->failed(), 1)) {
      const int n = nthreads_;
      for (int j = t + 1 == n ? 0 : t + 1; j != t; j = j + 1 == n ? 0 : j + 1) {
        if (state_[j] == FiberState::Runnable) {
          fiber_switch(fibers_[t], fibers_[j]);
          return;
        }
      }
    }
    fiber_switch(fibers_[t], scheduler_);
  }
  std::int32_t barrier_without_fibers(std::int32_t predicate, std::int32_t* arrived);
  void thread_exited(int t);
  void release_barrier();
  bool try_complete_warp(int t);
  bool try_complete_activemask(int warp);
  void check_activemask(int warp) {
    if (warp_am_[warp] != 0) try_complete_activemask(warp);
  }
  void report_deadlock();
  std::uint32_t lanes_present(int warp) const {
    int n = nthreads_ - warp * 32;
    return n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
  }

  LaunchState* launch_ = nullptr;
  GridBarrier* grid_ = nullptr;
  ClusterState* cluster_ = nullptr;
  unsigned cluster_rank_ = 0;
  bool grid_round_ = false;  // the barrier round in progress is a grid sync
  bool fiber_mode_ = false;
  int nthreads_ = 0;
  int bdim_[3] = {1, 1, 1};
  void* thread_fn_ = nullptr;
  void* block_fn_ = nullptr;
  void** params_ = nullptr;

  // Shared memory: static part, then the dynamic part (16-byte aligned).
  struct FreeDeleter {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, FreeDeleter> shared_;
  std::size_t shared_capacity_ = 0;
  std::size_t static_bytes_ = 0;

  std::vector<CuhostThreadCtx> ctxs_;
  std::vector<FiberContext> fibers_;
  std::vector<FiberState> state_;
  StackArena stacks_;
  FiberContext scheduler_;
  int live_ = 0;

  // Barrier round in progress and the result of the last completed one.
  int arrived_ = 0;
  std::int32_t accum_count_ = 0;
  std::int32_t released_count_ = 0;
  std::int32_t released_arrived_ = 0;
  std::vector<std::int32_t> barrier_kind_;

  // Warp slots, one per thread (index = linear thread id).
  struct LaneSlot {
    std::uint64_t value;
    std::uint64_t result;
    std::uint32_t mask;
    std::int32_t param;
    std::int32_t width;
    std::int32_t mode;
    WarpOp op;
  };
  std::vector<LaneSlot> lanes_;
  std::vector<std::uint32_t> warp_done_;  // per warp: lanes that returned
  std::vector<std::uint32_t> warp_am_;    // per warp: lanes waiting at activemask
  std::vector<std::uint32_t> warp_wait_;  // per warp: lanes waiting at another warp operation
};

}  // namespace cuhost::cpu
