// Deferred release of device memory (numba-cuda's pending deallocations).
// Freeing device memory (cuMemFree) synchronizes the device, so an
// allocation whose last owner lets go is queued instead, per device, and
// the queue is released in one go once it holds more than `max_count`
// items or more than `max_ratio` of the device's memory, when an
// allocation fails for lack of memory, on an explicit flush, or at a
// context reset. While a device's frees are deferred (cuda.defer_cleanup),
// nothing is released: kernels still running may use the memory; nor does a
// thread that is capturing a graph release anything (graph_capture.h). The same
// queue runs on the CPU backend, where releasing is std::free, so a
// script observes the same queue on both backends.
#pragma once

#include <cstddef>
#include <functional>

namespace cuhost::runtime {

// The limits, numba's CUDA_DEALLOCS_COUNT and CUDA_DEALLOCS_RATIO (set from
// numba.cuda.config by the Python layer).
void set_pending_free_limits(std::size_t max_count, double max_ratio);

// Queues `release` (which frees `bytes` of device `device`'s memory) and
// releases the queue when it exceeds the limits and is not deferred.
// `release` must not throw; it runs on the thread that flushes.
void queue_free(int device, std::size_t bytes, std::function<void()> release);

struct PendingFreeState {
  std::size_t count = 0;     // queued items
  std::size_t bytes = 0;     // their sizes, summed
  std::size_t capacity = 0;  // the device's total memory (0 until first needed)
  int deferred = 0;          // depth of defer_cleanup blocks
};
PendingFreeState pending_frees(int device);

// The byte limit, floor(capacity * max_ratio) (numba's _max_pending_bytes).
std::size_t max_pending_bytes(int device);

// Releases everything queued for `device` unless its frees are deferred (or
// this thread is capturing a graph). Returns whether it released.
bool flush_pending_frees(int device);

// Enters/leaves a deferral (nesting counts).
void defer_frees(int device);
void undefer_frees(int device);

}  // namespace cuhost::runtime
