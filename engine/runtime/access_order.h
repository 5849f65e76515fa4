// Cross-stream ordering of the work on one device allocation. cuhost's
// streams do not wait for each other (its default streams are non-blocking,
// one per device), so work queued on one stream that reads or writes an
// array is made to wait, with cuStreamWaitEvent, for earlier writes of the
// same bytes queued on another stream, of any device: the CUDA programming
// guide's rule for memory shared between streams and, through peer access,
// between devices. Work on the stream that wrote last costs no driver call;
// nothing ever waits on the host. Writes are tracked by byte range, so two
// streams working on disjoint parts of one array (a stencil's interior and
// its halo rows) run concurrently. The CPU backend runs its work in order
// and does not use this.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace cuhost::runtime {

// A stream as the ordering sees it: its handle and the device whose context
// it belongs to (the special handles 0, legacy and per-thread stand for a
// different stream on each device).
struct StreamRef {
  std::uintptr_t handle = 0;
  int device = 0;
};

// An event recorded on a stream after some work; the writes it marks share
// it (every array argument of one launch), and the last one to go returns
// it to its device's pool.
struct StreamMark;

// The mark a batch of writes queued together on one stream share: a launch
// passes one for all its array arguments, the end of a collectives group
// one for the writes of its calls.
struct MarkBatch {
  StreamRef stream;
  std::shared_ptr<StreamMark> mark;
};

class AccessOrder {
 public:
  AccessOrder() = default;
  ~AccessOrder();
  AccessOrder(const AccessOrder&) = delete;
  AccessOrder& operator=(const AccessOrder&) = delete;

  // Makes `stream` wait for the earlier writes of bytes [lo, hi) that were
  // queued on other streams, before work touching them is queued there.
  // Throws UserError on driver failures.
  void before(StreamRef stream, std::uintptr_t lo, std::uintptr_t hi);
  // Records that work writing [lo, hi) was just queued on `stream`;
  // `completed` when it has already finished (a synchronous copy). Writes
  // with one `batch` share the event that marks them.
  void wrote(StreamRef stream, std::uintptr_t lo, std::uintptr_t hi, bool completed, MarkBatch* batch = nullptr);
  // Whether a write queued on a stream of another device than `device` may
  // still be running: such memory must not be freed before it finishes
  // (freeing waits only for the memory's own device).
  bool written_from_other_device(int device);
  // Blocks until every recorded write has finished (before a release that
  // written_from_other_device asked for). Never throws.
  void finish_writes() noexcept;

 private:
  struct Write {
    StreamRef stream;
    std::uintptr_t lo = 0, hi = 0;
    std::shared_ptr<StreamMark> mark;  // recorded after the write; null until needed
  };
  // Marks w (from `batch` when it holds a mark of w's stream); false when
  // its stream could not be marked and the write was waited for instead (it
  // then overlaps nothing).
  bool mark(Write& w, MarkBatch* batch = nullptr);

  // Called with mutex_ held after writes_ changed: sets quiet_.
  void note_quiet();
  // Called with mutex_ held after writes_ or shared_ changed: publishes the
  // state wrote()'s lock-free check reads (see same_single_write).
  void publish_single_write();
  // Whether the memory holds exactly one write, of [lo, hi) by `stream`, and
  // no other stream has used it: rewriting those bytes on that stream then
  // changes nothing. Read without the lock (a sequence lock).
  bool same_single_write(StreamRef stream, std::uintptr_t lo, std::uintptr_t hi) const;

  // When every listed write was made by one stream (or none is listed),
  // that stream's key (see access_order.cpp; kNoWrites when none): work on
  // it needs no wait, which before() sees without taking the lock.
  std::atomic<std::uint64_t> quiet_{0};
  // The single write's stream key and range for same_single_write() (key 0:
  // no such write), and the sequence number guarding them: odd while they
  // change. Launches that rewrite an array on its stream, the common case,
  // then take no lock.
  std::atomic<std::uint64_t> single_seq_{0};
  std::atomic<std::uint64_t> single_key_{0};
  std::atomic<std::uintptr_t> single_lo_{0}, single_hi_{0};
  std::mutex mutex_;
  std::vector<Write> writes_;
  // Set once two streams used the memory: from then on every write records
  // its event at once, so a later reader waits for that write only and not
  // for whatever its stream queued after it.
  bool shared_ = false;
};

// Whether two stream references name the same stream.
inline bool same_stream(StreamRef a, StreamRef b) {
  constexpr std::uintptr_t kLastSpecialHandle = 2;  // 0, CU_STREAM_LEGACY (1), CU_STREAM_PER_THREAD (2)
  return a.handle == b.handle && (a.handle > kLastSpecialHandle || a.device == b.device);
}

}  // namespace cuhost::runtime
