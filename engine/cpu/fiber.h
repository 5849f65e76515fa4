// Fibers for the CPU backend: each GPU thread of a block that uses barriers or
// warp operations runs on its own small stack and switches cooperatively.
// On x86-64 SysV the switch is a few instructions of assembly (callee-saved
// registers and the stack pointer; no signal-mask syscall as with
// swapcontext); other architectures fall back to ucontext.
#pragma once

#include <cstddef>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace cuhost::cpu {

// The saved execution state of one fiber (or of the scheduler that runs them).
struct FiberContext {
#if defined(__x86_64__)
  void* sp = nullptr;
#else
  ucontext_t uc;
#endif
};

using FiberEntry = void (*)(void* arg);

// Prepares `fiber` to start running entry(arg) on [stack, stack + size) at the
// next switch to it. entry must never return (it switches away at the end).
void fiber_init(FiberContext& fiber, char* stack, std::size_t size, FiberEntry entry, void* arg);

// Saves the current state into `from` and resumes `to`.
#if defined(__x86_64__)
}  // namespace cuhost::cpu
extern "C" void cuhost_fiber_switch_x86_64(void** save_sp, void* new_sp);
namespace cuhost::cpu {
inline void fiber_switch(FiberContext& from, FiberContext& to) { cuhost_fiber_switch_x86_64(&from.sp, to.sp); }
#else
void fiber_switch(FiberContext& from, FiberContext& to);
#endif

// A block of fiber stacks, each with a guard page below it (mmap, reserved
// lazily by the kernel; grown on demand, never shrunk).
class StackArena {
 public:
  StackArena() = default;
  ~StackArena();
  StackArena(const StackArena&) = delete;
  StackArena& operator=(const StackArena&) = delete;

  // Makes room for `count` stacks of `size` bytes each (size rounded up to pages).
  void reserve(std::size_t count, std::size_t size);
  char* stack(std::size_t i) const { return base_ + i * stride_ + guard_; }
  std::size_t stack_size() const { return stride_ - guard_; }
  std::size_t capacity() const { return count_; }

 private:
  char* base_ = nullptr;
  std::size_t count_ = 0;
  std::size_t stride_ = 0;
  std::size_t guard_ = 0;
  std::size_t mapped_ = 0;
};

// Fiber stack size: CUHOST_CPU_FIBER_STACK (bytes, optional k/K or m/M suffix),
// else 64 KiB. Read once.
std::size_t fiber_stack_size();

}  // namespace cuhost::cpu
