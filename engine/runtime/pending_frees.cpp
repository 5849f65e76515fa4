// Per-device queues of deferred frees (see pending_frees.h). The queues are
// never destroyed: allocations may be released during static destruction,
// after which queued items simply stay with the process. A thread that is
// capturing a graph releases nothing (freeing synchronizes the device, which
// a capture refuses); the queue is released after the capture.
#include "runtime/pending_frees.h"

#include <cmath>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "cpu/device_properties.h"
#include "cuda/context.h"
#include "cuda/memory.h"
#include "runtime/graph_capture.h"
#include "runtime/session.h"

namespace cuhost::runtime {

namespace {

struct Item {
  std::size_t bytes;
  std::function<void()> release;
};

struct Queue {
  std::vector<Item> items;
  std::size_t bytes = 0;
  std::size_t capacity = 0;
  int deferred = 0;
};

struct Queues {
  std::mutex mutex;
  std::map<int, Queue> by_device;
  std::size_t max_count = 10;
  double max_ratio = 0.2;
};

Queues& queues() {
  static Queues* q = new Queues();
  return *q;
}

// The device's total memory; measured outside the lock (it may call the driver).
std::size_t measure_capacity(int device) {
  std::size_t free_bytes = 0, total = 0;
  try {
    if (session().backend == Backend::Cuda) {
      cuda::make_primary_context_current(device);
      cuda::memory_info(&free_bytes, &total);
    } else {
      cpu::memory_info(&free_bytes, &total);
    }
  } catch (...) {
    total = 0;  // unknown: the byte limit never triggers
  }
  return total;
}

std::size_t capacity_of(int device) {
  Queues& q = queues();
  {
    std::lock_guard<std::mutex> lock(q.mutex);
    std::size_t c = q.by_device[device].capacity;
    if (c) return c;
  }
  std::size_t measured = measure_capacity(device);
  std::lock_guard<std::mutex> lock(q.mutex);
  Queue& queue = q.by_device[device];
  if (!queue.capacity) queue.capacity = measured;
  return queue.capacity;
}

std::size_t byte_limit(const Queues& q, const Queue& queue) {
  return static_cast<std::size_t>(std::floor(static_cast<double>(queue.capacity) * q.max_ratio));
}

// Takes the queue's items when it may be released (caller holds the lock).
std::vector<Item> take(Queue& queue) {
  std::vector<Item> out;
  if (queue.deferred) return out;
  out.swap(queue.items);
  queue.bytes = 0;
  return out;
}

void release_all(std::vector<Item>& items) {
  for (Item& item : items) item.release();
}

}  // namespace

void set_pending_free_limits(std::size_t max_count, double max_ratio) {
  Queues& q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  q.max_count = max_count;
  q.max_ratio = max_ratio;
}

void queue_free(int device, std::size_t bytes, std::function<void()> release) {
  capacity_of(device);
  const bool capturing = this_thread_captures();
  Queues& q = queues();
  std::vector<Item> released;
  {
    std::lock_guard<std::mutex> lock(q.mutex);
    Queue& queue = q.by_device[device];
    queue.items.push_back(Item{bytes, std::move(release)});
    queue.bytes += bytes;
    if (!capturing && (queue.items.size() > q.max_count || queue.bytes > byte_limit(q, queue))) released = take(queue);
  }
  release_all(released);
}

PendingFreeState pending_frees(int device) {
  Queues& q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  const Queue& queue = q.by_device[device];
  return PendingFreeState{queue.items.size(), queue.bytes, queue.capacity, queue.deferred};
}

std::size_t max_pending_bytes(int device) {
  capacity_of(device);
  Queues& q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  return byte_limit(q, q.by_device[device]);
}

bool flush_pending_frees(int device) {
  if (this_thread_captures()) return false;
  Queues& q = queues();
  std::vector<Item> released;
  {
    std::lock_guard<std::mutex> lock(q.mutex);
    Queue& queue = q.by_device[device];
    if (queue.deferred) return false;
    released = take(queue);
  }
  release_all(released);
  return true;
}

void defer_frees(int device) {
  Queues& q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ++q.by_device[device].deferred;
}

void undefer_frees(int device) {
  Queues& q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  Queue& queue = q.by_device[device];
  if (queue.deferred > 0) --queue.deferred;
}

}  // namespace cuhost::runtime
