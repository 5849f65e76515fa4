// Slots and successors of live kernels (live_kernels.h). The registry is
// touched by the reload thread and by handles being made, never by a launch.
#include "runtime/live_kernels.h"

#include <algorithm>
#include <map>

#include "cuda/module.h"
#include "runtime/session.h"

namespace cuhost::runtime {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<const CompiledKernel*, std::vector<std::weak_ptr<LiveSlot>>> slots;
  // old product -> the product that replaced it (the old one kept alive, so
  // its address is not reused by another product while it is a key)
  std::map<const CompiledKernel*,
           std::pair<std::shared_ptr<const CompiledKernel>, std::shared_ptr<const CompiledKernel>>>
      successors;
  std::atomic<std::uint64_t> generation{0};
};

Registry& registry() {
  static Registry* r = new Registry();  // used by the reload thread until the process ends
  return *r;
}

}  // namespace

LiveSlot::LiveSlot(std::shared_ptr<const CompiledKernel> kernel) { publish(std::move(kernel)); }

void LiveSlot::publish(std::shared_ptr<const CompiledKernel> kernel) {
  auto product = std::make_unique<LiveProduct>();
  product->kernel = std::move(kernel);
  std::lock_guard<std::mutex> lock(mutex_);
  current_.store(product.get(), std::memory_order_release);
  products_.push_back(std::move(product));
}

std::shared_ptr<LiveSlot> live_slot_for(const std::shared_ptr<const CompiledKernel>& kernel) {
  auto slot = std::make_shared<LiveSlot>(kernel);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto& list = r.slots[kernel.get()];
  list.erase(std::remove_if(list.begin(), list.end(), [](const auto& w) { return w.expired(); }), list.end());
  list.push_back(slot);
  return slot;
}

void prepare_live_kernel(const std::shared_ptr<const CompiledKernel>& old_kernel,
                         const std::shared_ptr<const CompiledKernel>& new_kernel) {
  if (session().backend != Backend::Cuda || !new_kernel || new_kernel->target != Target::NVPTX) return;
  for (int device : cuda::devices_holding(old_kernel.get())) cuda::kernel_function(new_kernel, device);
}

void swap_live_kernel(const std::shared_ptr<const CompiledKernel>& old_kernel,
                      const std::shared_ptr<const CompiledKernel>& new_kernel) {
  if (!old_kernel || !new_kernel || old_kernel == new_kernel) return;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.slots.find(old_kernel.get());
  if (it != r.slots.end()) {
    auto& moved = r.slots[new_kernel.get()];
    for (const auto& weak : it->second)
      if (auto slot = weak.lock()) {
        slot->publish(new_kernel);
        moved.push_back(slot);
      }
    r.slots.erase(old_kernel.get());
  }
  r.successors[old_kernel.get()] = {old_kernel, new_kernel};
  r.successors.erase(new_kernel.get());  // current again (an undo to an earlier product): no cycle
  r.generation.fetch_add(1, std::memory_order_release);
}

std::uint64_t live_generation() { return registry().generation.load(std::memory_order_acquire); }

std::shared_ptr<const CompiledKernel> live_successor(const std::shared_ptr<const CompiledKernel>& kernel) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::shared_ptr<const CompiledKernel> k = kernel;
  for (auto it = r.successors.find(k.get()); it != r.successors.end(); it = r.successors.find(k.get()))
    k = it->second.second;
  return k;
}

}  // namespace cuhost::runtime
