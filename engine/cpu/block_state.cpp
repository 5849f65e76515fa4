// Runs one block on a worker: the barrier-free paths (the generated block
// function, or a plain loop over the thread function) and the fiber scheduler
// with the block barrier. A fiber runs until it returns or waits (barrier or
// warp rendezvous), then switches directly to the next runnable fiber in
// round-robin order. Releases happen synchronously when the last participant
// arrives or a thread returns, so when no fiber is runnable while some have
// not returned the block is deadlocked: it stops and the launch reports
// which threads wait where.
#include "cpu/block_state.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "cpu/leave_kernel.h"

// codegen/cpu_hooks.cpp reads the context's fields at fixed offsets.
static_assert(offsetof(CuhostThreadCtx, dynamic_shared) == 56, "see cpu_hooks.cpp");
static_assert(offsetof(CuhostThreadCtx, dynamic_shared_bytes) == 72, "see cpu_hooks.cpp");

namespace cuhost::cpu {

namespace {
using ThreadFn = void (*)(void**, CuhostThreadCtx*);
constexpr std::size_t kSharedAlign = std::size_t(kCuhostCpuSharedAlign);

std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }
}  // namespace

void BlockState::prepare(LaunchState& launch) {
  const CpuLaunch& l = launch.launch();
  launch_ = &launch;
  current_block = this;
  bdim_[0] = static_cast<int>(l.block.x);
  bdim_[1] = static_cast<int>(l.block.y);
  bdim_[2] = static_cast<int>(l.block.z);
  nthreads_ = bdim_[0] * bdim_[1] * bdim_[2];
  thread_fn_ = l.thread_fn;
  block_fn_ = l.block_fn;
  params_ = l.params;
  // Without barriers or warp operations a block is one call of the block
  // function, or a plain loop over the thread function when there is none.
  fiber_mode_ = l.needs_fibers;

  static_bytes_ = round_up(l.static_shared_bytes, 16);
  std::size_t need = static_bytes_ + l.dynamic_shared_bytes;
  if (need == 0) need = 16;
  if (need > shared_capacity_) {
    // Zeroed once for deterministic first use; afterwards, like GPU shared
    // memory, a block sees whatever the previous block left.
    shared_capacity_ = round_up(need, kSharedAlign);
    shared_.reset(static_cast<char*>(std::aligned_alloc(kSharedAlign, shared_capacity_)));
    CUHOST_CHECK(shared_) << "cannot allocate " << shared_capacity_ << " bytes of shared memory";
    std::memset(shared_.get(), 0, shared_capacity_);
  }

  std::size_t nctx = fiber_mode_ ? static_cast<std::size_t>(nthreads_) : 1;
  if (ctxs_.size() < nctx) ctxs_.resize(nctx);
  if (fiber_mode_) {
    if (fibers_.size() < nctx) {
      fibers_.resize(nctx);
      state_.resize(nctx);
      barrier_kind_.resize(nctx);
      lanes_.resize(nctx);
    }
    std::size_t warps = (nctx + 31) / 32;
    if (warp_done_.size() < warps) {
      warp_done_.resize(warps);
      warp_am_.resize(warps);
      warp_wait_.resize(warps);
    }
    stacks_.reserve(std::max(stacks_.capacity(), nctx), fiber_stack_size());
  }
  for (std::size_t i = 0; i < nctx; ++i) {
    CuhostThreadCtx& c = ctxs_[i];
    c.bdim[0] = bdim_[0];
    c.bdim[1] = bdim_[1];
    c.bdim[2] = bdim_[2];
    c.gdim[0] = static_cast<std::int32_t>(l.grid.x);
    c.gdim[1] = static_cast<std::int32_t>(l.grid.y);
    c.gdim[2] = static_cast<std::int32_t>(l.grid.z);
    c.shared = shared_.get();
    c.dynamic_shared = shared_.get() + static_bytes_;
    c.dynamic_shared_bytes = static_cast<std::int64_t>(l.dynamic_shared_bytes);
    c.block = this;
    c.tid[0] = static_cast<std::int32_t>(i % bdim_[0]);
    c.tid[1] = static_cast<std::int32_t>(i / bdim_[0] % bdim_[1]);
    c.tid[2] = static_cast<std::int32_t>(i / (bdim_[0] * bdim_[1]));
  }
}

void BlockState::run_block(unsigned bx, unsigned by, unsigned bz) {
  if (!fiber_mode_) {
    CuhostThreadCtx& c = ctxs_[0];
    c.bid[0] = static_cast<std::int32_t>(bx);
    c.bid[1] = static_cast<std::int32_t>(by);
    c.bid[2] = static_cast<std::int32_t>(bz);
    // Generated code may leave the block early (a timeout, a trap in foreign
    // code: cpu/leave_kernel.h); the launch has failed then.
    run_leavable([](void* self) { static_cast<BlockState*>(self)->run_block_without_fibers(); }, this);
    return;
  }
  for (int t = 0; t < nthreads_; ++t) {
    CuhostThreadCtx& c = ctxs_[t];
    c.bid[0] = static_cast<std::int32_t>(bx);
    c.bid[1] = static_cast<std::int32_t>(by);
    c.bid[2] = static_cast<std::int32_t>(bz);
  }
  run_fibers();
}

void BlockState::run_block_without_fibers() {
  if (block_fn_) {
    CuhostThreadCtx& c = ctxs_[0];
    c.tid[0] = c.tid[1] = c.tid[2] = 0;
    reinterpret_cast<ThreadFn>(block_fn_)(params_, &c);
  } else {
    run_plain_loop();
  }
}

void BlockState::run_plain_loop() {
  CuhostThreadCtx& c = ctxs_[0];
  auto fn = reinterpret_cast<ThreadFn>(thread_fn_);
  for (int z = 0; z < bdim_[2]; ++z)
    for (int y = 0; y < bdim_[1]; ++y)
      for (int x = 0; x < bdim_[0]; ++x) {
        c.tid[0] = x;
        c.tid[1] = y;
        c.tid[2] = z;
        fn(params_, &c);
        if (launch_->failed()) return;
      }
}

void BlockState::fiber_main(void* arg) {
  auto* ctx = static_cast<CuhostThreadCtx*>(arg);
  auto* self = static_cast<BlockState*>(ctx->block);
  int t = self->thread_index(ctx);
  reinterpret_cast<ThreadFn>(self->thread_fn_)(self->params_, ctx);
  self->thread_exited(t);
  self->wait(t);
  __builtin_unreachable();
}

void BlockState::run_fibers() {
  const std::size_t stack_size = stacks_.stack_size();
  for (int t = 0; t < nthreads_; ++t) {
    // Stack tops are staggered by a cache line per fiber: equal offsets in
    // page-aligned stacks would map every fiber's hot frames to the same
    // cache sets.
    std::size_t color = static_cast<std::size_t>(t & 63) * 64;
    fiber_init(fibers_[t], stacks_.stack(t), stack_size - color, &BlockState::fiber_main, &ctxs_[t]);
    state_[t] = FiberState::Runnable;
  }
  std::fill(warp_done_.begin(), warp_done_.end(), 0u);
  std::fill(warp_am_.begin(), warp_am_.end(), 0u);
  std::fill(warp_wait_.begin(), warp_wait_.end(), 0u);
  live_ = nthreads_;
  arrived_ = 0;
  grid_round_ = false;
  accum_count_ = 0;
  // Fibers pass the core among themselves (wait()); control comes back here
  // only when none is runnable (all returned, or a deadlock) or an error was
  // recorded (here or in another worker): then the block is abandoned, its
  // fibers never resumed and their stacks reused.
  for (;;) {
    int t = 0;
    while (t < nthreads_ && state_[t] != FiberState::Runnable) ++t;
    if (t == nthreads_) {
      if (live_ > 0) report_deadlock();
      return;
    }
    fiber_switch(scheduler_, fibers_[t]);
    if (launch_->failed()) return;
  }
}

void BlockState::grid_sync(int t) {
  if (!fiber_mode_ || !grid_) {
    launch_->record(ErrorKind::KernelError,
                    concat("kernel '", launch_->launch().kernel_name,
                           "' synchronizes the grid but was not launched cooperatively (internal error)"));
    return;
  }
  state_[t] = FiberState::AtBarrier;
  barrier_kind_[t] = 0;
  grid_round_ = true;
  if (++arrived_ == live_) {
    grid_->arrive_and_wait(*launch_);
    release_barrier();
    state_[t] = FiberState::Runnable;
  } else {
    check_activemask(t / 32);
    wait(t);
  }
}

void BlockState::thread_exited(int t) {
  state_[t] = FiberState::Done;
  --live_;
  warp_done_[t / 32] |= 1u << (t % 32);
  if (arrived_ > 0 && arrived_ == live_) {
    if (grid_round_) grid_->arrive_and_wait(*launch_);
    release_barrier();
  }
  // A lane that returns may complete a rendezvous of its warp.
  const int w = t / 32;
  for (std::uint32_t m = warp_wait_[w]; m; m &= m - 1) {
    int j = w * 32 + __builtin_ctz(m);
    if (state_[j] == FiberState::AtWarp) try_complete_warp(j);
  }
  check_activemask(w);
}

void BlockState::release_barrier() {
  grid_round_ = false;
  released_count_ = accum_count_;
  released_arrived_ = arrived_;
  accum_count_ = 0;
  arrived_ = 0;
  for (int t = 0; t < nthreads_; ++t)
    if (state_[t] == FiberState::AtBarrier) state_[t] = FiberState::Runnable;
}

std::int32_t BlockState::barrier_without_fibers(std::int32_t predicate, std::int32_t* arrived) {
  launch_->record(
      ErrorKind::KernelError,
      concat("kernel '", launch_->launch().kernel_name,
             "' calls syncthreads but was launched without barrier support (internal: needs_fibers is false)"));
  *arrived = 1;
  return predicate != 0;
}

}  // namespace cuhost::cpu
