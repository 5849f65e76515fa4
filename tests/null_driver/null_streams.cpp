// Deferred stream work for the null driver (see null_streams.h).
#include "null_streams.h"

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace null_driver {

namespace {

struct Queue {
  const void* context = nullptr;
  bool blocking = true;
  std::uint64_t queued = 0;  // sequence number of the last queued work
  std::deque<std::pair<std::uint64_t, std::function<void()>>> work;
};

struct Mark {
  CUstream stream = nullptr;
  std::uint64_t upto = 0;
};

// Work runs under the lock (a memcpy that never calls back into the
// driver), so two threads never run one queue's work out of order.
std::recursive_mutex g_mutex;
std::map<CUstream, Queue> g_queues;
std::map<CUevent, Mark> g_marks;

bool special(CUstream s) { return s == nullptr || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD; }

// Runs the work of `q` numbered up to `upto`.
void run_queue(Queue& q, std::uint64_t upto) {
  while (!q.work.empty() && q.work.front().first <= upto) {
    std::function<void()> w = std::move(q.work.front().second);
    q.work.pop_front();
    w();
  }
}

void drain_blocking(const void* context) {
  for (auto& [s, q] : g_queues)
    if (q.blocking && q.context == context) run_queue(q, q.queued);
}

}  // namespace

void stream_created(CUstream stream, const void* context, unsigned flags) {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  Queue& q = g_queues[stream];
  q.context = context;
  q.blocking = (flags & CU_STREAM_NON_BLOCKING) == 0;
}

void stream_destroyed(CUstream stream) {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  auto it = g_queues.find(stream);
  if (it == g_queues.end()) return;
  run_queue(it->second, it->second.queued);
  g_queues.erase(it);
}

void enqueue(CUstream stream, const void* context, std::function<void()> work) {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  auto it = special(stream) ? g_queues.end() : g_queues.find(stream);
  if (it == g_queues.end()) {  // a default stream (or one the null driver did not make): now
    if (stream != CU_STREAM_PER_THREAD) drain_blocking(context);
    work();
    return;
  }
  Queue& q = it->second;
  q.work.emplace_back(++q.queued, std::move(work));
}

void drain_stream(CUstream stream, const void* context) {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  if (special(stream)) {
    if (stream != CU_STREAM_PER_THREAD) drain_blocking(context);
    return;
  }
  auto it = g_queues.find(stream);
  if (it != g_queues.end()) run_queue(it->second, it->second.queued);
}

void drain_context(const void* context) {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  for (auto& [s, q] : g_queues)
    if (!context || q.context == context) run_queue(q, q.queued);
}

void record_event(CUevent event, CUstream stream) {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  auto it = special(stream) ? g_queues.end() : g_queues.find(stream);
  g_marks[event] = it == g_queues.end() ? Mark{} : Mark{stream, it->second.queued};
}

void drain_to_event(CUevent event) {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  auto m = g_marks.find(event);
  if (m == g_marks.end() || !m->second.stream) return;
  auto it = g_queues.find(m->second.stream);
  if (it != g_queues.end()) run_queue(it->second, m->second.upto);
}

void event_destroyed(CUevent event) {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  g_marks.erase(event);
}

}  // namespace null_driver
