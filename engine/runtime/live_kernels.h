// The swap point of live kernels: what a C++ Kernel handle launches is one
// atomic pointer (a LiveSlot), published by the reload thread with release
// and read by each launch with acquire, so a launch sees the old product or
// the new one, never a mix, and never waits. Products stay alive (shared_ptr)
// as long as their slot, so a launch that read the old pointer finishes on it.
// Captured graphs follow through live_successor() before their next replay.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/compiler.h"
#include "runtime/kernel_launch.h"

namespace cuhost::runtime {

// One compiled product and its per-device loads (CUDA functions).
struct LiveProduct {
  std::shared_ptr<const CompiledKernel> kernel;
  LoadedKernel loaded;
};

class LiveSlot {
 public:
  explicit LiveSlot(std::shared_ptr<const CompiledKernel> kernel);
  // The product launches use now (acquire): valid as long as the slot.
  LiveProduct* current() const { return current_.load(std::memory_order_acquire); }
  // Makes `kernel` the product of later launches (release).
  void publish(std::shared_ptr<const CompiledKernel> kernel);

 private:
  std::atomic<LiveProduct*> current_{nullptr};
  std::mutex mutex_;                                    // publishers only
  std::vector<std::unique_ptr<LiveProduct>> products_;  // every product published, oldest first
};

// A slot following `kernel`: later swap_live_kernel(kernel, new) calls
// publish to it (held weakly: a slot no handle owns is dropped).
std::shared_ptr<LiveSlot> live_slot_for(const std::shared_ptr<const CompiledKernel>& kernel);

// Loads `new_kernel` on every device that holds `old_kernel` (CUDA; nothing
// on the CPU backend), so the first launch after the swap finds it loaded.
// Runs on the reload thread, before swap_live_kernel.
void prepare_live_kernel(const std::shared_ptr<const CompiledKernel>& old_kernel,
                         const std::shared_ptr<const CompiledKernel>& new_kernel);

// Replaces `old_kernel` by `new_kernel` for every slot following it and for
// the graphs that captured it; bumps live_generation().
void swap_live_kernel(const std::shared_ptr<const CompiledKernel>& old_kernel,
                      const std::shared_ptr<const CompiledKernel>& new_kernel);

// Counts swaps: a graph compares it with the count of its last replay.
std::uint64_t live_generation();

// The newest product that replaced `kernel` (following every swap since), or
// `kernel` itself when none did.
std::shared_ptr<const CompiledKernel> live_successor(const std::shared_ptr<const CompiledKernel>& kernel);

}  // namespace cuhost::runtime
