// The parts of DeviceNDArray that are numba-cuda's memory-object API rather
// than array mechanics, implemented in Python by cuda.cudadrv.devicearray
// (where the MemoryPointer, IPC and stream objects they return live):
// gpu_data, device_ctypes_pointer, get_ipc_handle() and split(). Each
// attribute here forwards to `_array_<name>(self, ...)` of that module.
#include "python/device_array.h"
#include "python/py_api.h"

namespace cuhost::python {

namespace {

PyObject* helper(const char* name) {
  static PyObject* module = nullptr;  // kept for the process
  if (!module) {
    module = PyImport_ImportModule("cuda.cudadrv.devicearray");
    if (!module) return nullptr;
  }
  return PyObject_GetAttrString(module, name);
}

PyObject* forward(const char* name, PyObject* self, PyObject* args, PyObject* kwargs) {
  PyRef fn(helper(name));
  if (!fn) return nullptr;
  Py_ssize_t n = args ? PyTuple_GET_SIZE(args) : 0;
  PyRef all(PyTuple_New(n + 1));
  if (!all) return nullptr;
  PyTuple_SET_ITEM(all.get(), 0, Py_NewRef(self));
  for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(all.get(), i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
  return PyObject_Call(fn.get(), all.get(), kwargs);
}

}  // namespace

PyObject* device_array_gpu_data(PyObject* self, void*) { return forward("_array_gpu_data", self, nullptr, nullptr); }

PyObject* device_array_ctypes_pointer(PyObject* self, void*) {
  return forward("_array_device_ctypes_pointer", self, nullptr, nullptr);
}

PyObject* device_array_get_ipc_handle(PyObject* self, PyObject*) {
  return forward("_array_get_ipc_handle", self, nullptr, nullptr);
}

PyObject* device_array_split(PyObject* self, PyObject* args, PyObject* kwargs) {
  return forward("_array_split", self, args, kwargs);
}

}  // namespace cuhost::python
