// The bytes a device array's work touches, for the cross-stream ordering of
// its allocation (runtime/access_order.h): copies, launches and collectives
// call `before` ahead of queueing work on a stream and `after_write` once
// work that writes the array is queued.
#pragma once

#include <cstdint>

namespace cuhost::runtime {
class AccessOrder;
struct MarkBatch;
}  // namespace cuhost::runtime

namespace cuhost::python {

struct ArrayView;
struct DeviceArrayObject;

struct ArrayBytes {
  runtime::AccessOrder* order = nullptr;  // null: memory cuhost does not track (borrowed, CPU backend)
  std::uintptr_t lo = 0, hi = 0;
};

ArrayBytes array_bytes(const DeviceArrayObject* a);
ArrayBytes array_bytes(const ArrayView& v);

// `stream` is the handle the work goes to, `device` the device it is issued
// on (the owner of the special handles 0 / legacy / per-thread). Nothing
// while a graph is being captured, on any thread: a capture orders its
// nodes itself, and a wait for an event recorded outside it would end it.
void order_before(const ArrayBytes& bytes, std::uintptr_t stream, int device);
// Writes queued together (a launch's array arguments) pass one `batch`:
// they share the event that marks them.
void order_after_write(const ArrayBytes& bytes, std::uintptr_t stream, int device, bool completed,
                       runtime::MarkBatch* batch = nullptr);

// While `stream` is being captured: the bytes of `a` a copy just captured
// there reads or writes, so the graph's launches are ordered like the copy
// (runtime::GraphTouch). Nothing otherwise.
void capture_touch(const DeviceArrayObject* a, const ArrayBytes& bytes, std::uintptr_t stream);

}  // namespace cuhost::python
