// Byte ranges of device arrays for the cross-stream ordering (see array_order.h).
#include "python/array_order.h"

#include "python/array_view.h"
#include "python/device_array.h"
#include "runtime/access_order.h"
#include "runtime/graph_capture.h"

namespace cuhost::python {

namespace {

// [lo, hi) of the bytes a strided view touches (negative strides included).
ArrayBytes span(runtime::AccessOrder* order, std::uintptr_t data, int ndim, const std::int64_t* shape,
                const std::int64_t* strides, std::int64_t itemsize) {
  ArrayBytes b;
  std::int64_t low = 0, high = itemsize;
  for (int i = 0; i < ndim; ++i) {
    if (shape[i] == 0) return b;  // no bytes: nothing to order
    const std::int64_t extent = (shape[i] - 1) * strides[i];
    if (extent < 0)
      low += extent;
    else
      high += extent;
  }
  b.order = order;
  b.lo = data + static_cast<std::uintptr_t>(low);
  b.hi = data + static_cast<std::uintptr_t>(high);
  return b;
}

}  // namespace

ArrayBytes array_bytes(const DeviceArrayObject* a) {
  if (!a->memory || !a->memory->order()) return {};
  return span(a->memory->order(), a->data, a->ndim, a->shape, a->strides, a->itemsize);
}

ArrayBytes array_bytes(const ArrayView& v) {
  if (!v.order || !v.dtype) return {};
  return span(v.order, reinterpret_cast<std::uintptr_t>(v.data), v.ndim, v.shape, v.strides, v.dtype->byte_size());
}

void order_before(const ArrayBytes& bytes, std::uintptr_t stream, int device) {
  if (!bytes.order || runtime::capture_in_progress()) return;
  bytes.order->before({stream, device}, bytes.lo, bytes.hi);
}

void order_after_write(const ArrayBytes& bytes, std::uintptr_t stream, int device, bool completed,
                       runtime::MarkBatch* batch) {
  if (!bytes.order || runtime::capture_in_progress()) return;
  bytes.order->wrote({stream, device}, bytes.lo, bytes.hi, completed, batch);
}

void capture_touch(const DeviceArrayObject* a, const ArrayBytes& bytes, std::uintptr_t stream) {
  if (!bytes.order || !runtime::capture_in_progress()) return;
  runtime::capture_copy_touches(stream, {bytes.order, bytes.lo, bytes.hi, a->memory});
}

}  // namespace cuhost::python
