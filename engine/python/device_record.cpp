// Device records on the host side: an element of a device array of a
// structured dtype is a DeviceRecord (cuda.cudadrv.devicearray), a 0-d view
// of the element whose fields read back and write through to device memory,
// as in numba-cuda. This file gives that Python class its one primitive,
// `_cuhost._device_subview(array, offset, dtype, shape)` (a C-ordered view of
// a field's bytes), and makes integer indexing of record arrays return one.
#include "python/device_array.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/python_hooks.h"

namespace cuhost::python {

bool is_structured(PyObject* dtype) {
  PyRef names(PyObject_GetAttrString(dtype, "names"));
  if (!names) {
    PyErr_Clear();
    return false;
  }
  return names.get() != Py_None;
}

// The record_from_view hook (cuda/cudadrv/devicearray.py) makes the
// DeviceRecord; `view` is stolen.
PyObject* wrap_device_record(PyObject* view) {
  PyRef owned(view);
  return call_hook(Hook::RecordFromView, PyRef(PyTuple_Pack(1, owned.get()))).release();
}

namespace {

PyObject* py_device_subview(PyObject*, PyObject* args) {
  PyObject *arr, *dtype_spec, *shape_obj;
  long long offset;
  if (!PyArg_ParseTuple(args, "OLOO:_device_subview", &arr, &offset, &dtype_spec, &shape_obj)) return nullptr;
  if (!is_device_array(arr)) {
    PyErr_SetString(PyExc_TypeError, "_device_subview: not a DeviceNDArray");
    return nullptr;
  }
  auto* a = reinterpret_cast<DeviceArrayObject*>(arr);
  PyRef dtype(to_numpy_dtype(dtype_spec));
  if (!dtype) return nullptr;
  std::int64_t shape[kMaxDims], strides[kMaxDims];
  PyRef seq(PySequence_Fast(shape_obj, "_device_subview: shape must be a sequence"));
  if (!seq) return nullptr;
  int ndim = static_cast<int>(PySequence_Fast_GET_SIZE(seq.get()));
  for (int i = 0; i < ndim && i < kMaxDims; ++i) shape[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq.get(), i));
  PyRef size(PyObject_GetAttrString(dtype.get(), "itemsize"));
  std::int64_t itemsize = size ? PyLong_AsLongLong(size.get()) : 0;
  if (PyErr_Occurred() || ndim > kMaxDims) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_device_subview: too many dimensions");
    return nullptr;
  }
  std::int64_t span = element_count(ndim, shape) * itemsize;
  std::int64_t available = element_count(a->ndim, a->shape) * a->itemsize;
  if (offset < 0 || offset + span > available || !is_c_contiguous(a->ndim, a->shape, a->strides, a->itemsize)) {
    PyErr_SetString(PyExc_ValueError, "_device_subview: the field lies outside the array's contiguous bytes");
    return nullptr;
  }
  c_strides(ndim, shape, itemsize, strides);
  return new_device_view(a, nullptr, a->data + static_cast<std::uintptr_t>(offset), ndim, shape, strides, dtype.get(),
                         a->readonly, a->stream);
}

PyMethodDef g_methods[] = {{"_device_subview", py_device_subview, METH_VARARGS,
                            "_device_subview(array, offset, dtype, shape): a C-ordered view at a byte offset."},
                           {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_device_record(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
