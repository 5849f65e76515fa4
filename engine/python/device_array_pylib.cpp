// The parts of DeviceNDArray that are numba-cuda's memory-object API rather
// than array mechanics, implemented in Python by cuda.cudadrv.devicearray
// (where the MemoryPointer, IPC and stream objects they return live):
// gpu_data, device_ctypes_pointer, get_ipc_handle() and split(). Each
// attribute here forwards to that module's function, installed as the
// array_<name> hook (python_hooks.h).
#include "python/device_array.h"
#include "python/py_api.h"
#include "python/python_hooks.h"

namespace cuhost::python {

namespace {

PyObject* forward(Hook hook, PyObject* self, PyObject* args, PyObject* kwargs) {
  PyObject* fn = python::hook(hook);
  if (!fn) return nullptr;
  Py_ssize_t n = args ? PyTuple_GET_SIZE(args) : 0;
  PyRef all(PyTuple_New(n + 1));
  if (!all) return nullptr;
  PyTuple_SET_ITEM(all.get(), 0, Py_NewRef(self));
  for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(all.get(), i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
  return PyObject_Call(fn, all.get(), kwargs);
}

}  // namespace

PyObject* device_array_gpu_data(PyObject* self, void*) { return forward(Hook::ArrayGpuData, self, nullptr, nullptr); }

PyObject* device_array_ctypes_pointer(PyObject* self, void*) {
  return forward(Hook::ArrayDeviceCtypesPointer, self, nullptr, nullptr);
}

PyObject* device_array_get_ipc_handle(PyObject* self, PyObject*) {
  return forward(Hook::ArrayGetIpcHandle, self, nullptr, nullptr);
}

PyObject* device_array_split(PyObject* self, PyObject* args, PyObject* kwargs) {
  return forward(Hook::ArraySplit, self, args, kwargs);
}

}  // namespace cuhost::python
