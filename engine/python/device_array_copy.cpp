// Strided copies between host buffers and device arrays. A copy between two
// regions with identical strides that cover their bytes densely is one
// memcpy; anything else goes through a host staging buffer holding the span
// of device bytes the view touches (read first when the view has gaps, so
// bytes between its elements are preserved). On the CPU backend device
// memory is host memory and the strided loop runs in place. A copy runs on
// the device of the array it touches (its default stream when none is
// given); between arrays of two devices it is a peer copy.
#include <cstring>
#include <vector>

#include "python/array_order.h"
#include "python/device_array.h"
#include "python/errors.h"
#include "python/stream_view.h"
#include "python/streams.h"
#include "python/transfer_overrides.h"
#include "runtime/device_memory.h"
#include "runtime/devices.h"
#include "runtime/graph_capture.h"

namespace cuhost::python {

namespace {

// Copies every element of a `shape` region between two strided layouts.
void strided_copy(char* dst, const std::int64_t* dst_strides, const char* src, const std::int64_t* src_strides,
                  const std::int64_t* shape, int ndim, std::int64_t itemsize) {
  if (ndim == 0) {
    std::memmove(dst, src, static_cast<size_t>(itemsize));
    return;
  }
  if (ndim == 1) {
    std::int64_t n = shape[0];
    if (dst_strides[0] == itemsize && src_strides[0] == itemsize) {
      std::memmove(dst, src, static_cast<size_t>(n * itemsize));
      return;
    }
    for (std::int64_t i = 0; i < n; ++i)
      std::memcpy(dst + i * dst_strides[0], src + i * src_strides[0], static_cast<size_t>(itemsize));
    return;
  }
  for (std::int64_t i = 0; i < shape[0]; ++i)
    strided_copy(dst + i * dst_strides[0], dst_strides + 1, src + i * src_strides[0], src_strides + 1, shape + 1,
                 ndim - 1, itemsize);
}

struct Span {
  std::int64_t low = 0;    // byte offset of the lowest touched byte from the first element
  std::int64_t bytes = 0;  // bytes spanned
};

Span span_of(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize) {
  Span s;
  std::int64_t high = itemsize;
  for (int i = 0; i < ndim; ++i) {
    if (shape[i] == 0) return Span{0, 0};
    std::int64_t extent = (shape[i] - 1) * strides[i];
    if (extent < 0)
      s.low += extent;
    else
      high += extent;
  }
  s.bytes = high - s.low;
  return s;
}

bool dense(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize) {
  Span s = span_of(ndim, shape, strides, itemsize);
  return s.bytes == element_count(ndim, shape) * itemsize;
}

bool same_strides(int ndim, const std::int64_t* shape, const std::int64_t* a, const std::int64_t* b) {
  for (int i = 0; i < ndim; ++i)
    if (shape[i] != 1 && a[i] != b[i]) return false;
  return true;
}

std::uintptr_t resolve(std::uintptr_t stream) { return stream ? stream : default_launch_stream(); }

// Tests set this to run the GPU code paths (span staging through host
// buffers) on the CPU backend, where the byte copies are memmoves.
bool g_force_staging = false;

// While a graph is being captured, copies take the general path, whose
// runtime copies are recorded (or refused) when their stream is captured.
bool in_place() { return runtime::device_is_host() && !g_force_staging && !runtime::capture_in_progress(); }

}  // namespace

bool host_region(PyObject* ndarray, HostRegion* out, bool writable) {
  Py_buffer view;
  if (PyObject_GetBuffer(ndarray, &view, writable ? PyBUF_RECORDS : PyBUF_RECORDS_RO) < 0) {
    // NumPy cannot describe user dtypes (ml_dtypes' bfloat16, 'E') as a
    // buffer format; only the layout is needed here.
    if (!PyErr_ExceptionMatches(PyExc_ValueError)) return false;
    PyErr_Clear();
    if (PyObject_GetBuffer(ndarray, &view, writable ? (PyBUF_STRIDES | PyBUF_WRITABLE) : PyBUF_STRIDES) < 0)
      return false;
  }
  if (view.ndim > kMaxDims) {
    PyBuffer_Release(&view);
    PyErr_Format(PyExc_ValueError, "arrays have at most %d dimensions (got %d)", kMaxDims, view.ndim);
    return false;
  }
  out->data = static_cast<char*>(view.buf);
  out->ndim = view.ndim;
  out->itemsize = view.itemsize;
  out->readonly = view.readonly;
  for (int i = 0; i < view.ndim; ++i) {
    out->shape[i] = view.shape[i];
    out->strides[i] = view.strides ? view.strides[i] : 0;
  }
  if (!view.strides) c_strides(view.ndim, out->shape, out->itemsize, out->strides);
  PyBuffer_Release(&view);  // numpy keeps the data alive as long as the array
  return true;
}

void copy_host_to_device(const HostRegion& src, const DeviceArrayObject* dst, std::uintptr_t stream, bool synchronous) {
  const int nd = dst->ndim;
  const std::int64_t isz = dst->itemsize;
  if (element_count(nd, dst->shape) == 0) return;
  const Span extent = span_of(nd, dst->shape, dst->strides, isz);
  if (run_transfer_override(Transfer::HostToDevice, dst->data + extent.low,
                            reinterpret_cast<std::uintptr_t>(src.data) + extent.low, static_cast<size_t>(extent.bytes)))
    return;
  if (in_place()) {
    strided_copy(reinterpret_cast<char*>(dst->data), dst->strides, src.data, src.strides, dst->shape, nd, isz);
    return;
  }
  runtime::DeviceScope on_device(dst->device);
  stream = resolve(stream);
  const ArrayBytes written = array_bytes(dst);
  order_before(written, stream, dst->device);
  Span span = span_of(nd, dst->shape, dst->strides, isz);
  std::uintptr_t low = dst->data + span.low;
  bool dst_dense = dense(nd, dst->shape, dst->strides, isz);
  if (dst_dense && same_strides(nd, dst->shape, dst->strides, src.strides)) {
    runtime::copy_to_device(low, src.data + span.low, static_cast<size_t>(span.bytes), stream, synchronous);
    capture_touch(dst, written, stream);
    order_after_write(written, stream, dst->device, synchronous);
    return;
  }
  std::vector<char> staging(static_cast<size_t>(span.bytes));
  if (!dst_dense) runtime::copy_to_host(staging.data(), low, staging.size(), stream, true);
  strided_copy(staging.data() - span.low, dst->strides, src.data, src.strides, dst->shape, nd, isz);
  runtime::copy_to_device(low, staging.data(), staging.size(), stream, true);
  order_after_write(written, stream, dst->device, true);
}

void copy_device_to_host(const DeviceArrayObject* src, const HostRegion& dst, std::uintptr_t stream, bool synchronous) {
  const int nd = src->ndim;
  const std::int64_t isz = src->itemsize;
  if (element_count(nd, src->shape) == 0) return;
  const Span extent = span_of(nd, src->shape, src->strides, isz);
  if (run_transfer_override(Transfer::DeviceToHost, reinterpret_cast<std::uintptr_t>(dst.data) + extent.low,
                            src->data + extent.low, static_cast<size_t>(extent.bytes)))
    return;
  if (in_place()) {
    strided_copy(dst.data, dst.strides, reinterpret_cast<const char*>(src->data), src->strides, src->shape, nd, isz);
    return;
  }
  runtime::DeviceScope on_device(src->device);
  stream = resolve(stream);
  const ArrayBytes read = array_bytes(src);
  order_before(read, stream, src->device);
  Span span = span_of(nd, src->shape, src->strides, isz);
  std::uintptr_t low = src->data + span.low;
  if (dense(nd, src->shape, src->strides, isz) && same_strides(nd, src->shape, src->strides, dst.strides)) {
    runtime::copy_to_host(dst.data + span.low, low, static_cast<size_t>(span.bytes), stream, synchronous);
    capture_touch(src, read, stream);
    // A copy still running reads the array: a later write on another
    // stream waits for it, as for a write.
    if (!synchronous) order_after_write(read, stream, src->device, false);
    return;
  }
  std::vector<char> staging(static_cast<size_t>(span.bytes));
  runtime::copy_to_host(staging.data(), low, staging.size(), stream, true);
  strided_copy(dst.data, dst.strides, staging.data() - span.low, src->strides, src->shape, nd, isz);
}

void copy_device_to_device(const DeviceArrayObject* src, const DeviceArrayObject* dst, std::uintptr_t stream,
                           bool synchronous) {
  const int nd = dst->ndim;
  const std::int64_t isz = dst->itemsize;
  if (element_count(nd, dst->shape) == 0) return;
  if (in_place()) {
    // Through a temporary when the two views may overlap.
    HostRegion tmp;
    tmp.ndim = nd;
    tmp.itemsize = isz;
    for (int i = 0; i < nd; ++i) tmp.shape[i] = dst->shape[i];
    c_strides(nd, tmp.shape, isz, tmp.strides);
    std::vector<char> buffer(static_cast<size_t>(element_count(nd, tmp.shape) * isz));
    strided_copy(buffer.data(), tmp.strides, reinterpret_cast<const char*>(src->data), src->strides, src->shape, nd,
                 isz);
    strided_copy(reinterpret_cast<char*>(dst->data), dst->strides, buffer.data(), tmp.strides, dst->shape, nd, isz);
    return;
  }
  runtime::DeviceScope on_device(dst->device);
  stream = resolve(stream);
  if (dense(nd, src->shape, src->strides, isz) && dense(nd, dst->shape, dst->strides, isz) &&
      same_strides(nd, dst->shape, src->strides, dst->strides)) {
    const ArrayBytes written = array_bytes(dst);
    const ArrayBytes read = array_bytes(src);
    order_before(read, stream, dst->device);
    order_before(written, stream, dst->device);
    Span span = span_of(nd, src->shape, src->strides, isz);
    if (src->device >= 0 && dst->device >= 0 && src->device != dst->device)
      runtime::copy_between_devices(dst->data + span.low, dst->device, src->data + span.low, src->device,
                                    static_cast<size_t>(span.bytes), stream, synchronous);
    else
      runtime::copy_on_device(dst->data + span.low, src->data + span.low, static_cast<size_t>(span.bytes), stream,
                              synchronous);
    capture_touch(src, read, stream);
    capture_touch(dst, written, stream);
    if (!synchronous) order_after_write(read, stream, dst->device, false);  // see copy_device_to_host
    order_after_write(written, stream, dst->device, synchronous);
    return;
  }
  // Mixed layouts: through a C-ordered host copy.
  HostRegion tmp;
  tmp.ndim = nd;
  tmp.itemsize = isz;
  for (int i = 0; i < nd; ++i) tmp.shape[i] = dst->shape[i];
  c_strides(nd, tmp.shape, isz, tmp.strides);
  std::vector<char> buffer(static_cast<size_t>(element_count(nd, tmp.shape) * isz));
  tmp.data = buffer.data();
  copy_device_to_host(src, tmp, stream, true);
  copy_host_to_device(tmp, dst, stream, true);
}

void force_staging_for_test(bool on) { g_force_staging = on; }

bool host_region_page_locked(const HostRegion& region) {
  Span span = span_of(region.ndim, region.shape, region.strides, region.itemsize);
  return span.bytes == 0 || runtime::is_page_locked(region.data + span.low, static_cast<std::size_t>(span.bytes));
}

bool copy_stream(PyObject* stream_arg, std::uintptr_t* handle, bool* synchronous) {
  *handle = 0;
  *synchronous = true;
  if (!stream_arg || stream_arg == Py_None) return true;
  if (!stream_handle(stream_arg, handle)) return false;
  // numba: a copy on an explicit stream (any Stream object, including the
  // default streams) is asynchronous. Plain 0 means the default stream,
  // synchronously.
  *synchronous = *handle == 0 && !PyObject_TypeCheck(stream_arg, &StreamType);
  return true;
}

bool array_copy_stream(const DeviceArrayObject* array, PyObject* stream_arg, std::uintptr_t* handle,
                       bool* synchronous) {
  if (!copy_stream(stream_arg, handle, synchronous)) return false;
  const bool none_given = *handle == 0 && *synchronous;
  if (none_given && array->stream && PyObject_TypeCheck(array->stream, &StreamType))
    return stream_handle(array->stream, handle);
  return true;
}

}  // namespace cuhost::python
