// Cross-stream ordering of the work on one allocation (see access_order.h).
// Events come from a pool per device (created in the device's primary
// context, as an event must be recorded on a stream of its own context) and
// go back to it when the last write they mark is superseded.
#include "runtime/access_order.h"

#include <cuda.h>

#include <algorithm>
#include <optional>

#include "cuda/context.h"
#include "cuda/driver.h"
#include "cuda/stream.h"

namespace cuhost::runtime {

namespace {

// More records than this are merged per stream (see wrote()).
constexpr std::size_t kMaxWrites = 32;

// A stream as one integer: the handle, and for the special handles (0, 1, 2)
// the device too. kNoWrites (an odd value no handle has) and kMixed are the
// other states of AccessOrder::quiet_.
constexpr std::uintptr_t kLastSpecialHandle = 2;
constexpr std::uint64_t kNoWrites = 0;
constexpr std::uint64_t kMixed = 3;
std::uint64_t key_of(StreamRef s) {
  if (s.handle > kLastSpecialHandle) return s.handle;
  return (static_cast<std::uint64_t>(s.device + 1) << 48) | (s.handle + 4);
}

struct EventPool {
  std::mutex mutex;
  std::vector<CUevent> free[cuda::kMaxDevices];
};
EventPool& event_pool() {
  static auto* pool = new EventPool();  // events live as long as the primary contexts: the process
  return *pool;
}

CUevent take_event(int device) {
  EventPool& pool = event_pool();
  {
    std::lock_guard<std::mutex> lock(pool.mutex);
    auto& list = pool.free[device];
    if (!list.empty()) {
      CUevent e = list.back();
      list.pop_back();
      return e;
    }
  }
  // Created in the device's context without touching what cuhost believes
  // is current on this thread (cuda/context.h): pushed, then popped.
  cuda::PushedContext in_context(cuda::primary_context(device));
  CUevent e = nullptr;
  CUHOST_CU(cuEventCreate, &e, CU_EVENT_DISABLE_TIMING);
  return e;
}

void give_event(int device, CUevent e) noexcept {
  EventPool& pool = event_pool();
  std::lock_guard<std::mutex> lock(pool.mutex);
  pool.free[device].push_back(e);
}

}  // namespace

struct StreamMark {
  StreamMark(CUevent e, int d) : event(e), device(d) {}
  ~StreamMark() { give_event(device, event); }
  StreamMark(const StreamMark&) = delete;
  StreamMark& operator=(const StreamMark&) = delete;
  CUevent event;
  int device;
};

namespace {

bool overlaps(std::uintptr_t a_lo, std::uintptr_t a_hi, std::uintptr_t b_lo, std::uintptr_t b_hi) {
  return a_lo < b_hi && b_lo < a_hi;
}

// The device whose context a stream belongs to: the driver's answer for a
// real handle, the issuing device for the special ones.
// A write queued on a stream cuhost has destroyed since: finished (~Stream
// waited for it), and its handle must not reach the driver again.
bool on_retired_stream(StreamRef s) {
  return s.handle > kLastSpecialHandle && cuda::stream_retired(reinterpret_cast<CUstream>(s.handle));
}

int owner_device(StreamRef s) {
  if (s.handle > kLastSpecialHandle && !on_retired_stream(s)) {
    const int d = cuda::device_of_stream(reinterpret_cast<CUstream>(s.handle));
    if (d >= 0) return d;
  }
  return s.device >= 0 && s.device < cuda::kMaxDevices ? s.device : 0;
}

// Makes a device's primary context current for a scope when a stream is a
// special handle, which names the stream of whichever context is current.
class SpecialHandleScope {
 public:
  explicit SpecialHandleScope(StreamRef s) {
    if (s.handle <= kLastSpecialHandle) pushed_.emplace(cuda::primary_context(s.device));
  }

 private:
  std::optional<cuda::PushedContext> pushed_;
};

}  // namespace

AccessOrder::~AccessOrder() = default;

bool AccessOrder::mark(Write& w, MarkBatch* batch) {
  if (batch && batch->mark && same_stream(batch->stream, w.stream)) {
    w.mark = batch->mark;
    return true;
  }
  if (on_retired_stream(w.stream)) {
    w.hi = w.lo;  // finished: overlaps nothing any more
    return false;
  }
  const int device = owner_device(w.stream);
  CUevent e = take_event(device);
  SpecialHandleScope on_device(w.stream);
  CUresult r = cuda::driver().cuEventRecord(e, reinterpret_cast<CUstream>(w.stream.handle));
  if (r == CUDA_ERROR_INVALID_HANDLE) {
    // A stream of a context cuhost did not retain (a host's own context):
    // no event of cuhost's can mark it, so the write is waited for here.
    give_event(device, e);
    CUHOST_CU(cuStreamSynchronize, reinterpret_cast<CUstream>(w.stream.handle));
    w.hi = w.lo;  // finished: overlaps nothing any more
    return false;
  }
  if (r != CUDA_SUCCESS) {
    give_event(device, e);
    cuda::check(r, "cuEventRecord");
  }
  w.mark = std::make_shared<StreamMark>(e, device);
  if (batch) *batch = MarkBatch{w.stream, w.mark};
  return true;
}

void AccessOrder::note_quiet() {
  std::uint64_t q = kNoWrites;
  for (const Write& w : writes_) {
    const std::uint64_t k = key_of(w.stream);
    if (q != kNoWrites && q != k) {
      q = kMixed;
      break;
    }
    q = k;
  }
  quiet_.store(q, std::memory_order_release);
}

void AccessOrder::publish_single_write() {
  const bool single = !shared_ && writes_.size() == 1;
  const std::uint64_t key = single ? key_of(writes_[0].stream) : kNoWrites;
  const std::uintptr_t lo = single ? writes_[0].lo : 0, hi = single ? writes_[0].hi : 0;
  if (single_key_.load(std::memory_order_relaxed) == key && single_lo_.load(std::memory_order_relaxed) == lo &&
      single_hi_.load(std::memory_order_relaxed) == hi)
    return;
  const std::uint64_t seq = single_seq_.load(std::memory_order_relaxed);
  single_seq_.store(seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  single_key_.store(key, std::memory_order_relaxed);
  single_lo_.store(lo, std::memory_order_relaxed);
  single_hi_.store(hi, std::memory_order_relaxed);
  single_seq_.store(seq + 2, std::memory_order_release);
}

bool AccessOrder::same_single_write(StreamRef stream, std::uintptr_t lo, std::uintptr_t hi) const {
  const std::uint64_t seq = single_seq_.load(std::memory_order_acquire);
  if (seq & 1) return false;  // changing: take the lock
  const std::uint64_t key = single_key_.load(std::memory_order_relaxed);
  const std::uintptr_t w_lo = single_lo_.load(std::memory_order_relaxed);
  const std::uintptr_t w_hi = single_hi_.load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  if (single_seq_.load(std::memory_order_relaxed) != seq) return false;
  return key != kNoWrites && key == key_of(stream) && w_lo == lo && w_hi == hi;
}

void AccessOrder::before(StreamRef stream, std::uintptr_t lo, std::uintptr_t hi) {
  const std::uint64_t q = quiet_.load(std::memory_order_acquire);
  if (q == kNoWrites || q == key_of(stream)) return;  // nothing written by another stream
  std::lock_guard<std::mutex> lock(mutex_);
  for (Write& w : writes_) {
    if (same_stream(w.stream, stream)) continue;
    shared_ = true;
    if (!overlaps(w.lo, w.hi, lo, hi)) continue;
    // A write that recorded no event yet is marked now: the wait then also
    // covers work its stream queued after it, which is late but never wrong.
    if (!w.mark && !mark(w)) continue;
    CUHOST_CU(cuStreamWaitEvent, reinterpret_cast<CUstream>(stream.handle), w.mark->event, 0);
  }
  publish_single_write();
}

void AccessOrder::wrote(StreamRef stream, std::uintptr_t lo, std::uintptr_t hi, bool completed, MarkBatch* batch) {
  // The common case, one stream rewriting the same bytes: nothing changes,
  // and the lock is not needed to see it.
  if (!completed && same_single_write(stream, lo, hi)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!shared_ && !completed && writes_.size() == 1 && same_stream(writes_[0].stream, stream) && writes_[0].lo == lo &&
      writes_[0].hi == hi)
    return;
  // Every way out below publishes what changed for the check above.
  struct Publish {
    AccessOrder* self;
    ~Publish() { self->publish_single_write(); }
  } publish{this};
  // Records inside the new range are superseded: the writing stream waited
  // for those of other streams in before(), and follows its own.
  auto covered = [&](const Write& w) { return w.lo >= lo && w.hi <= hi; };
  writes_.erase(std::remove_if(writes_.begin(), writes_.end(), covered), writes_.end());
  for (const Write& w : writes_) shared_ |= !same_stream(w.stream, stream);
  if (completed) {
    note_quiet();
    return;
  }
  Write w;
  w.stream = stream;
  w.lo = lo;
  w.hi = hi;
  if (shared_ && !mark(w, batch)) {
    note_quiet();
    return;
  }
  writes_.push_back(w);
  if (writes_.size() <= kMaxWrites) {
    note_quiet();
    return;
  }
  // Many disjoint writes: one record per stream spanning its ranges, marked
  // by its newest event (a stream's later event covers its earlier work).
  std::vector<Write> merged;
  for (Write& x : writes_) {
    auto it =
        std::find_if(merged.begin(), merged.end(), [&](const Write& m) { return same_stream(m.stream, x.stream); });
    if (it == merged.end()) {
      merged.push_back(std::move(x));
      continue;
    }
    it->lo = std::min(it->lo, x.lo);
    it->hi = std::max(it->hi, x.hi);
    // The newer write's mark (or none: marked when needed, covering both).
    it->mark = std::move(x.mark);
  }
  writes_.swap(merged);
  note_quiet();
}

bool AccessOrder::written_from_other_device(int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  bool any = false;
  for (Write& w : writes_) {
    if (owner_device(w.stream) == device) continue;
    try {
      if (!w.mark && !mark(w)) continue;
    } catch (...) {
      continue;  // no context left: nothing of it runs any more
    }
    any = true;
  }
  publish_single_write();  // mark() may have retired a write
  return any;
}

void AccessOrder::finish_writes() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Write& w : writes_)
    if (w.mark) cuda::driver().cuEventSynchronize(w.mark->event);
}

}  // namespace cuhost::runtime
