// Record scalars as kernel arguments on a GPU: numba passes a record by
// reference, so the launch copies it into device memory, passes that
// address, and copies the bytes back into the scalar's storage afterwards
// (on the CPU backend the kernel gets the storage itself).
#include "python/device_array.h"
#include "python/py_api.h"
#include "python/record_dtype.h"
#include "runtime/device_memory.h"

namespace cuhost::python {

namespace {

bool record_region(PyObject* record, HostRegion* out) {
  const ir::Type* t = nullptr;
  void* data = nullptr;
  if (!record_scalar(record, &t, &data)) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "not a NumPy record");
    return false;
  }
  out->data = static_cast<char*>(data);
  out->ndim = 0;
  out->itemsize = t->byte_size();
  out->readonly = false;
  return true;
}

}  // namespace

PyObject* record_to_device_for_launch(PyObject* record, const ArrayView& view, std::uintptr_t stream) {
  (void)view;
  HostRegion region;
  if (!record_region(record, &region)) return nullptr;
  PyRef dtype(PyObject_GetAttrString(record, "dtype"));
  if (!dtype) return nullptr;
  PyRef copy;
  {
    runtime::LaunchTemporaryScope temporaries(stream);
    copy = PyRef(new_device_array(0, nullptr, nullptr, dtype.get(), false, nullptr));
  }
  if (!copy) return nullptr;
  return guarded<PyObject*>(nullptr, [&] {
    copy_host_to_device(region, reinterpret_cast<DeviceArrayObject*>(copy.get()), stream, false);
    return copy.release();
  });
}

int record_copy_back_after_launch(PyObject* device_copy, PyObject* record, std::uintptr_t stream) {
  HostRegion region;
  if (!record_region(record, &region)) return -1;
  return guarded(-1, [&]() -> int {
    copy_device_to_host(reinterpret_cast<DeviceArrayObject*>(device_copy), region, stream, true);
    return 0;
  });
}

}  // namespace cuhost::python
